//! Two signs that a newer memory is about *another* subject than the older one, although
//! they share words:
//!
//! - **Another component** ([`qualifier_conflict`]): the same head word, qualified
//!   differently on each side — "the *email* queue backlog" vs "the *thumbnail* queue
//!   backlog", "the *search* service's request timeout" vs "the *recommendations* service
//!   request timeout", "TTL for *product* images" vs "TTL for the *marketing* pages". A
//!   replacement changes the value of a slot, not the component that owns it.
//! - **Another part** ([`left_foreign`]): the newer moves something *from X to Y* where the
//!   older never named X — "Changed the admin app's Beanstalk platform from Amazon Linux 2
//!   to AL2023" does not replace "The admin app runs on Elastic Beanstalk".

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::values::stem;

/// Besides the subject stopwords: verbs and prepositions that sit next to a subject word
/// without naming a component.
const STOP: &[&str] = &[
    "through", "within", "due", "get", "gets", "got", "find", "found", "fine", "only", "when", "where", "which",
    "what", "how", "while", "since", "until", "because",
];

/// Words of change or state: they sit next to a subject word without qualifying it.
const VERBS: &[&str] = &[
    "switched",
    "switch",
    "moved",
    "migrated",
    "replaced",
    "ported",
    "raised",
    "lowered",
    "bumped",
    "reduced",
    "increased",
    "upgraded",
    "set",
    "changed",
    "retired",
    "removed",
    "deleted",
    "now",
    "going",
    "forward",
    "using",
    "use",
    "uses",
    "used",
    "runs",
    "run",
    "is",
    "are",
];

static WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[#@][A-Za-z0-9_-]+|[A-Za-z][A-Za-z0-9_.+#'-]*[A-Za-z0-9+#]|[A-Za-z]|\$?\d[\d,]*(?:\.\d+)*[a-zA-Z%]*")
        .expect("constant regex")
});

static FROM_TO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bfrom\s+(?:the\s+)?(\S+(?:\s+\S+){0,2}?)\s+(?:to|with)\s").expect("constant regex")
});

/// One word: its stem, whether it states a value (a number or a name), and as written.
struct Token<'a> {
    stem: String,
    value: bool,
    raw: &'a str,
}

fn word_stem(w: &str) -> String {
    let lower = w.to_lowercase();
    let base = lower.strip_suffix("'s").unwrap_or(&lower);
    stem(base)
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    WORD.find_iter(text)
        .map(|m| {
            let raw = m.as_str().trim_end_matches('.');
            let before = text.get(..m.start()).unwrap_or_default().trim_end();
            let sentence_start = before.is_empty() || before.ends_with(['.', ':', '!', '?', ';']);
            let value = raw.starts_with(|c: char| c.is_ascii_digit() || c == '$')
                || raw.chars().any(|c| c.is_ascii_digit())
                || raw.chars().skip(1).any(char::is_uppercase)
                || (raw.starts_with(char::is_uppercase) && !sentence_start);
            Token {
                stem: word_stem(raw),
                value,
                raw,
            }
        })
        .collect()
}

fn stop(w: &str) -> bool {
    super::values::is_stop(w) || STOP.contains(&w)
}

/// A word of change or state, as stemmed or as written ("bumped" stems to "bump").
fn verb(ts: &[Token<'_>], s: &str) -> bool {
    VERBS.contains(&s)
        || ts.iter().any(|t| {
            t.stem == s && {
                let lower = t.raw.to_lowercase();
                lower.ends_with("ed") || VERBS.contains(&lower.as_str())
            }
        })
}

/// The qualifiers of each shared word in `ts`: the word before it ("email" queue) and the
/// first content word of a "for"/"of" complement after it (TTL for "product" images), each
/// only when the other text lacks it.
fn qualifiers<'t>(
    ts: &'t [Token<'_>],
    shared: &BTreeSet<&str>,
    other: &BTreeSet<&str>,
) -> BTreeMap<&'t str, Vec<(bool, &'t str)>> {
    let mut out: BTreeMap<&str, Vec<(bool, &str)>> = BTreeMap::new();
    for (i, t) in ts.iter().enumerate() {
        if !shared.contains(t.stem.as_str()) {
            continue;
        }
        if let Some(p) = i.checked_sub(1).and_then(|k| ts.get(k))
            && !stop(&p.stem)
            && !other.contains(p.stem.as_str())
            && !p.value
            && !VERBS.contains(&p.stem.as_str())
        {
            out.entry(t.stem.as_str()).or_default().push((true, p.stem.as_str()));
        }
        if ts.get(i + 1).is_some_and(|n| n.stem == "for" || n.stem == "of")
            && let Some(p) = ts.iter().skip(i + 2).find(|n| !stop(&n.stem))
            && !other.contains(p.stem.as_str())
            && !VERBS.contains(&p.stem.as_str())
        {
            out.entry(t.stem.as_str()).or_default().push((false, p.stem.as_str()));
        }
    }
    out
}

/// The shared word and the two qualifiers when the texts qualify the same word
/// differently (see the module docs).
pub fn qualifier_conflict(old: &str, new: &str) -> Option<(String, String, String)> {
    let (a, b) = (tokens(old), tokens(new));
    let sa: BTreeSet<&str> = a.iter().map(|t| t.stem.as_str()).collect();
    let sb: BTreeSet<&str> = b.iter().map(|t| t.stem.as_str()).collect();
    let shared: BTreeSet<&str> = sa.intersection(&sb).copied().filter(|w| !stop(w)).collect();
    let (qa, qb) = (qualifiers(&a, &shared, &sb), qualifiers(&b, &shared, &sa));
    let prefix = |w: &str| w.chars().take(4).collect::<String>();
    for (word, old_q) in &qa {
        let Some(new_q) = qb.get(word) else { continue };
        for (kind, p) in old_q {
            for (kind2, p2) in new_q {
                if kind == kind2 && prefix(p) != prefix(p2) && !verb(&a, p) && !verb(&b, p2) {
                    return Some((word.to_string(), p.to_string(), p2.to_string()));
                }
            }
        }
    }
    None
}

/// What the newer moves away from ("from X to Y") when the older never named X.
pub fn left_foreign(old: &str, new: &str) -> Option<String> {
    let known: BTreeSet<String> = tokens(old).into_iter().map(|t| t.stem).collect();
    FROM_TO.captures_iter(new).find_map(|c| {
        let left = c.get(1)?.as_str();
        let words: Vec<String> = left
            .split_whitespace()
            .map(|w| word_stem(w.trim_matches(['.', ',', ';', ':'])))
            .filter(|w| !w.is_empty() && !stop(w))
            .collect();
        (!words.is_empty() && words.iter().all(|w| !known.contains(w))).then(|| left.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_slot_of_another_component_conflicts() {
        for (old, new) in [
            (
                "Alert when the email queue backlog exceeds 10k messages.",
                "Alert when the thumbnail queue backlog is over 500 messages.",
            ),
            (
                "The search service's request timeout is 2 seconds.",
                "The recommendations service request timeout is 800 ms.",
            ),
            (
                "CDN cache TTL for product images is 7 days.",
                "CDN TTL for the marketing HTML pages is 5 minutes.",
            ),
        ] {
            assert!(qualifier_conflict(old, new).is_some(), "{new}");
        }
    }

    #[test]
    fn a_new_value_for_the_same_slot_does_not_conflict() {
        for (old, new) in [
            ("Android targetSdkVersion is 33.", "Bumped targetSdkVersion to 34."),
            (
                "HTTP client timeout for calls to the payment gateway is 10 seconds.",
                "Payment gateway client timeout is 4s now; we'd rather fail fast and retry.",
            ),
            (
                "Transactional emails are sent via Mandrill.",
                "Transactional email goes out through Amazon SES from now on.",
            ),
            (
                "The checkout service uses a 3-second timeout for fraud checks.",
                "Raised the fraud check timeout in checkout to 5 seconds.",
            ),
        ] {
            assert_eq!(qualifier_conflict(old, new), None, "{new}");
        }
    }

    #[test]
    fn moving_from_what_the_older_never_named_is_another_part() {
        assert_eq!(
            left_foreign(
                "The legacy admin app runs on Elastic Beanstalk.",
                "Changed the legacy admin app's Beanstalk platform from Amazon Linux 2 to AL2023."
            )
            .as_deref(),
            Some("Amazon Linux 2")
        );
        assert_eq!(
            left_foreign(
                "Use MySQL as the primary database for the orders service.",
                "Switched the orders service from MySQL to PostgreSQL as the primary database."
            ),
            None
        );
        // A cause, not a move.
        assert_eq!(
            left_foreign(
                "The GraphQL endpoint is slow because of N+1 queries.",
                "GraphQL slowness comes from query depth: five levels deep."
            ),
            None
        );
    }
}
