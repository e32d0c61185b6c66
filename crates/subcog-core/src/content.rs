//! Text helpers for memory content: normalization for duplicate detection, the content
//! hash, one-line summaries, and a cheap token estimate.
//!
//! Pure functions over strings; no I/O.

use sha2::{Digest, Sha256};

/// Longest derived summary, in characters.
pub const SUMMARY_MAX_CHARS: usize = 100;

/// Normalizes content for duplicate detection: Unicode lowercase, whitespace runs collapsed
/// to one space, trimmed. Two captures that differ only in case or spacing are duplicates.
pub fn normalize(content: &str) -> String {
    content
        .split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Hex SHA-256 of the normalized content.
pub fn content_hash(content: &str) -> String {
    let digest = Sha256::digest(normalize(content).as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// Derives a one-line summary: the first sentence or line, cut at a word boundary to at
/// most [`SUMMARY_MAX_CHARS`] characters with an ellipsis when cut.
pub fn derive_summary(content: &str) -> String {
    let first_line = content.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    // Strip markdown heading markers and list bullets that make poor summaries.
    let line = first_line.trim_start_matches(['#', '-', '*', '>', ' ']);
    let sentence = first_sentence(line);
    one_line(sentence, SUMMARY_MAX_CHARS)
}

/// Cleans a given summary to a single line of at most `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    let at_word = match cut.rfind(' ') {
        Some(pos) if pos > max / 2 => &cut[..pos],
        _ => cut.as_str(),
    };
    format!("{}…", at_word.trim_end_matches([',', ';', ':', ' ']))
}

fn first_sentence(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'!' | b'?') {
            // A sentence ends at punctuation followed by whitespace or the end; "v1.2" does not.
            let next = bytes.get(i + 1);
            if next.is_none() || next.is_some_and(u8::is_ascii_whitespace) {
                return &line[..=i];
            }
        }
    }
    line
}

/// Rough token estimate (4 characters per token), used until a real tokenizer is wired in.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_ignores_case_and_spacing() {
        assert_eq!(
            normalize("  Use   PostgreSQL\n for storage "),
            "use postgresql for storage"
        );
        assert_eq!(content_hash("Use PostgreSQL"), content_hash(" use  postgresql "));
        assert_ne!(content_hash("Use PostgreSQL"), content_hash("Use MySQL"));
        assert_eq!(content_hash("x").len(), 64);
    }

    #[test]
    fn summary_is_first_sentence() {
        assert_eq!(
            derive_summary("Use PostgreSQL. It has ACID guarantees."),
            "Use PostgreSQL."
        );
        assert_eq!(derive_summary("\n\n# Title line\nbody"), "Title line");
        assert_eq!(derive_summary("Upgrade to v1.2 now"), "Upgrade to v1.2 now");
    }

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        let long = "word ".repeat(60);
        let s = derive_summary(&long);
        assert!(s.chars().count() <= SUMMARY_MAX_CHARS, "{s}");
        assert!(s.ends_with('…'));
        assert!(!s.contains("wor…"));
        // Multibyte text never panics and stays within the limit.
        let cjk = "記憶".repeat(200);
        assert!(derive_summary(&cjk).chars().count() <= SUMMARY_MAX_CHARS);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn summaries_are_one_bounded_line(text in "\\PC{0,400}") {
            let s = derive_summary(&text);
            prop_assert!(s.chars().count() <= SUMMARY_MAX_CHARS);
            prop_assert!(!s.contains('\n'));
        }

        #[test]
        fn hash_ignores_case_and_whitespace(words in proptest::collection::vec("[a-zA-Z0-9]{1,8}", 1..10)) {
            let spaced = words.join("   ");
            let upper = words.join(" ").to_uppercase();
            prop_assert_eq!(content_hash(&spaced), content_hash(&upper));
        }
    }
}
