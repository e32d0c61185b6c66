//! Whether the sentence around a time expression looks back or ahead, read off its verbs:
//! "On October 20 we *shipped* the beta" (a note of June 2023) is October 2022, "we*'ll*
//! sunset the v1 API on January 31" is the next January 31, "The maintenance window *is*
//! on Sunday" the coming Sunday. A bare weekday, a month or a month and day without a year
//! is placed by it.

use std::sync::LazyLock;

use regex::Regex;

/// Which way a sentence looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tense {
    /// Something that happened.
    Past,
    /// Something planned, due or coming.
    Future,
    /// No verb says.
    Unknown,
}

static FUTURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(will|won't|shall|going to|gonna|plan(?:s|ned|ning)?\s+(?:to|for|on)|planned|scheduled|slated|upcoming|is set for|are set for|we'll|i'll|you'll|they'll|it'll|he'll|she'll|let's|need to|has to|have to|hope to|want to|intend to|expect(?:ed|s)? to|tentatively)\b",
    )
    .expect("constant regex")
});

static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(was|were|did|didn't|had|went|got|ran|began|came|took|made|wrote|broke|left|met|sent|spent|found|built|put|set up|shut|brought|wrote|rewrote|froze|chose|drove|gave|held|kept|led|lost|paid|said|saw|sold|spoke|stood|told|thought|won|understood|fell|flew|forgot|grew|knew|rode|rose|sang|sat|slept|swam|taught|threw|wore|hung|dug|fought|caught|bought|[a-z]{2,}ed)\b")
        .expect("constant regex")
});

/// Words ending in -ed that are no past tense.
const NOT_PAST: &[&str] = &[
    "need", "speed", "feed", "seed", "embed", "hundred", "shed", "bed", "red", "indeed",
];

static PRESENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(is|are|starts?|begins?|expires?|ends?|runs? out|due|opens?|closes?|kicks? off|lands?|happens?)\b",
    )
    .expect("constant regex")
});

/// The tense of the sentence of `text` that holds byte offset `at`.
pub fn around(text: &str, at: usize) -> Tense {
    // Sentences end at "!", "?", ";", a line break, or a full stop before a space ("Oct.
    // 20" keeps its abbreviation inside the sentence only when no space follows it).
    let before = text.get(..at).unwrap_or_default();
    let start = before
        .rfind(['!', '?', '\n', ';'])
        .map(|p| p + 1)
        .max(before.rfind(". ").map(|p| p + 2))
        .unwrap_or(0);
    let after = text.get(at..).unwrap_or_default();
    let end = after
        .find(['!', '?', '\n', ';'])
        .into_iter()
        .chain(after.find(". "))
        .min()
        .map_or(text.len(), |p| at + p);
    of(text.get(start..end).unwrap_or(text))
}

/// The tense of one sentence (see the module docs).
pub fn of(sentence: &str) -> Tense {
    if FUTURE.is_match(sentence) {
        return Tense::Future;
    }
    let past = PAST.find_iter(sentence).any(|m| {
        let w = m.as_str().to_lowercase();
        !NOT_PAST.contains(&w.as_str())
    });
    if past {
        Tense::Past
    } else if PRESENT.is_match(sentence) {
        // "The release is Friday", "Dana starts Wednesday": a date stated in the present is
        // a date to come.
        Tense::Future
    } else {
        Tense::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_future_and_present() {
        assert_eq!(of("On October 20 we shipped the beta"), Tense::Past);
        assert_eq!(of("Monday's outage was bad"), Tense::Past);
        assert_eq!(of("we'll sunset the v1 API on January 31"), Tense::Future);
        assert_eq!(of("The conference talk is scheduled for November 18."), Tense::Future);
        assert_eq!(of("The maintenance window is on Sunday."), Tense::Future);
        assert_eq!(of("Dana starts Wednesday!"), Tense::Future);
        assert_eq!(of("We need to deploy on Friday"), Tense::Future);
        assert_eq!(of("Aug 17: image service to S3"), Tense::Unknown);
        // Only the sentence that holds the expression counts.
        let text = "I'm planning to volunteer next weekend. I just got back from mass on March 19th.";
        assert_eq!(around(text, text.find("March").unwrap_or(0)), Tense::Past);
    }
}
