//! The marker heuristic of the first version: a change marker near a shared distinctive word.
//! Kept for contradictions across namespaces (edges); supersession itself is judged in
//! [`super::judge_all`].
//!
//! Conservative by design: the pair must share a namespace and domain, be related (cluster
//! mates, or at least `supersession_similarity` apart and sharing a topic word), and the
//! newer text must carry a change marker. Strong markers ("switched to", "replaced",
//! "no longer", "instead of", "migrated", "stop using", …) make a full supersession when
//! the newer memory names something the older did not (the replacement) or negates it;
//! weak markers ("now", "update", "changed", …) on a close pair make a partial one.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

#[cfg(test)]
use crate::consolidate::terms::salient;
use crate::model::{Memory, SupersessionKind};

static STRONG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(switch(ed|ing)? (from|to|over|back)|replac(ed|es|ing)|no longer|instead of|in favou?r of|migrat(ed|ing|e) (from|to|off|away)|moved? (from|to|off|away)|deprecat(ed|es|ing)|stop(ped)? using|(do not|don't|never) use|anymore|any more|revert(ed)?|dropp?ed|abandon(ed)?|supersed(ed|es)|not allowed|now use[sd]?|we now)\b",
    )
    .expect("constant regex")
});

static WEAK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(update[sd]?|changed?|now|except|as of|from now on|no more|going forward)\b")
        .expect("constant regex")
});

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(no|not|never|don't|do not|doesn't|isn't|aren't|won't|cannot|can't)\b").expect("constant regex")
});

/// Whether a shared word sits next to the marker (at byte `at`), where the thing
/// changed is named: "Switched to PostgreSQL because MySQL …", "Stop using moment.js",
/// "No deploys on Fridays anymore". A shared word at the far end of a long sentence is no
/// evidence. "moved to next sprint" reschedules; it replaces nothing.
fn marker_names(text: &str, at: usize, shared: &BTreeSet<&String>) -> bool {
    const BEFORE: usize = 5;
    const AFTER: usize = 7;
    let before = text.get(..at).unwrap_or_default();
    let start = before.rfind(['.', '!', '?', '\n', ';']).map_or(0, |p| p + 1);
    let after = text.get(at..).unwrap_or_default();
    let end = after.find(['.', '!', '?', '\n', ';']).map_or(text.len(), |p| at + p);
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| crate::consolidate::terms::fold(w.to_lowercase()))
            .collect()
    };
    let head = words(text.get(start..at).unwrap_or_default());
    let tail = words(text.get(at..end).unwrap_or_default());
    if tail.first().is_some_and(|w| w == "moved") && tail.get(2).is_some_and(|w| w == "next" || w == "later") {
        return false;
    }
    let near: Vec<&String> = head
        .iter()
        .rev()
        .take(BEFORE)
        .chain(tail.iter().take(AFTER + 2))
        .collect();
    shared.iter().any(|t| near.contains(t))
}

/// A judged supersession.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Full or partial.
    pub kind: SupersessionKind,
    /// Confidence in `[0, 1]`.
    pub confidence: f32,
    /// The evidence, for people.
    pub reason: String,
}

/// Whether a text carries any change marker (a cheap filter before pairing).
pub fn has_marker(text: &str) -> bool {
    STRONG.is_match(text) || WEAK.is_match(text)
}

/// Whether `newer` supersedes `older`, given their cosine similarity and whether they
/// share a cluster. `None` when the evidence is not clear.
#[cfg(test)]
pub fn judge(
    newer: &Memory,
    older: &Memory,
    similarity: f32,
    same_cluster: bool,
    min_similarity: f32,
) -> Option<Verdict> {
    let pair = Pair {
        newer,
        older,
        new_terms: &salient(&newer.content),
        old_terms: &salient(&older.content),
        similarity,
        same_cluster,
        distinctive: &|_| true,
    };
    judge_pair(&pair, min_similarity, false)
}

/// A candidate pair with its precomputed topic words.
pub struct Pair<'a> {
    /// The newer memory.
    pub newer: &'a Memory,
    /// The older memory.
    pub older: &'a Memory,
    /// Topic words of the newer.
    pub new_terms: &'a BTreeSet<String>,
    /// Topic words of the older.
    pub old_terms: &'a BTreeSet<String>,
    /// Cosine similarity.
    pub similarity: f32,
    /// Cluster mates.
    pub same_cluster: bool,
    /// Whether a topic word is rare enough in the scope to identify what a memory is about
    /// ("mysql" is, "dashboard" is not).
    pub distinctive: &'a dyn Fn(&str) -> bool,
}

/// [`judge`] on precomputed words; `across_namespaces` drops the namespace condition
/// (used to find contradictions, which are not supersessions).
pub fn judge_pair(p: &Pair<'_>, min_similarity: f32, across_namespaces: bool) -> Option<Verdict> {
    let (newer, older, similarity, same_cluster) = (p.newer, p.older, p.similarity, p.same_cluster);
    if (!across_namespaces && newer.namespace != older.namespace)
        || newer.domain != older.domain
        || (newer.created_at, newer.id) <= (older.created_at, older.id)
        || !newer.is_live()
        || !older.is_live()
    {
        return None;
    }
    if !same_cluster && similarity < min_similarity {
        return None;
    }
    let (old_terms, new_terms) = (p.old_terms, p.new_terms);
    let all_shared: BTreeSet<&String> = old_terms.intersection(new_terms).collect();
    // Outside a cluster, a common word ("dashboard", "ci") is no evidence the two talk
    // about the same thing.
    let shared: BTreeSet<&String> = if same_cluster {
        all_shared
    } else {
        all_shared.into_iter().filter(|t| (p.distinctive)(t)).collect()
    };
    if shared.is_empty() {
        return None;
    }
    let introduced = new_terms.difference(old_terms).count();
    let negates = NEGATION.is_match(&newer.content) && !NEGATION.is_match(&older.content);
    let shared_list = shared.iter().take(3).map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    if let Some(marker) = STRONG.find(&newer.content)
        && (introduced > 0 || negates)
        && marker_names(&newer.content, marker.start(), &shared)
    {
        let confidence = (0.55 + 0.2 * f32::from(u8::from(same_cluster)) + 0.25 * similarity.clamp(0.0, 1.0)).min(0.95);
        return Some(Verdict {
            kind: SupersessionKind::Full,
            confidence,
            reason: format!(
                "newer memory says \"{}\" about {shared_list}",
                marker.as_str().to_lowercase()
            ),
        });
    }
    if let Some(marker) = WEAK.find(&newer.content)
        && similarity >= 0.6
        && shared.len() >= 2
    {
        return Some(Verdict {
            kind: SupersessionKind::Partial,
            confidence: (0.35 + 0.3 * similarity).min(0.8),
            reason: format!(
                "newer memory updates {shared_list} (\"{}\")",
                marker.as_str().to_lowercase()
            ),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Namespace;
    use chrono::{Duration, TimeZone, Utc};

    fn pair(old: &str, new: &str, ns: &str) -> (Memory, Memory) {
        let t = Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).single().expect("date");
        let a = Memory::new(old, Namespace::parse(ns).expect("ns"), t);
        let b = Memory::new(new, Namespace::parse(ns).expect("ns"), t + Duration::days(30));
        (a, b)
    }

    #[test]
    fn changed_decisions_are_full_supersessions() {
        for (old, new, sim) in [
            (
                "Use MySQL for the main database",
                "Switched to PostgreSQL because MySQL lacked JSON support",
                0.29,
            ),
            (
                "Deploy on Fridays is allowed",
                "No deploys on Fridays anymore after the outage",
                0.76,
            ),
            (
                "Use REST for the public API",
                "We replaced REST with GraphQL for the public API",
                0.62,
            ),
            (
                "CI runs on Jenkins",
                "We no longer use Jenkins; CI runs on GitHub Actions",
                0.5,
            ),
        ] {
            let (a, b) = pair(old, new, "decisions");
            let v = judge(&b, &a, sim, false, 0.25).unwrap_or_else(|| panic!("{new} should supersede {old}"));
            assert_eq!(v.kind, SupersessionKind::Full, "{new}");
            assert!(
                judge(&a, &b, sim, false, 0.25).is_none(),
                "never the older over the newer"
            );
        }
    }

    #[test]
    fn unrelated_or_unmarked_pairs_are_left_alone() {
        for (old, new, ns, sim) in [
            // No shared topic word.
            (
                "Use MySQL for the main database",
                "Switched to Vite for the dashboard build",
                "decisions",
                0.1,
            ),
            // Related but no change marker: a repetition, not a replacement.
            (
                "Run tests with pytest -x",
                "Run the test suite with pytest -x to fail fast",
                "patterns",
                0.83,
            ),
            // Refinement that names nothing new and negates nothing.
            (
                "Use pnpm workspaces for the monorepo",
                "Switched to pnpm workspaces for the monorepo",
                "decisions",
                0.9,
            ),
            // Too far apart outside a cluster.
            (
                "Redis holds sessions",
                "Replaced the Redis cluster hardware",
                "context",
                0.2,
            ),
        ] {
            let (a, b) = pair(old, new, ns);
            assert!(
                judge(&b, &a, sim, false, 0.25).is_none(),
                "{new} must not supersede {old}"
            );
        }
        let (a, mut b) = pair("Use MySQL", "Switched to PostgreSQL from MySQL", "decisions");
        b.namespace = Namespace::parse("learnings").expect("ns");
        assert!(judge(&b, &a, 0.5, true, 0.25).is_none(), "never across namespaces");
    }

    #[test]
    fn updates_of_close_pairs_are_partial() {
        let (a, b) = pair(
            "Session TTL in Redis is 30 minutes for the dashboard",
            "Update: session TTL in Redis is now 60 minutes for the dashboard",
            "learnings",
        );
        let v = judge(&b, &a, 0.9, true, 0.25).expect("partial");
        assert_eq!(v.kind, SupersessionKind::Partial);
    }
}
