//! Turns of a conversation kept as memories with their neighbours: the turns around one
//! become its `context` (searched at low weight, never shown as the memory), so "Yes, the
//! blue one" or a decision stated as an answer is found by what it answered. Used where a
//! conversation exists — markers captured from a Claude Code transcript, and imports of
//! conversation records — so real captures get what the LoCoMo harness hands its store.

use crate::content::one_line;

/// Turns before a turn that become its context.
pub const BEFORE: usize = 2;
/// Turns after a turn that become its context.
pub const AFTER: usize = 1;
/// Characters kept of each neighbouring turn: a long agent reply says what it answers
/// near its start, and context is only a search aid.
pub const TURN_CHARS: usize = 400;

/// The context of turn `i`: up to [`BEFORE`] turns before and [`AFTER`] after, each on one
/// line of at most [`TURN_CHARS`] characters; `None` when it has no non-empty neighbour.
pub fn neighbours<S: AsRef<str>>(turns: &[S], i: usize) -> Option<String> {
    let before = i.saturating_sub(BEFORE)..i.min(turns.len());
    let after = (i + 1).min(turns.len())..(i + 1 + AFTER).min(turns.len());
    let lines: Vec<String> = before
        .chain(after)
        .filter_map(|j| turns.get(j))
        .map(|t| one_line(t.as_ref(), TURN_CHARS))
        .filter(|t| !t.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A turn as a transcript line: `speaker: text` (unless the text already starts so).
pub fn line(speaker: Option<&str>, text: &str) -> String {
    match speaker.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s)
            if !text
                .trim_start()
                .to_lowercase()
                .starts_with(&format!("{}:", s.to_lowercase())) =>
        {
            format!("{s}: {}", text.trim())
        }
        _ => text.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_turns_before_and_one_after() {
        let turns = ["a", "b", "c", "d", "e"];
        assert_eq!(neighbours(&turns, 2).as_deref(), Some("a\nb\nd"));
        assert_eq!(neighbours(&turns, 0).as_deref(), Some("b"));
        assert_eq!(neighbours(&turns, 4).as_deref(), Some("c\nd"));
        assert_eq!(neighbours(&["only"], 0), None);
        assert_eq!(neighbours(&["x", "  "], 0), None, "blank neighbours are no context");
    }

    #[test]
    fn long_turns_are_cut_and_speakers_named_once() {
        let long = "word ".repeat(500);
        let ctx = neighbours(&[long.as_str(), "b"], 1).expect("context");
        assert!(ctx.chars().count() <= TURN_CHARS, "{}", ctx.len());
        assert_eq!(line(Some("Caroline"), "I went hiking"), "Caroline: I went hiking");
        assert_eq!(
            line(Some("caroline"), "Caroline: I went hiking"),
            "Caroline: I went hiking"
        );
        assert_eq!(line(None, " plain "), "plain");
    }
}
