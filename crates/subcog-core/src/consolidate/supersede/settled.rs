//! A newer memory that settles an older one by its shape: a blocker cleared ("Blocked:
//! can't publish 3.5.0, the signing key is on a laptop" → "3.5.0 signed with the backup key
//! and published"), a stated cause denied ("… land in spam because DKIM is missing" → "…
//! was the shared IP pool's reputation; DKIM had been passing the whole time"), or a thing
//! the older named retired outright ("Application logs are shipped to Papertrail" → "Logs:
//! Fluent Bit → Grafana Loki. Papertrail account cancelled."). Replacements of this shape
//! share few names or state no value of the older's kind, so the logistic score
//! ([`super::features`]) leaves many of them under the bar.
//! The shape itself is the evidence: [`Features::settles`](super::Features::settles) lets
//! such a pair through at [`super::features::SETTLED_EVIDENCE`] when the newer is the
//! older's closest candidate.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::values::content_words;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("constant regex")
}

/// The older states a blocker: "Blocked: …", "… is blocked on …", "can't …", "waiting on".
static BLOCKER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(blocked|blocker)\b|\bblocked (on|by|until|because)\b|\bis blocked\b|\b(can't|cannot|can not|unable to)\b|\bwait(ing|s) (on|for)\b|\bstuck\b",
    )
});

/// The newer says it still holds, or states a blocker of its own.
static STILL_BLOCKED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(still|not yet|yet to|waiting|pending|booked|retest|blocked|blocker|can't|cannot|won't|rejected|keeps failing|until|ran out|is down|are down)\b|\bno \w+ yet\b",
    )
});

/// The newer reports the blocked work done or moving: approved, published, live, running.
static DONE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(approved|accepted|signed( off)?|sent|got|received|arrived|delivered|opened|added|merged|deployed|published|released|shipped|live|is out|are out|done|completed|finished|started|running|rolling out|rolled out|connected|installed|resolved|fixed|works|working|green|unblocked|can (start|continue|go ahead|proceed)|went through|go(es)? through|resumed|registered|renewed|resized|expanded|ran|handles|allow-?listed|provisioned|restored|back up|closed|granted|reporting|loaded|has access|have access)\b",
    )
});

/// Words of addition that make a "done" something beside the blocked work.
static BESIDE: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)\b(also|as well|alongside)\b"));

/// The older names a cause: "because", "caused by", "comes from", "due to", "a leak".
static CAUSE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(because|caused by|comes? from|came from|due to|is from|are from|problem|leak|the cause|culprit)\b")
});

/// The newer gives a cause or a finding of its own.
static FINDING: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(because|caused|causes?|comes?|came|due to|culprit|traced|was|were|is|are)\b|="));

/// A clause that dismisses what it names: "was fine", "not R8", "a red herring".
static DISMISSED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(not|\w+n't|never|fine|ok|okay|intact|innocent|red herring|nothing to do|unrelated|whole time|all along|valid|no \w+ (job|bug|issue|problem))\b",
    )
});

/// A choice kept, a proposal or an addition: the newer leaves the older standing.
static STANDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(keep(s|ing)?|kept|stay(s|ed|ing)?|proposal|proposed|also|as well)\b"));

/// Where a clause ends: punctuation, a dash between words, "but".
static CLAUSE: LazyLock<Regex> = LazyLock::new(|| re(r"[.;:,()!?]|\s-\s|\bbut\b"));

/// Nouns for what a named thing is: "the Jenkins *VM*", "Docker Hub *pushes*".
const THINGS: &str = "box|server|vm|space|pods?|instances?|cluster|account|subscription|contract|licen[cs]e|domain|endpoint|pushes|app|apps|bucket|service|cards?|sims?|repo|plugin|jobs?|pipeline|site|page|tenant|project|org|integration|install|setup|hosts?|machine|stack|sdk|agent|config|workers|brokers?|exchange|workflows|sidecars|distribution";

/// What retires a thing, right after its name and perhaps one more word of it and a noun
/// for what it is ("the Jenkins VM powered off", "Okta was decommissioned", "Docker Hub
/// pushes are disabled"). "archived", "off" and "no" alone are not here: "WAL is archived"
/// and a "tap-off" are in use. The one more word must be the older's too (see
/// [`retires_old_name`]): "Auth0 *Rules* are deprecated" retires a part, not Auth0.
static RETIRED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^(?:'s)?(?:\s+([\w-]+))?(?:\s+(?:{THINGS}))?\s+(?:is |are |was |were |has been |have been |got |gets |will be )?(?:now |also )?(?:a )?(?:read-only|frozen|shut (?:off|down)|switched off|turned off|powered off|gone|decommissioned|deleted|cancell?ed|not renewed|scaled to (?:0|zero)|retired|disabled|deprecated|sunsets?|unplugged|removed|dropped)\b",
    ))
});

/// Words between a name and its retirement that are no part of the name.
const LINKING: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "got", "gets", "will", "now", "also", "a",
];

/// A noun for what a named thing is, after its name: "the Jenkins *VM*".
static THING: LazyLock<Regex> = LazyLock::new(|| re(&format!("^(?:{THINGS})$")));

/// A retirement named before the thing: "after the retirement of Graphite".
static RETIRED_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:retirement|shutdown|sunset|end of life|eol) of (?:the )?$"));

/// A retirement named after the thing: "after the ingress-nginx retirement notice".
static RETIREMENT_AFTER: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+(?:retirement|shutdown|sunset|eol)\b"));

/// The newer (`lower`: its text in lower case, which the caller has already) retires a
/// thing the older named: one of `names` (the older's names, lower case) or a hyphenated
/// word of the older ("jenkins-01", "ingress-nginx"), followed by words that retire it.
pub fn retires_old_name(older: &str, names: &BTreeSet<String>, lower: &str) -> bool {
    let hyphenated = super::values::TOKEN
        .find_iter(older)
        .map(|m| m.as_str().trim_end_matches('.').to_lowercase())
        .filter(|w| w.contains('-'));
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let older_lower = older.to_lowercase();
    names.iter().cloned().chain(hyphenated).any(|name| {
        lower.match_indices(name.as_str()).any(|(at, m)| {
            let before = lower.get(..at).unwrap_or_default();
            let after = lower.get(at + m.len()..).unwrap_or_default();
            if before.chars().next_back().is_some_and(word) || after.chars().next().is_some_and(word) {
                return false;
            }
            let retired = RETIRED_AFTER.captures(after).is_some_and(|c| {
                c.get(1).is_none_or(|w| {
                    let w = w.as_str();
                    // The regex takes "was" of "jenkins-01 was powered off" as that word.
                    LINKING.contains(&w) || THING.is_match(w) || older_lower.split(|c: char| !word(c)).any(|o| o == w)
                })
            });
            retired || RETIREMENT_AFTER.is_match(after) || RETIRED_BEFORE.is_match(before)
        })
    })
}

/// The older states a blocker and the newer reports the work done, with nothing saying
/// the blocker holds.
pub fn blocker_cleared(older: &str, newer: &str) -> bool {
    BLOCKER.is_match(older) && DONE.is_match(newer) && !STILL_BLOCKED.is_match(newer) && !BESIDE.is_match(newer)
}

/// The older names a cause and the newer gives a finding with a clause that dismisses a
/// word of that cause ("… the privacy manifest was fine").
pub fn cause_denied(older: &str, newer: &str) -> bool {
    let Some(at) = CAUSE.find(older) else {
        return false;
    };
    if !FINDING.is_match(newer) || STANDS.is_match(newer) {
        return false;
    }
    // The words after the marker name the cause; "because" itself is no subject.
    let cause: BTreeSet<String> = content_words(older.get(at.end()..).unwrap_or_default())
        .into_iter()
        .filter(|w| w.chars().count() >= 3)
        .collect();
    CLAUSE
        .split(newer)
        .filter(|clause| DISMISSED.is_match(clause))
        .any(|clause| content_words(clause).iter().any(|w| cause.contains(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocker_is_cleared_only_when_the_work_went_ahead() {
        let older = "Blocked: can't publish fw 3.5.0, the signing key is on a laptop and its owner is on leave.";
        assert!(blocker_cleared(
            older,
            "fw 3.5.0 signed with the backup key from the HSM and published."
        ));
        assert!(blocker_cleared(
            "Waiting on the vendor to allowlist our egress IPs.",
            "Vendor allowlisted the IPs, the SFTP drop works."
        ));
        // Still blocked, a new blocker, or something beside it: not cleared.
        assert!(!blocker_cleared(
            "Blocked: the rev C enclosure fails the IP65 spray test.",
            "The leak is at the cable gland; the retest is booked, so still no IP65 pass."
        ));
        assert!(!blocker_cleared(
            older,
            "Staging is down because its RDS instance ran out of storage."
        ));
        assert!(!blocker_cleared(older, "Also published the release notes."));
        // An older that is no blocker.
        assert!(!blocker_cleared(
            "Releases are signed with a GPG key.",
            "Release 3.5.0 was published."
        ));
    }

    #[test]
    fn a_thing_the_older_named_is_retired_by_name() {
        let names = |t: &str| super::super::values::values(t).names;
        let older = "Application logs are shipped to Papertrail.";
        let retires = |older: &str, newer: &str| retires_old_name(older, &names(older), &newer.to_lowercase());
        assert!(retires(
            older,
            "Logs: Fluent Bit daemonset -> Grafana Loki. Papertrail account cancelled."
        ));
        assert!(retires(
            "Ingress controller on the clusters is ingress-nginx.",
            "Cluster ingress is handled by Traefik after the ingress-nginx retirement notice."
        ));
        assert!(retires(
            "CI runs on Jenkins on the jenkins-01 box.",
            "CI is GitHub Actions; jenkins-01 was powered off on Friday."
        ));
        // Named, but in use: not retired.
        assert!(!retires(
            "harrow-api stores farms in the Postgres schema core.",
            "Postgres WAL is archived to object storage with wal-g."
        ));
        assert!(!retires(older, "Papertrail alerts go to the #ops channel."));
        // A part of what the older named retired: the older still stands.
        assert!(!retires(
            "Use Auth0 for customer login.",
            "Auth0 Rules are deprecated, so the login hooks were rewritten as Auth0 Actions."
        ));
        assert!(retires(
            "Container images are pushed to Docker Hub under the org account.",
            "Images go to Amazon ECR; Docker Hub pushes are disabled in CI."
        ));
        // Only a part of the name: "Papertrail-export" is another thing.
        assert!(!retires(older, "The papertrail-export job was removed."));
    }

    #[test]
    fn a_cause_is_denied_by_a_clause_that_dismisses_it() {
        let older = "Learned: newsletters land in spam because DKIM is missing.";
        assert!(cause_denied(
            older,
            "Newsletter spam placement was caused by the shared IP pool's reputation; DKIM had been passing the whole time."
        ));
        assert!(cause_denied(
            "App review rejected 5.9 due to a missing privacy manifest.",
            "Apple rejected 5.9 because of the account deletion flow; the privacy manifest was fine."
        ));
        // The dismissed words are not the cause's, or nothing is dismissed.
        assert!(!cause_denied(
            "The API pods get OOMKilled because the JVM ignores container memory limits.",
            "Learned: the HPA ignores pods that aren't Ready when it computes CPU utilization."
        ));
        assert!(!cause_denied(older, "DKIM keys are rotated every year."));
        // A refinement that keeps the cause.
        assert!(!cause_denied(
            older,
            "DKIM is missing; we keep the old sender until it is set up."
        ));
    }
}
