//! The slots of a person's own facts: where they live, their editor, shell, phone,
//! manager, team, hours, machine, diet, handle, commute, time zone, … Two first-person
//! notes about one slot are about the same fact, however differently worded ("My shell is
//! bash" and "I use fish as my shell these days"), and two about different slots are not
//! ("I use fish as my shell" and "I eat fish again"). The slots and their words are
//! general knowledge of what people say about themselves, not read off a labelled set.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

/// Slot, then the words (a case-insensitive regex) that name it.
const SLOTS: &[(&str, &str)] = &[
    (
        "home",
        r"\b(i live|i'm living|living in|i moved to|moving to|relocat\w*|i'm based|based in|my home town|my flat|my apartment|my house)\b",
    ),
    (
        "editor",
        r"\b(editor|ide|vim|neovim|emacs|vs ?code|intellij|zed|sublime)\b",
    ),
    ("shell", r"\b(shell|bash|zsh)\b"),
    ("phone", r"\b(phone|mobile number|my number|cell)\b"),
    (
        "manager",
        r"\b(my manager|manager is|report to|reports to|reporting to|my lead|my boss|line manager)\b",
    ),
    ("team", r"\b(i'm on the|i joined the|i'm in the \w+ team|my team)\b"),
    (
        "hours",
        r"\b(working hours|my hours|i work \d|i start at|i work from \d|i'm online|core hours|\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*(?:-|to)\s*\d{1,2}(?::\d{2})?(?:\s*(?:am|pm))?)\b",
    ),
    ("computer", r"\b(laptop|macbook|thinkpad|my machine|my os|desktop)\b"),
    (
        "language",
        r"\b(main language|i (?:mostly )?write|i code in|language at work)\b",
    ),
    (
        "diet",
        r"\b(vegetarian|vegan|pescatarian|i eat|i don't eat|allergic|gluten)\b",
    ),
    (
        "handle",
        r"\b(call me|my name|handle|username|user name|my email|email address|commit email)\b",
    ),
    ("commute", r"\b(commute|by bike|by train|i drive|cycle to)\b"),
    ("timezone", r"\b(time ?zone|utc|cet|pst|est)\b"),
    ("keyboard", r"\b(keyboard|layout)\b"),
    ("browser", r"\b(browser|firefox|chrome|safari)\b"),
    ("branch", r"\b(default branch|defaultbranch|master|main branch)\b"),
    ("internet", r"\b(internet|broadband|dsl|fiber|fibre|wifi)\b"),
    (
        "reply-language",
        r"\b(reply to me in|answer me in|in english|in polish|in german|in french|in spanish)\b",
    ),
    ("desk", r"\b(my desk|desk is|seat)\b"),
    (
        "office-days",
        r"\b(in the office|office on|wfh|work from home|remote on)\b",
    ),
];

/// Speaking of oneself: "I", "my", "me" (wider than the cue of `cues`, which leaves out
/// "me": "Call me Tom" is a fact about the speaker).
static FIRST_PERSON: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(i|i'm|i've|i'd|i'll|my|me|mine)\b").expect("constant regex"));

static COMPILED: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    SLOTS
        .iter()
        .map(|(slot, words)| (*slot, Regex::new(&format!("(?i){words}")).expect("constant regex")))
        .collect()
});

/// Slots that hold one value at a time: a person lives in one place, reports to one
/// manager, keeps one set of hours. A diet, a handle or the languages one speaks take
/// several values, so two notes of those slots may both stand.
const EXCLUSIVE: &[&str] = &[
    "home",
    "manager",
    "team",
    "hours",
    "editor",
    "shell",
    "desk",
    "timezone",
    "reply-language",
    "internet",
    "branch",
];

/// Whether a slot holds one value at a time (see [`EXCLUSIVE`]).
pub fn exclusive(slot: &str) -> bool {
    EXCLUSIVE.contains(&slot)
}

/// The slots of a person's own facts a first-person text names (empty for any other text).
pub fn slots(text: &str) -> BTreeSet<&'static str> {
    if !FIRST_PERSON.is_match(text) {
        return BTreeSet::new();
    }
    COMPILED
        .iter()
        .filter(|(_, re)| re.is_match(text))
        .map(|(slot, _)| *slot)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_person_notes_name_their_slots() {
        assert!(slots("My shell is bash with oh-my-bash.").contains("shell"));
        assert!(slots("I use fish as my shell these days.").contains("shell"));
        assert!(!slots("I eat fish again, so no meat for me.").contains("shell"));
        assert!(slots("We're relocating to Leeds; I live near the station.").contains("home"));
        assert!(slots("I report to Priya since the reorg.").contains("manager"));
        // A time of day, not any two numbers joined by a dash.
        assert!(slots("My hours are 07:30 to 16:00 now.").contains("hours"));
        assert!(slots("I work 8am-4pm.").contains("hours"));
        assert!(!slots("My AWS sandbox account is 1111-2222-3333.").contains("hours"));
        assert!(!slots("My number changed, it's 555-0202 now.").contains("hours"));
        assert!(
            !slots("I work from home on Fridays.").contains("hours"),
            "a place, not hours"
        );
        assert!(slots("I work from 8 to 4 these days.").contains("hours"));
        assert!(
            slots("The team's shell scripts use bash.").is_empty(),
            "not first person"
        );
    }
}
