//! Query analysis shared by every search channel: turning a question into search terms.
//!
//! Pure functions; the store decides how terms are matched.

/// Words too common to help keyword search (English question words, articles, pronouns).
const STOPWORDS: &[&str] = &[
    "a", "about", "all", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did",
    "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it",
    "its", "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "to", "us", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why",
    "will", "with", "would", "you", "your",
];

/// Most terms kept from one query; long pasted text is cut so a query stays fast.
pub const MAX_TERMS: usize = 32;

/// Splits a query into lowercase word terms, dropping stopwords (unless nothing else is
/// left) and duplicates, keeping the first [`MAX_TERMS`].
pub fn query_terms(query: &str) -> Vec<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    // Single letters ("s" of a possessive, "t" of "don't") would prefix-match half the
    // vocabulary; they carry nothing.
    let content: Vec<&String> = words
        .iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()) && w.chars().count() > 1)
        .collect();
    let chosen: Vec<&String> = if content.is_empty() {
        words.iter().collect()
    } else {
        content
    };
    let mut out: Vec<String> = Vec::new();
    for w in chosen {
        if !out.contains(w) {
            out.push(w.clone());
        }
        if out.len() == MAX_TERMS {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_words_are_dropped() {
        assert_eq!(query_terms("Which database did we pick?"), vec!["database", "pick"]);
        assert_eq!(query_terms("postgres"), vec!["postgres"]);
        assert_eq!(
            query_terms("What do Melanie's kids like?"),
            vec!["melanie", "kids", "like"]
        );
        assert_eq!(query_terms("what is it"), vec!["what", "is", "it"]);
        assert!(query_terms("  ?! ").is_empty());
    }

    #[test]
    fn terms_are_unique_and_bounded() {
        assert_eq!(query_terms("Redis redis REDIS"), vec!["redis"]);
        let long = (0..100).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        assert_eq!(query_terms(&long).len(), MAX_TERMS);
        assert_eq!(query_terms("naïve café 東京"), vec!["naïve", "café", "東京"]);
    }
}
