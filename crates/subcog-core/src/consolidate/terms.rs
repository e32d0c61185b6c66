//! Text features the no-LLM stages reason with: salient terms (stopwords dropped, a light
//! plural fold) and sentences.

use std::collections::BTreeSet;

/// Extra words that carry no topic in engineering notes.
const FILLER: &[&str] = &[
    "also", "now", "use", "used", "using", "uses", "should", "must", "need", "needs", "just", "more", "less", "than",
    "very", "only", "not", "no", "yes", "one", "two", "after", "before", "because", "since", "while", "still", "yet",
    "again", "new", "old", "get", "got", "make", "made", "keep", "kept", "go", "goes", "went", "way", "thing",
    "things", "lot", "some", "most", "many", "much", "like", "via", "per", "each", "every", "other", "any", "instead",
    "anymore", "longer", "switched", "replaced", "moved", "migrated", "decided", "decision", "team", "we", "our",
    "now",
];

/// Lowercase topic words of a text: stopwords and filler dropped, plurals folded
/// ("deploys" → "deploy"), at least two characters.
pub fn salient(text: &str) -> BTreeSet<String> {
    crate::search::query_terms(text)
        .into_iter()
        .filter(|w| !FILLER.contains(&w.as_str()) && w.chars().count() > 1)
        .map(fold)
        .collect()
}

/// Folds a simple English plural onto its singular.
pub fn fold(w: String) -> String {
    if w.len() > 4 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w[..w.len() - 1].to_string()
    } else {
        w
    }
}

/// The sentences of a text (split at `.`, `!`, `?` followed by whitespace, and at line
/// breaks), trimmed, empty ones dropped.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            push(&mut out, &mut current);
            continue;
        }
        current.push(c);
        if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()) {
            push(&mut out, &mut current);
        }
    }
    push(&mut out, &mut current);
    out
}

fn push(out: &mut Vec<String>, current: &mut String) {
    let s = current.trim();
    if !s.is_empty() {
        out.push(s.to_string());
    }
    current.clear();
}

/// Jaccard overlap of two sets; two empty sets overlap fully.
pub fn jaccard<T: Ord>(a: &BTreeSet<T>, b: &BTreeSet<T>) -> f32 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let inter = a.intersection(b).count() as f32;
    let union = a.union(b).count() as f32;
    inter / union
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn salient_terms_fold_plurals_and_drop_filler() {
        let t = salient("No deploys on Fridays anymore after the outage");
        assert!(
            t.contains("deploy") && t.contains("friday") && t.contains("outage"),
            "{t:?}"
        );
        assert!(!t.contains("anymore") && !t.contains("no"));
        assert!(salient("Switched to PostgreSQL because MySQL lacked JSON").contains("mysql"));
    }

    #[test]
    fn sentences_split_on_ends_and_lines() {
        let s = sentences("Use v1.2 of the API. It works! Does it?\nNext line");
        assert_eq!(s, vec!["Use v1.2 of the API.", "It works!", "Does it?", "Next line"]);
    }
}
