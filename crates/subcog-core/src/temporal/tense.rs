//! Whether the sentence around a time expression looks back or ahead, read off its verbs:
//! "On October 20 we *shipped* the beta" (a note of June 2023) is October 2022, "we*'ll*
//! sunset the v1 API on January 31" is the next January 31, "The maintenance window *is*
//! on Sunday" the coming Sunday. A bare weekday, a month or a month and day without a year
//! is placed by it.

use std::sync::LazyLock;

use regex::Regex;

use super::resolve::last_word;

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
        r"(?i)\b(will|won't|shall|going to|gonna|(?:is|are|am|'s|'re|'m)\s+supposed to|plan(?:s|ned|ning)?\s+(?:to|for|on)|planned|scheduled|slated|upcoming|is set for|are set for|we'll|i'll|you'll|they'll|it'll|he'll|she'll|let's|need to|has to|have to|hope to|hoping to|want to|intend to|expect(?:ed|s)? to|tentatively|booked (?:for|in)|already booked|(?:is|are|'s|'re) booked|confirmed for|signed up for|registered for|enrolled (?:in|on|for)|invited to|accepted to|tickets? (?:for|to)|reserved for|penciled in|pencilled in|(?:'m|'re|'s|\bam|\bare|\bis)\s+(?:\w+ly\s+)?(?:going|flying|driving|heading|meeting|moving|starting|hosting|visiting|leaving|getting|having|taking|seeing|travell?ing|coming|joining|presenting|speaking|launching|shipping|releasing|running|playing|doing))\b",
    )
    .expect("constant regex")
});

static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(was|were|did|didn't|had|went|got|ran|began|came|took|made|wrote|broke|left|met|sent|spent|found|built|put|set up|shut|brought|wrote|rewrote|froze|chose|drove|gave|held|kept|led|lost|paid|said|saw|sold|spoke|stood|told|thought|won|understood|fell|flew|forgot|grew|knew|rode|rose|sang|sat|slept|swam|taught|threw|wore|hung|dug|fought|caught|bought|[a-z]{2,}ed)\b")
        .expect("constant regex")
});

/// Words before an -ed word that make it a description: articles, possessives, a present
/// "be".
const PARTICIPLE_BEFORE: &[&str] = &[
    "the", "a", "an", "my", "our", "your", "their", "his", "her", "its", "is", "are", "am", "be", "being", "re", "m",
];

/// Words ending in -ed that are no past tense.
const NOT_PAST: &[&str] = &[
    "need", "speed", "feed", "seed", "embed", "hundred", "shed", "bed", "red", "indeed",
];

static PRESENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(is|are|gets|(?:re)?starts?|begins?|expires?|ends?|runs? out|due|(?:re)?opens?|closes?|kicks? off|lands?|happens?|fly|flies|leaves?|departs?|arrives?|returns?|goes live|go live|moves? (?:in|out)|(?:'ve|have|'s|has) got|(?:'s|’s|'re|’re)\s+(?:on|in|this|next))\b",
    )
    .expect("constant regex")
});

/// The tense of the sentence of `text` that holds the expression at `at..end`, read
/// without the expression's own words ("the *start* of the year" is no verb).
pub fn around_expression(text: &str, at: usize, end: usize) -> Tense {
    // Only a window around the expression is read: a sentence is never longer, and a long
    // text (a pasted log with no full stop) would otherwise be copied and searched whole
    // for each of its expressions.
    let lo = boundary(text, at.saturating_sub(WINDOW), false);
    let hi = boundary(text, end.saturating_add(WINDOW).min(text.len()), true);
    match (text.get(lo..at), text.get(end..hi)) {
        (Some(before), Some(after)) => around(&format!("{before} {after}"), at - lo),
        _ => around(text, at),
    }
}

/// Bytes read on each side of an expression for its sentence.
const WINDOW: usize = 512;

/// The nearest char boundary at or before (or, with `up`, after) `at`.
fn boundary(text: &str, mut at: usize, up: bool) -> usize {
    while at > 0 && at < text.len() && !text.is_char_boundary(at) {
        if up {
            at += 1;
        } else {
            at -= 1;
        }
    }
    at.min(text.len())
}

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
    let sentence = text.get(start..end).unwrap_or(text);
    // The clause that holds the expression speaks first: in "My offer was accepted on the
    // 11th and I move in on the 18th of February" the move is ahead.
    let inner = at.saturating_sub(start);
    match of(clause(sentence, inner)) {
        Tense::Unknown => of(sentence),
        told => told,
    }
}

/// The clause of `sentence` around byte offset `at`: cut at commas, colons, dashes and
/// the conjunctions that join two clauses.
fn clause(sentence: &str, at: usize) -> &str {
    static CUT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i),|:|\s[–-]\s|\s(?:and|but|so|because|while|whereas|although|though)\s")
            .expect("constant regex")
    });
    let (mut from, mut to) = (0, sentence.len());
    for m in CUT.find_iter(sentence) {
        if m.end() <= at {
            from = m.end();
        } else if m.start() >= at {
            to = m.start();
            break;
        }
    }
    sentence.get(from..to).unwrap_or(sentence)
}

/// "School goes back on Tuesday" (its date read out of the sentence), not "the bug goes
/// back to May".
static GOES_BACK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:goes|go|comes?) back\b(?:\s+(?:on|in|next|this)\b|\W*$)").expect("constant regex")
});

/// The tense of one sentence (see the module docs).
pub fn of(sentence: &str) -> Tense {
    // "See you Monday!" (not "I didn't see you on Monday").
    static SEE_YOU: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^\W*see (?:you|ya)\b").expect("constant regex"));
    // Texting drops the subject: "taking mum to the garden centre sunday", "can't, dentist
    // wednesday" (not "I can't believe it").
    static TEXTED_PLAN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:\w+:)?\W*(?:taking|going|heading|flying|driving|meeting|seeing|picking|visiting|leaving|coming|getting|having|doing)\b|\bcan(?:'t|’t|not| not)?\s*(?:,|(?:make|come|do|go|join|attend|manage)\b)")
            .expect("constant regex")
    });
    // The present progressive with a date is an arrangement: "we're putting the house on
    // the market in December".
    static ARRANGED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?:\b(?:am|are)|'re|’re|'m|’m)\s+(?:\w+ly\s+)?[a-z]{2,}ing\b").expect("constant regex")
    });
    if FUTURE.is_match(sentence)
        || SEE_YOU.is_match(sentence)
        || TEXTED_PLAN.is_match(sentence)
        || ARRANGED.is_match(sentence)
    {
        return Tense::Future;
    }
    let past = PAST.find_iter(sentence).any(|m| {
        let w = m.as_str().to_lowercase();
        // "I've got an appointment" is British for "I have".
        let have_got = w == "got" && {
            let before = sentence.get(..m.start()).unwrap_or_default().trim_end().to_lowercase();
            ["'ve", "have", "'s", "has", "\u{2019}ve", "\u{2019}s"]
                .iter()
                .any(|h| before.ends_with(h))
        };
        // "the revised forms", "is locked until Sunday": a participle after an article
        // or a present "be" describes, it does not tell what happened.
        let described = w.ends_with("ed")
            && PARTICIPLE_BEFORE.contains(&last_word(sentence.get(..m.start()).unwrap_or_default()).as_str());
        !NOT_PAST.contains(&w.as_str()) && !have_got && !described
    });
    if past {
        Tense::Past
    } else if PRESENT.is_match(sentence) || GOES_BACK.is_match(sentence) {
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
    fn a_long_text_is_read_near_the_expression() {
        // A sentence far longer than the window still reads its tense near the expression,
        // and a multi-byte character at the window's edge is no panic.
        let filler = "é word ".repeat(400);
        let text = format!("{filler}We shipped it on Monday {filler}");
        let at = text.find("on Monday").expect("there");
        assert_eq!(around_expression(&text, at, at + "on Monday".len()), Tense::Past);
        let text = format!("{filler}We will ship it on Monday {filler}");
        let at = text.find("on Monday").expect("there");
        assert_eq!(around_expression(&text, at, at + "on Monday".len()), Tense::Future);
    }

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
        // The clause first, then the sentence.
        let text = "My offer was accepted on the 11th and I move in on the 18th of February.";
        assert_eq!(around(text, text.find("18th").unwrap_or(0)), Tense::Future);
        assert_eq!(around(text, text.find("11th").unwrap_or(0)), Tense::Past);
        let text = "On October 20, we shipped the beta.";
        assert_eq!(around(text, text.find("October").unwrap_or(0)), Tense::Past);
        assert_eq!(of("I've got a dentist appointment"), Tense::Future);
    }
}
