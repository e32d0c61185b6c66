//! The words that say what a newer memory does to an older one: replace it, change its
//! value, correct it, resolve it — or only add to it, keep it, or reject a change.
//! Each cue is a feature of the pair judgement ([`super::features`]), never a verdict on
//! its own.

use std::sync::LazyLock;

use regex::Regex;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("constant regex")
}

/// A replacement: switched, migrated, replaced, moved off, no longer, now, going forward.
pub static REPLACE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(switch(ed|ing)?|migrat(ed|ing|e)|replac(ed|es|ing)|moved?|ported|instead of|no longer|any ?more|rather than|in favou?r of|going forward|from now on|these days|retired|decommission(ed)?|deprecated|sunset|shut down|turned off|removed|deleted|archived|closed|revoked|terminated|unmounted|lapsed|dropped|rebuilt|rewritten|now)\b",
    )
});

/// A changed value: raised, lowered, bumped, upgraded, set to, is now.
pub static VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(raised|lowered|increased|decreased|reduced|bumped|upgraded|downgraded|changed|set|went (up|down)|extended|shortened|trips|kicks in|is now|are now|now|starting|only|up to|capped)\b",
    )
});

/// A correction: turns out, actually, not X, innocent, red herring, the real cause.
pub static CORRECT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(turns out|actually|correction|isn't|wasn't|was not|is not|are not|innocent|red herring|unrelated|real cause|root cause|is fine|just fine|never|comes from|come from|came from|not)\b",
    )
});

/// A resolution: works again, fixed, unblocked, approved, back up.
pub static RESOLVE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(again|fixed|resolved|unblocked|back up|back to|approved|working|works|go(es)? through|finished|can (start|continue)|flowing|green|resumed|released|restored)\b",
    )
});

/// An addition beside what stands: added, also, another, extra, alongside, "… too." ("too
/// many", "too noisy" say how much, not what else).
pub static ADD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:(added|also|as well|another|extra|additional(ly)?|in addition|second|third|alongside|next to|plus)\b|too\s*(?:[.,;:!?()—-]|$))",
    )
});

/// Words of a choice kept, "still" aside.
const KEPT_WORDS: &str =
    r"keep(s|ing)?|kept|stay(s|ed|ing)?|sticking|stick with|no change|renewed|remains?|good enough|not worth";

/// The old choice kept: keeping, stayed with, sticking with, still, renewed, no change.
pub static KEPT: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b({KEPT_WORDS}|still)\b")));

/// The old choice kept, without "still" (which as often says what is left of a change:
/// "still SES + MJML templates", "still blocked on the certificate").
static KEPT_CHOICE: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)\b({KEPT_WORDS})\b")));

/// A change proposed and refused.
pub static REJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(proposal|proposed|rejected|turned down|denied|declined|voted down|not accepted|vetoed|suggestion)\b")
});

/// An older memory that states a blocker.
pub static BLOCKER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(blocked|can't|cannot|fails?|broken|crash(es)?|down|stuck|until)\b"));

/// An older memory that states a cause.
pub static CAUSE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(because|caused by|comes from|due to|is a leak|slow)\b"));

/// A negation: no, not, never, don't, stop, no longer, anymore.
pub static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(no|not|never|don't|do not|doesn't|isn't|aren't|won't|cannot|can't|stop(ped)?|no longer|any ?more)\b")
});

/// A memory in the first person (a user's own facts).
pub static FIRST_PERSON: LazyLock<Regex> = LazyLock::new(|| re(r"\b(I|my|I'm|I've|My)\b"));

/// The newer memory says it stands beside the older, not in its place: it adds, keeps the
/// old choice ("still" aside) or rejects a change, in words the older does not use itself ("Pact tests
/// added between berthbook and notifyr too" beside "… between berthbook and fareengine").
pub fn beside(newer: &str, older: &str) -> bool {
    [&*ADD, &*KEPT_CHOICE, &*REJECT]
        .into_iter()
        .any(|r| r.is_match(newer) && !r.is_match(older))
}

/// The cue words found, for explanations.
pub fn named(text: &str) -> Vec<&'static str> {
    [
        (&*REPLACE, "replacement"),
        (&*VALUE, "changed value"),
        (&*CORRECT, "correction"),
        (&*RESOLVE, "resolution"),
        (&*ADD, "addition"),
        (&*KEPT, "kept"),
        (&*REJECT, "rejected proposal"),
    ]
    .into_iter()
    .filter(|(r, _)| r.is_match(text))
    .map(|(_, name)| name)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_choice_is_read_in_any_inflection() {
        for text in [
            "Reviewed Stripe Billing as a Chargebee replacement; we're keeping Chargebee for now.",
            "Evaluated SQLModel for the Python services; staying on SQLAlchemy.",
            "After the debate we decided to keep allowing deploys until 3pm.",
            "The team stayed with two-week sprints.",
        ] {
            assert!(KEPT.is_match(text), "{text}");
        }
        assert!(!KEPT.is_match("Internal service calls are gRPC going forward."));
    }

    #[test]
    fn too_adds_at_the_end_of_a_clause_only() {
        for text in [
            "Pact contract tests added between berthbook and notifyr too.",
            "go.mod says go 1.22, CI image too",
            "Critical alerts additionally page the on-call.",
            "Screen reader labels done for the booking flow too (PR 88).",
        ] {
            assert!(ADD.is_match(text), "{text}");
        }
        for text in [
            "3x produced too many false flags",
            "8% was too noisy in head seas",
            "Tomorrow's standup moved to 10:00",
        ] {
            assert!(!ADD.is_match(text), "{text}");
        }
        assert!(beside(
            "Kiosk checkout is also live at 3 more sites.",
            "Kiosk checkout is live at 12 sites."
        ));
        assert!(!beside(
            "Kiosk checkout is also live at 3 sites.",
            "Kiosk checkout is also live at 12 sites."
        ));
        assert!(!beside(
            "Kiosk checkout is live at 15 sites.",
            "Kiosk checkout is live at 12 sites."
        ));
        assert!(beside(
            "Discussed ULIDs for keys. UUIDv4 kept.",
            "wattledger uses UUIDv4 keys."
        ));
        assert!(!beside(
            "Delay emails go out from reise@; still SES.",
            "Delay emails go out from noreply@ via SES."
        ));
    }
}
