//! What *kind* of thing a product or tool is, among things a team swaps one for another:
//! Braintree and Adyen are both payment processors, Zendesk and Intercom both help desks,
//! VS Code and Neovim both editors. Supersession reads "Card payments go through Adyen"
//! as a new value for "Card payments are processed by Braintree" because the two names are
//! of one kind, where "The billing service is written in Kotlin" names another kind of
//! thing than "The billing service is owned by Team Falcon".
//!
//! The list (`kinds.json`) was written from general knowledge of the ecosystem, by a writer
//! who did not see subcog's labelled sets; see its README in `data/kinds/`.

use std::collections::HashMap;
use std::sync::LazyLock;

/// Longest name, in words ("google cloud run").
const MAX_WORDS: usize = 4;

/// Name (lower case, words joined by one space) → the kinds it belongs to.
static KINDS: LazyLock<HashMap<String, Vec<&'static str>>> = LazyLock::new(|| {
    let list: HashMap<&'static str, Vec<&'static str>> =
        serde_json::from_str(include_str!("kinds.json")).unwrap_or_default();
    let mut out: HashMap<String, Vec<&'static str>> = HashMap::new();
    for (kind, names) in list {
        for name in names {
            let key = words(name).join(" ");
            let kinds = out.entry(key).or_default();
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    out
});

/// The words of a text, lower case: letters, digits and the characters tools carry in
/// their names ("next.js", "c++", "styled-components").
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '+' | '#' | '-' | '_')))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '-' | '_')).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// One name a text mentions and its kinds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// The name as listed (lower case).
    pub name: String,
    /// Its kinds.
    pub kinds: Vec<&'static str>,
}

/// The names of the list a text mentions, longest match first at each place ("google
/// cloud run", not "google"), each once, in order.
pub fn mentions(text: &str) -> Vec<Mention> {
    let ws = words(text);
    let mut out: Vec<Mention> = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        let mut step = 1;
        for n in (1..=MAX_WORDS.min(ws.len() - i)).rev() {
            let key = ws[i..i + n].join(" ");
            if let Some(kinds) = KINDS.get(&key) {
                if !out.iter().any(|m| m.name == key) {
                    out.push(Mention {
                        name: key,
                        kinds: kinds.clone(),
                    });
                }
                step = n;
                break;
            }
        }
        i += step;
    }
    out
}

/// Whether two mentions share a kind.
pub fn same_kind(a: &Mention, b: &Mention) -> bool {
    a.kinds.iter().any(|k| b.kinds.contains(k))
}

/// How many names the list holds.
pub fn len() -> usize {
    KINDS.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_loads_whole() {
        // A broken kinds.json would load as an empty list without this.
        assert!(len() > 2000, "{} names", len());
    }

    #[test]
    fn mentions_take_the_longest_name_and_its_kinds() {
        let m = mentions("Moved the API from Google Cloud Run to AWS Lambda; postgres stays.");
        let names: Vec<&str> = m.iter().map(|m| m.name.as_str()).collect();
        assert!(
            names.contains(&"google cloud run") && names.contains(&"aws lambda"),
            "{names:?}"
        );
        assert!(names.contains(&"postgres"));
        assert!(!names.contains(&"google"), "{names:?}");
        let kind = |n: &str| m.iter().find(|x| x.name == n).expect("mentioned");
        assert!(same_kind(kind("google cloud run"), kind("aws lambda")));
        assert!(!same_kind(kind("postgres"), kind("aws lambda")));
        assert!(mentions("Nothing named here, just words.").is_empty());
    }
}
