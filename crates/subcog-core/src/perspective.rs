//! Whom a text speaks about: its writer ("I", "my") or its reader ("you", "your").
//!
//! A question about the asker's own life ("Can you suggest accessories for *my* photography
//! setup?") is answered by what the asker said about themselves ("… compatible with *my*
//! Sony A7R IV"), not by advice written to them ("… to complement *your* outfit"). Recall
//! uses this to favour first-person memories for first-person questions
//! (`recall.self_boost`).

/// Words in which a writer speaks of themselves (lower case, straight apostrophe).
const FIRST_PERSON: &[&str] = &[
    "i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself", "im", "ive",
];

/// Words in which a writer addresses the reader.
const SECOND_PERSON: &[&str] = &[
    "you",
    "your",
    "you're",
    "you've",
    "you'll",
    "you'd",
    "yours",
    "yourself",
    "yourselves",
];

/// Counts of first- and second-person words in a text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Persons {
    /// "I", "my", "me", …
    pub first: usize,
    /// "you", "your", …
    pub second: usize,
}

impl Persons {
    /// Counts the persons of a text's words.
    pub fn of(text: &str) -> Persons {
        let mut p = Persons::default();
        for word in text
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
            .map(|w| w.trim_matches(|c| c == '\'' || c == '\u{2019}'))
            // Every pronoun is short and starts with i, m or y: most words cost one test.
            .filter(|w| w.len() <= 12 && matches!(w.as_bytes().first(), Some(b'i' | b'I' | b'm' | b'M' | b'y' | b'Y')))
        {
            let is = |list: &[&str]| {
                list.iter().any(|p| {
                    (p.len() == word.len()
                        || !word.is_ascii() && p.len() + 2 * word.matches('\u{2019}').count() == word.len())
                        && p.chars()
                            .zip(word.chars())
                            .all(|(a, b)| a == b.to_ascii_lowercase() || (a == '\'' && b == '\u{2019}'))
                })
            };
            if is(FIRST_PERSON) {
                p.first += 1;
            } else if is(SECOND_PERSON) {
                p.second += 1;
            }
        }
        p
    }
}

/// Whether a question asks about the asker: it speaks of "I" or "my", and not of what the
/// reader said ("what was the hostel *you recommended*?", "*our previous conversation*"),
/// which the reader's own words answer.
pub fn asks_about_self(query: &str) -> bool {
    Persons::of(query).first > 0 && !asks_what_reader_said(query)
}

/// Verbs of saying after "you", and names of an earlier exchange.
fn asks_what_reader_said(query: &str) -> bool {
    const SAID: &[&str] = &[
        "told",
        "mentioned",
        "recommended",
        "suggested",
        "said",
        "provided",
        "gave",
        "listed",
        "shared",
        "explained",
        "wrote",
        "described",
        "proposed",
    ];
    let words: Vec<String> = query
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.windows(2).any(|w| {
        (w[0] == "you" && SAID.contains(&w[1].as_str()))
            || (matches!(w[0].as_str(), "previous" | "earlier" | "last")
                && matches!(w[1].as_str(), "chat" | "conversation" | "conversations" | "session"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_writer_and_the_reader() {
        let p = Persons::of("I'm looking to upgrade my camera flash. Can you recommend options for my Sony?");
        assert_eq!(p, Persons { first: 3, second: 1 });
        let p = Persons::of("Congratulations on your new postcards! Let's talk about your collection.");
        assert_eq!(p, Persons { first: 0, second: 2 });
        assert_eq!(Persons::of("I\u{2019}ve moved").first, 1);
        assert_eq!(Persons::of("The iOS build uses Xcode 15").first, 0);
    }

    #[test]
    fn a_question_about_the_asker() {
        assert!(asks_about_self("Can you suggest accessories for my photography setup?"));
        assert!(asks_about_self("How many days passed between my two trips?"));
        assert!(!asks_about_self("What did Caroline research?"));
        assert!(!asks_about_self("Which database does the orders service use?"));
        // What the reader said is answered by the reader's words.
        assert!(!asks_about_self("What was the hostel you recommended to me last time?"));
        assert!(!asks_about_self(
            "Going back to our previous conversation, which chapter was it?"
        ));
        assert!(asks_about_self("Which hostel did I stay at last time?"));
    }
}
