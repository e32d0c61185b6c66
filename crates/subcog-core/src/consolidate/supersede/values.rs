//! What a memory asserts, read off its words without a parser: the subject words it shares
//! with another memory, and the values it states — numbers (sizes, limits, durations,
//! versions) and names (products, tools, teams, places: words capitalized inside a sentence
//! or carrying digits) — and whether a newer memory leaves an old value behind ("from
//! MySQL", "Graphite was turned off", "no Java files left", "not R8").

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use regex::Regex;

/// Words that carry no subject.
const STOP: &[&str] = &[
    "a", "an", "the", "of", "to", "in", "on", "for", "with", "and", "or", "is", "are", "was", "were", "be", "been",
    "it", "its", "this", "that", "these", "those", "we", "our", "i", "my", "me", "you", "your", "at", "by", "from",
    "as", "so", "but", "not", "no", "into", "over", "than", "then", "there", "their", "they", "them", "he", "she",
    "his", "her", "has", "have", "had", "do", "does", "did", "will", "would", "can", "could", "should", "must", "just",
    "also", "all", "any", "some", "each", "every", "per", "via", "after", "before", "about", "up", "out", "off", "now",
    "new",
];

pub(super) static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[#@][A-Za-z0-9_-]+|[A-Za-z][A-Za-z0-9_.+#-]*[A-Za-z0-9+#]|[A-Za-z]|\$?\d[\d,]*(?:\.\d+)*[a-zA-Z%]*")
        .expect("constant regex")
});

/// Words that state a quantity or a frequency: values like numbers ("one approval" →
/// "two approving reviews", "weekly" → "daily").
pub(super) const NUMBER_WORDS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "once",
    "twice",
    "hourly",
    "daily",
    "nightly",
    "weekly",
    "biweekly",
    "fortnightly",
    "monthly",
    "quarterly",
    "yearly",
    "annually",
];

/// Whether a (lowercase) word carries no subject.
pub fn is_stop(word: &str) -> bool {
    STOP.contains(&word)
}

/// A light stem: `-ing`, `-ed`, `-es`, `-s` off words longer than four letters.
pub fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    for suffix in ["ing", "ed", "es", "s"] {
        if w.chars().count() > 4
            && let Some(base) = w.strip_suffix(suffix)
        {
            return base.to_string();
        }
    }
    w
}

/// The stemmed subject words of a text: no stopwords, no numbers.
pub fn content_words(text: &str) -> BTreeSet<String> {
    TOKEN
        .find_iter(text)
        .map(|m| m.as_str().trim_end_matches('.'))
        .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit() || c == '$'))
        .filter(|w| !STOP.contains(&w.to_lowercase().as_str()))
        .map(stem)
        .collect()
}

/// The values a text states.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values {
    /// Numbers, sizes, durations, versions, money (lowercase, as written).
    pub numbers: BTreeSet<String>,
    /// Names (lowercase): capitalized inside a sentence, inner capitals, or digits.
    pub names: BTreeSet<String>,
}

/// The values of a text.
pub fn values(text: &str) -> Values {
    let mut out = Values::default();
    for (k, m) in TOKEN.find_iter(text).enumerate() {
        let w = m.as_str();
        let lower = w.to_lowercase();
        if w.starts_with(|c: char| c.is_ascii_digit() || c == '$') {
            out.numbers.insert(lower.trim_end_matches('.').to_string());
            continue;
        }
        if NUMBER_WORDS.contains(&lower.as_str()) {
            out.numbers.insert(lower);
            continue;
        }
        if w.starts_with(['#', '@']) {
            out.names.insert(lower);
            continue;
        }
        if STOP.contains(&lower.as_str()) {
            continue;
        }
        let before = text.get(..m.start()).unwrap_or_default().trim_end();
        let sentence_start = k == 0 || before.is_empty() || before.ends_with(['.', ':', '!', '?', ';']);
        let inner_capital = w.chars().skip(1).any(|c| c.is_uppercase());
        let capitalized = w.starts_with(|c: char| c.is_uppercase()) && !sentence_start;
        let digits = w.chars().any(|c| c.is_ascii_digit());
        let technology = crate::entities::is_technology(lower.trim_end_matches('.'));
        if inner_capital || capitalized || digits || technology {
            out.names.insert(lower.trim_end_matches('.').to_string());
        }
    }
    out
}

static LEAVE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(from|off|instead of|replac\w*|no more|no longer(?: uses?)?|not|rather than|dropped|ditch\w*|retir\w*|no)\s+(?:the\s+)?(?:\w+\s+)?$")
        .expect("constant regex")
});

static LEAVE_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\S*\s+(?:\w+\s+){0,3}?(?:(?:was|were|is|are|has been|have been|got)\s+)?(removed|deleted|shut down|turned off|retired|decommissioned|archived|closed|revoked|terminated|unmounted|dropped|innocent|fine|unrelated|a red herring|gone|lapsed|cancelled|sunset|left|ended|expired|handed|replaced|deprecated|phased out|lacked|lacks|lacking|couldn't|could not|didn't|did not|doesn't|does not|wasn't|was too|is too|were too|kept failing|kept breaking)\b")
        .expect("constant regex")
});

/// Whether `text` names `value` only to leave it behind: "from X", "off X", "no X",
/// "not X", "X was shut down", "X is innocent".
pub fn left_behind(value: &str, text: &str) -> bool {
    every_mention(value, text, |before, from_here, _| {
        LEAVE_BEFORE.is_match(before) || LEAVE_AFTER.is_match(from_here)
    })
}

/// The words before a plain word that leave it, without "from", "off" and "no": "Webhook
/// signature from harrow-export:" names a source, and a plain word is no value by itself.
static LEAVE_BEFORE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(instead of|replac\w*|no more|no longer(?: uses?)?|not|rather than|dropped|ditch\w*|retir\w*)\s+(?:the\s+)?(?:\w+\s+)?$")
        .expect("constant regex")
});

/// Whether `text` leaves behind `word`, a word of the older memory that is no name, as the
/// thing it replaces: like [`left_behind`], except that after "replaced", "no longer" …
/// (not "from") the word must end its phrase ("Replaced ingress-nginx with …", "not
/// crashes"), since one followed by more words only qualifies what is left ("no longer
/// sending *refund* confirmation SMS", "replaced the *inventory* service's CSV export").
pub fn left_behind_word(word: &str, text: &str) -> bool {
    every_mention(word, text, |before, from_here, after| {
        // A possessive ("the inventory service's CSV export") qualifies too.
        let next = TOKEN.find(after).filter(|m| {
            after
                .get(..m.start())
                .is_some_and(|gap| gap.chars().all(|c| c.is_whitespace() || c == '\'' || c == '’'))
        });
        let ends_phrase = next.is_none_or(|m| STOP.contains(&m.as_str()) || m.as_str() == "anymore");
        (LEAVE_BEFORE_WORD.is_match(before) && ends_phrase) || LEAVE_AFTER.is_match(from_here)
    })
}

/// Whether `value` occurs in `text` (lower-cased) and `leaves(before, from_here, after)`
/// holds at every occurrence: the text before it, from it on, and after it.
fn every_mention(value: &str, text: &str, leaves: impl Fn(&str, &str, &str) -> bool) -> bool {
    let lower = text.to_lowercase();
    let mut found = false;
    for (at, _) in lower.match_indices(value) {
        found = true;
        let before = lower.get(..at).unwrap_or_default();
        let from_here = lower.get(at..).unwrap_or_default();
        let after = lower.get(at + value.len()..).unwrap_or_default();
        if !leaves(before, from_here, after) {
            return false;
        }
    }
    found
}

/// Inverse document frequencies of subject words over a set of texts.
pub struct Idf {
    df: HashMap<String, u32>,
    n: f32,
}

impl Idf {
    /// Counts the words of every text.
    pub fn new<'a>(texts: impl Iterator<Item = &'a BTreeSet<String>>) -> Self {
        let mut df: HashMap<String, u32> = HashMap::new();
        let mut n = 0.0;
        for t in texts {
            n += 1.0;
            for w in t {
                *df.entry(w.clone()).or_default() += 1;
            }
        }
        Idf { df, n }
    }

    /// The IDF of a word (BM25's form, never negative).
    pub fn of(&self, word: &str) -> f32 {
        let d = self.df.get(word).copied().unwrap_or(0) as f32;
        (1.0 + (self.n - d + 0.5) / (d + 0.5)).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_numbers_and_names() {
        let v = values("Switched the orders service from MySQL to PostgreSQL because of JSONB support.");
        assert_eq!(
            v.names,
            ["mysql", "postgresql", "jsonb"].map(String::from).into_iter().collect()
        );
        let v = values("Raised the catalog cache TTL to 30 minutes for Team Atlas; Node 20 LTS.");
        assert!(v.numbers.contains("30") && v.numbers.contains("20"), "{v:?}");
        assert!(v.names.contains("ttl") && v.names.contains("atlas") && v.names.contains("lts"));
        assert!(!v.names.contains("raised"), "a sentence's first word is not a name");
    }

    #[test]
    fn old_values_left_behind() {
        let t = "switched the orders service from mysql to postgresql";
        assert!(left_behind("mysql", t));
        assert!(!left_behind("postgresql", t));
        assert!(left_behind(
            "java",
            "Android codebase is 100% Kotlin since Q2, no Java files left."
        ));
        assert!(left_behind(
            "graphite",
            "Prometheus scrapes every service. Graphite was turned off."
        ));
        assert!(left_behind("r8", "Android build slowness is kapt, not R8."));
        assert!(!left_behind(
            "bamboohr",
            "BambooHR time-off requests longer than 10 days are routed"
        ));
        assert!(!left_behind("redis", "not mentioned at all"));
    }

    #[test]
    fn a_plain_word_is_left_only_where_it_ends_its_phrase() {
        assert!(left_behind_word(
            "ingress-nginx",
            "Replaced ingress-nginx with Envoy Gateway (Gateway API) in all clusters."
        ));
        assert!(left_behind_word(
            "crashes",
            "ALB 502s came from a keep-alive mismatch, not crashes."
        ));
        assert!(left_behind_word(
            "scikit-learn",
            "Churn model retrained on LightGBM; the scikit-learn pipeline is retired."
        ));
        assert!(!left_behind_word(
            "refund",
            "No longer sending refund confirmation SMS; riders get an email instead."
        ));
        assert!(!left_behind_word(
            "inventory",
            "Replaced the inventory service's hand-written CSV export with the shared export library."
        ));
        assert!(!left_behind_word(
            "harrow-export",
            "Webhook signature from harrow-export: HMAC-SHA256 over the raw body."
        ));
        assert!(!left_behind_word(
            "service",
            "Replaced the inventory service's hand-written CSV export with the shared export library."
        ));
    }

    #[test]
    fn subject_words_are_stemmed_without_stopwords_or_numbers() {
        let w = content_words("The deploys are blocked until 3 tests pass");
        assert_eq!(
            w,
            ["deploy", "block", "until", "test", "pass"]
                .map(String::from)
                .into_iter()
                .collect()
        );
    }
}
