//! Seed 004's automatic rules: merge near-duplicates, shorten verbose old episodic
//! memories, promote well-used patterns to the user scope, archive stale memories — each
//! switchable and bounded by the exclusions (critical, permanent/protected, decisions,
//! younger than `rules_min_age_days`, created by a user without `user_consent`).

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};

use super::supersede::cues;
use super::terms::{jaccard, sentences};
use crate::config::ConsolidationConfig;
use crate::model::{Domain, Memory};
use crate::retention::is_pinned;

/// Namespaces holding episodic memories (what happened, as opposed to what holds).
pub const EPISODIC: &[&str] = &["progress", "context", "observations", "retrospective"];

/// Why a memory is off limits for the rules, if it is.
pub fn exclusion(m: &Memory, cfg: &ConsolidationConfig, now: DateTime<Utc>) -> Option<&'static str> {
    if is_pinned(m) {
        Some("pinned (critical, permanent or protected)")
    } else if m.namespace.as_str() == "decisions" {
        Some("decisions are never consolidated away")
    } else if now - m.created_at < Duration::days(cfg.rules_min_age_days.min(36_500) as i64) {
        Some("too recent")
    } else if m.created_by == "user" && !cfg.user_consent {
        Some("created by a user (set consolidation.user_consent to include)")
    } else if !m.is_live() {
        Some("deleted")
    } else {
        None
    }
}

/// Near-duplicate pairs `(newer, older, similarity)`: same namespace and domain, tag
/// overlap and content similarity above the thresholds, and a newer that does not say it
/// stands beside the older (adds, keeps, rejects: [`cues::beside`]; at 0.8 similarity
/// "Pact tests added between berthbook and notifyr too" is no duplicate of "Pact tests run
/// between berthbook and fareengine"); each older memory merges once, into the newest
/// duplicate.
pub fn merges(
    ms: &[&Memory],
    similarity: &dyn Fn(usize, usize) -> Option<f32>,
    candidates: &[(usize, usize)],
    cfg: &ConsolidationConfig,
    now: DateTime<Utc>,
) -> Vec<(usize, usize, f32)> {
    if !cfg.merge_duplicates {
        return Vec::new();
    }
    let mut found: Vec<(usize, usize, f32)> = Vec::new();
    for &(a, b) in candidates {
        let (newer, older) = if (ms[a].created_at, ms[a].id) > (ms[b].created_at, ms[b].id) {
            (a, b)
        } else {
            (b, a)
        };
        let (n, o) = (ms[newer], ms[older]);
        if n.namespace != o.namespace || n.domain != o.domain || exclusion(o, cfg, now).is_some() || !n.is_live() {
            continue;
        }
        let Some(sim) = similarity(newer, older) else { continue };
        let tags_a: BTreeSet<&String> = n.tags.iter().collect();
        let tags_b: BTreeSet<&String> = o.tags.iter().collect();
        // The cue words last: their regexes only for pairs that would merge otherwise.
        if sim > cfg.merge_similarity
            && jaccard(&tags_a, &tags_b) > cfg.merge_tag_overlap
            && !cues::beside(&n.content, &o.content)
        {
            found.push((newer, older, sim));
        }
    }
    // Newest keeper first, so chains collapse onto the newest memory.
    found.sort_by(|x, y| {
        (ms[y.0].created_at, ms[y.0].id)
            .cmp(&(ms[x.0].created_at, ms[x.0].id))
            .then(x.1.cmp(&y.1))
    });
    let mut merged: BTreeSet<usize> = BTreeSet::new();
    let mut out = Vec::new();
    for (newer, older, sim) in found {
        if merged.contains(&newer) || merged.contains(&older) {
            continue;
        }
        merged.insert(older);
        out.push((newer, older, sim));
    }
    out
}

/// The shortened text of a verbose old episodic memory, if the rule applies: its first two
/// sentences, the sentences that state an outcome or lesson, and its last sentence.
pub fn shorten_verbose(m: &Memory, cfg: &ConsolidationConfig, now: DateTime<Utc>) -> Option<String> {
    if !cfg.summarize_verbose
        || !EPISODIC.contains(&m.namespace.as_str())
        || m.content.chars().count() <= cfg.verbose_min_chars
        || now - m.created_at < Duration::days(cfg.verbose_min_age_days.min(36_500) as i64)
        || m.tags.iter().any(|t| t == "summarized")
        || exclusion(m, cfg, now).is_some()
    {
        return None;
    }
    let all = sentences(&m.content);
    let keep_marker = |s: &str| {
        let l = s.to_lowercase();
        [
            "learned",
            "lesson",
            "outcome",
            "result",
            "decided",
            "root cause",
            "fixed",
            "resolved",
            "because",
        ]
        .iter()
        .any(|k| l.contains(k))
    };
    let last = all.len().saturating_sub(1);
    let kept: Vec<&String> = all
        .iter()
        .enumerate()
        .filter(|(i, s)| *i < 2 || *i == last || keep_marker(s))
        .map(|(_, s)| s)
        .take(8)
        .collect();
    let text = kept.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
    Some(format!(
        "{text}\n\n[Shortened by subcog consolidation from {} characters; the full text is in the notes history.]",
        m.content.chars().count()
    ))
}

/// Whether a project pattern has earned a copy in the user scope.
pub fn promotable(m: &Memory, cfg: &ConsolidationConfig, now: DateTime<Utc>) -> bool {
    cfg.promote_patterns
        && m.namespace.as_str() == "patterns"
        && m.domain == Domain::Project
        && m.activation_count >= cfg.promote_min_activation
        && !m.tags.iter().any(|t| t == "promoted")
        && exclusion(m, cfg, now).is_none()
}

/// Why a memory is stale, if it is: never recalled and older than `stale_days`, or not
/// recalled for `stale_days`.
pub fn stale(m: &Memory, cfg: &ConsolidationConfig, now: DateTime<Utc>) -> Option<String> {
    if !cfg.archive_stale || exclusion(m, cfg, now).is_some() {
        return None;
    }
    let limit = Duration::days(cfg.stale_days.min(36_500) as i64);
    match m.last_accessed {
        None if m.activation_count == 0 && now - m.created_at > limit => Some(format!(
            "stale: never recalled in {} days",
            (now - m.created_at).num_days()
        )),
        Some(at) if now - at > limit => Some(format!("stale: not recalled for {} days", (now - at).num_days())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::model::{Namespace, Priority};

    fn now() -> DateTime<Utc> {
        chrono::TimeZone::with_ymd_and_hms(&Utc, 2024, 12, 1, 0, 0, 0)
            .single()
            .expect("date")
    }

    fn m(ns: &str, days: i64) -> Memory {
        let mut m = Memory::new("text", Namespace::parse(ns).expect("ns"), now() - Duration::days(days));
        m.created_by = "claude-code".into();
        m
    }

    #[test]
    fn exclusions_protect_what_seed_004_protects() {
        let cfg = Config::default().consolidation;
        assert!(exclusion(&m("learnings", 30), &cfg, now()).is_none());
        let mut critical = m("learnings", 30);
        critical.priority = Priority::Critical;
        assert!(exclusion(&critical, &cfg, now()).is_some());
        let mut permanent = m("learnings", 30);
        permanent.tags = vec!["permanent".into()];
        assert!(exclusion(&permanent, &cfg, now()).is_some());
        assert!(exclusion(&m("decisions", 30), &cfg, now()).is_some());
        assert!(exclusion(&m("learnings", 3), &cfg, now()).is_some());
        let mut by_user = m("learnings", 30);
        by_user.created_by = "user".into();
        assert!(exclusion(&by_user, &cfg, now()).is_some());
        let consent = ConsolidationConfig {
            user_consent: true,
            ..cfg
        };
        assert!(exclusion(&by_user, &consent, now()).is_none());
    }

    #[test]
    fn stale_and_verbose_rules() {
        let cfg = Config::default().consolidation;
        assert!(stale(&m("progress", 120), &cfg, now()).is_some());
        assert!(stale(&m("progress", 30), &cfg, now()).is_none());
        let mut used = m("progress", 120);
        used.last_accessed = Some(now() - Duration::days(10));
        used.activation_count = 2;
        assert!(stale(&used, &cfg, now()).is_none());
        let mut long = m("progress", 60);
        long.content = "Started the migration. ".repeat(300) + "Root cause was a missing index. Done.";
        let short = shorten_verbose(&long, &cfg, now()).expect("shortened");
        assert!(short.len() < 600 && short.contains("Root cause"), "{short}");
        assert!(shorten_verbose(&m("progress", 60), &cfg, now()).is_none());
    }
}
