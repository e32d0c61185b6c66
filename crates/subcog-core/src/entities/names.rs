//! The entities a memory names, read off its text at capture without being told: the
//! speaker of a transcript line ("Caroline: …"), proper names written inside a sentence
//! ("went hiking with Jon", "the Lumen billing service"), and technologies ([`super`]).
//!
//! Recall boosts a memory whose entities the query names, as it does for tags: captures by
//! an agent or from a transcript carry no tags for the people and services they are about.
//! A name only addressed ("Wow Caroline, that's great!", "Thanks, Mel!") is not what the
//! line is about, and is left out; so are words capitalized only because a sentence starts
//! with them, calendar words, and "I".

use std::collections::BTreeSet;

/// Capitalized words that are not names of something a memory is about (with months,
/// weekdays and [`GREETINGS`]).
const NOT_NAMES: &[&str] = &[
    "i", "i'm", "i've", "i'll", "i'd", "im", "no", "good", "nice", "cool", "lol", "omg",
];

/// Words after which a capitalized name is addressed rather than talked about.
const GREETINGS: &[&str] = &[
    "hey",
    "hi",
    "hello",
    "thanks",
    "thank",
    "wow",
    "oh",
    "yes",
    "yeah",
    "congrats",
    "congratulations",
    "dear",
    "bye",
    "sure",
    "ok",
    "okay",
    "great",
    "awesome",
    "sorry",
    "morning",
    "evening",
    "night",
    "cheers",
    "haha",
];

/// A capitalized word that names nothing a memory is about: "I", "Monday", "May", "Thanks".
fn not_a_name(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    NOT_NAMES.contains(&lower.as_str())
        || GREETINGS.contains(&lower.as_str())
        || crate::temporal::month_number(&lower).is_some()
        || lower.parse::<chrono::Weekday>().is_ok()
}

/// The entities `text` names, lower case, each word once (a multi-word name gives each of
/// its words, so that a query naming either finds it).
pub fn named_in(text: &str) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    let body = scan(text, &mut |name| {
        out.insert(name.to_lowercase());
        false
    });
    for t in super::technologies_in(body) {
        out.insert(t);
    }
    out.into_iter().collect()
}

/// Whether `text` names `entity` (lower case) as [`named_in`] would, without collecting
/// the rest: recall asks this of every candidate for each entity a query names.
pub fn names(text: &str, entity: &str) -> bool {
    // Most candidates do not contain the word at all: a substring check rejects them
    // before any tokenizing.
    if entity.is_empty() || !contains_ignore_ascii_case(text, entity) {
        return false;
    }
    let mut found = false;
    let body = scan(text, &mut |name| {
        found = name.eq_ignore_ascii_case(entity);
        found
    });
    found || super::is_technology(entity) && super::technologies_in(body).iter().any(|t| t == entity)
}

/// Calls `each` with every name `text` states (the speaker label's words, then the names
/// inside sentences) until it returns true; returns the text after the speaker label.
fn scan<'t>(text: &'t str, each: &mut dyn FnMut(&str) -> bool) -> &'t str {
    let mut body = text;
    // A transcript line's speaker: one to three capitalized words and a colon, first.
    if let Some((label, rest)) = text.split_once(':') {
        let words: Vec<&str> = label.split_whitespace().collect();
        if (1..=3).contains(&words.len()) && words.iter().all(|w| is_capitalized(w)) {
            for w in &words {
                if each(w) {
                    return rest;
                }
            }
            body = rest;
        }
    }
    // Line by line: a line (a list item, a heading) starts like a sentence.
    for line in body.lines() {
        // Bold spans are headings ("**Lens Filters**"): title case, not names.
        let tokens: Vec<&str> = line.split("**").step_by(2).flat_map(str::split_whitespace).collect();
        for (i, raw) in tokens.iter().enumerate() {
            let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
            let word = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("’s"))
                .unwrap_or(word);
            if word.len() < 2 || !is_capitalized(word) || not_a_name(word) {
                continue;
            }
            let previous = i.checked_sub(1).and_then(|j| tokens.get(j)).copied();
            let sentence_start = previous.is_none_or(|p| p.ends_with(['.', '!', '?', ':', ';']) || is_bullet(p))
                || raw.starts_with(['*', '#', '"', '“', '(']);
            if sentence_start && !all_caps_or_inner_caps(word) {
                continue;
            }
            if addressed(previous, raw) {
                continue;
            }
            if each(word) {
                return body;
            }
        }
    }
    body
}

/// Whether `needle` occurs in `haystack`, ASCII case ignored.
fn contains_ignore_ascii_case(haystack: &str, needle: &str) -> bool {
    let Some(first) = needle.chars().next() else {
        return true;
    };
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    haystack.match_indices([lower, upper]).any(|(i, _)| {
        haystack
            .get(i..i + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}

/// A list marker: "-", "*", "•", "1.", "2)".
fn is_bullet(token: &str) -> bool {
    matches!(token, "-" | "*" | "•" | "–")
        || token.trim_end_matches(['.', ')']).chars().all(|c| c.is_ascii_digit()) && token.len() > 1
}

/// "Caroline", "GitHub", "S3": starts with a capital letter.
fn is_capitalized(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// "GitHub", "AWS", "iOS"-like words are names even first in a sentence.
fn all_caps_or_inner_caps(word: &str) -> bool {
    word.chars().skip(1).any(|c| c.is_uppercase() || c.is_ascii_digit())
}

/// A name spoken to: after a greeting or a comma, and followed by a comma, "!" or "?"
/// ("Wow Caroline, …", "Thanks, Mel!", "…, Jon?").
fn addressed(previous: Option<&str>, raw: &str) -> bool {
    let ends_clause = raw.ends_with([',', '!', '?']);
    let after_greeting = previous.is_some_and(|p| {
        let p = p.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        GREETINGS.contains(&p.as_str())
    });
    let after_comma = previous.is_some_and(|p| p.ends_with(','));
    let at_start = previous.is_none();
    after_greeting || ends_clause && (after_comma || at_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speakers_and_names_inside_sentences() {
        assert_eq!(
            named_in("Caroline: I went hiking with Jon near Lake Tahoe last week."),
            vec!["caroline", "jon", "lake", "tahoe"]
        );
        assert_eq!(
            named_in("The Lumen billing service moved from mysql to PostgreSQL"),
            vec!["lumen", "mysql", "postgresql"]
        );
    }

    #[test]
    fn addressed_names_sentence_starts_and_calendar_words_are_not_entities() {
        assert_eq!(named_in("Melanie: Wow Caroline, that's great!"), vec!["melanie"]);
        assert_eq!(named_in("Thanks, Mel! See you on Monday."), Vec::<String>::new());
        assert_eq!(named_in("Yesterday I met Dave, and we talked."), vec!["dave"]);
        assert_eq!(named_in("Use Redis for caching. It is fast."), vec!["redis"]);
        // A colon inside a sentence is not a speaker label.
        assert_eq!(named_in("note: deploys need approval from Priya"), vec!["priya"]);
        assert!(named_in("").is_empty());
    }

    #[test]
    fn lines_list_items_and_bold_headings_start_like_sentences() {
        let reply = "Here are some options:\n- Portable lights for travel\n1. Camera Bags from Peak Design\n**Lens Filters** help too";
        assert_eq!(named_in(reply), vec!["bags", "design", "peak"]);
    }

    #[test]
    fn names_agrees_with_named_in() {
        let texts = [
            "Caroline: I went hiking with Jon near Lake Tahoe last week.",
            "Melanie: Wow Caroline, that's great!",
            "The Lumen billing service moved from mysql to PostgreSQL",
            "Thanks, Mel! See you on Monday.",
        ];
        for text in texts {
            let all = named_in(text);
            for probe in [
                "caroline",
                "jon",
                "tahoe",
                "melanie",
                "mel",
                "lumen",
                "mysql",
                "postgresql",
                "monday",
                "",
            ] {
                assert_eq!(names(text, probe), all.iter().any(|e| e == probe), "{probe} in {text}");
            }
        }
    }

    #[test]
    fn substring_check_ignores_ascii_case() {
        assert!(contains_ignore_ascii_case("Moved to PostgreSQL", "postgresql"));
        assert!(contains_ignore_ascii_case("caroline: hi", "Caroline"));
        assert!(!contains_ignore_ascii_case("Carol went home", "caroline"));
        assert!(!contains_ignore_ascii_case("née", "e\u{301}x"));
    }

    #[test]
    fn names_with_inner_capitals_count_even_first() {
        assert_eq!(named_in("GitHub Actions runs CI now"), vec!["actions", "ci", "github"]);
    }
}
