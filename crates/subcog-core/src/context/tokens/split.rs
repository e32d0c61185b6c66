//! cl100k's pre-tokenizer: the text is cut into pieces (words with their leading space,
//! runs of digits, punctuation, whitespace) and BPE never merges across pieces.

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use std::sync::OnceLock;

/// tiktoken's cl100k pattern ends in `\s+(?!\S)|\s+`; the regex engine has no look-ahead,
/// so the middle alternative becomes `\s+\s` whose last character is given back (see
/// [`Pieces`]). Patterns earlier in the list win, as alternatives do in tiktoken.
const PATTERNS: [&str; 3] = [
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$",
    r"\s+\s",
    r"\s+",
];

/// Index of the pattern whose last character is a look-ahead.
const LOOKAHEAD: usize = 1;

static REGEX: OnceLock<Option<Regex>> = OnceLock::new();

fn regex() -> Option<&'static Regex> {
    REGEX
        .get_or_init(|| match Regex::new_many(&PATTERNS) {
            Ok(regex) => Some(regex),
            Err(e) => {
                // Unreachable with the patterns above; counted per character below if so.
                tracing::error!(error = %e, "the cl100k pre-tokenizer did not compile");
                None
            }
        })
        .as_ref()
}

pub(super) fn warm_up() {
    if REGEX.get().is_none() {
        std::thread::spawn(regex);
    }
}

/// The pieces of `text`, in order; together they are exactly `text`.
pub(super) fn pieces(text: &str) -> Pieces<'_> {
    Pieces {
        regex: regex(),
        text,
        at: 0,
    }
}

/// Iterator over pre-tokenizer pieces.
pub(super) struct Pieces<'t> {
    regex: Option<&'static Regex>,
    text: &'t str,
    at: usize,
}

impl<'t> Iterator for Pieces<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let rest = self.text.get(self.at..).filter(|r| !r.is_empty())?;
        let mut len = match self.regex {
            Some(regex) => regex
                .find(Input::new(rest).anchored(Anchored::Yes))
                .filter(|m| m.end() > 0)
                .map(|m| {
                    if m.pattern().as_usize() == LOOKAHEAD {
                        // Give back the look-ahead character (a match has at least two).
                        let last = rest
                            .get(..m.end())
                            .and_then(|s| s.chars().next_back())
                            .map_or(0, char::len_utf8);
                        m.end() - last
                    } else {
                        m.end()
                    }
                }),
            None => None,
        }
        .unwrap_or(0);
        if len == 0 {
            // Every character matches some alternative; this only guards the loop.
            len = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        let piece = rest.get(..len)?;
        self.at += len;
        Some(piece)
    }
}
