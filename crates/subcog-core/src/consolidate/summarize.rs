//! Stage 3 without an LLM: an extractive summary of a cluster.
//!
//! Nothing is invented: the title is the cluster's most shared topic words, the summary
//! quotes the most central memory (closest to the cluster centroid) and says how many
//! memories over which dates it stands for, key facts are the members' own summary lines
//! ordered by centrality (near-repeats dropped), decisions come from decision-namespace
//! members with the clause that gives their reason, and superseded facts from the
//! supersessions found inside the cluster.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::terms::{salient, sentences};
use crate::embed::dot;
use crate::model::{Memory, MemorySummary, SummaryDecision, SupersededFact, Supersession, Tier};

/// Most key facts kept.
const MAX_FACTS: usize = 5;
/// Key facts more similar than this to one already kept are repeats.
const REPEAT: f32 = 0.9;

/// Summarizes the members of one cluster (with their vectors, in the same order).
pub fn summarize(
    cluster_id: &str,
    members: &[&Memory],
    vectors: &[&[f32]],
    supersessions: &[Supersession],
    coherence: f32,
    run_id: &str,
    now: DateTime<Utc>,
) -> Option<MemorySummary> {
    if members.is_empty() || members.len() != vectors.len() {
        return None;
    }
    let dim = vectors[0].len();
    let mut centroid = vec![0.0f32; dim];
    for v in vectors {
        for (c, x) in centroid.iter_mut().zip(v.iter()) {
            *c += x;
        }
    }
    let norm = dot(&centroid, &centroid).sqrt().max(1e-6);
    centroid.iter_mut().for_each(|c| *c /= norm);
    let mut order: Vec<usize> = (0..members.len()).collect();
    let centrality: Vec<f32> = vectors.iter().map(|v| dot(v, &centroid)).collect();
    order.sort_by(|&a, &b| {
        centrality[b]
            .total_cmp(&centrality[a])
            .then(members[b].created_at.cmp(&members[a].created_at))
    });
    // Merged near-duplicates are repeats, not outdated facts.
    let supersessions: Vec<&Supersession> = supersessions.iter().filter(|s| s.method != "merge").collect();
    let superseded: Vec<&str> = supersessions.iter().map(|s| s.superseded_id.as_str()).collect();
    let is_superseded = |m: &Memory| superseded.contains(&m.id.to_string().as_str());

    // Title: topic words shared by most members, in the central memory's word order.
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for m in members {
        for t in salient(&m.content) {
            *counts.entry(t).or_default() += 1;
        }
    }
    let central = members[order[0]];
    let current = order
        .iter()
        .map(|&i| members[i])
        .find(|m| !is_superseded(m))
        .unwrap_or(central);
    let mut title_terms: Vec<(usize, usize, String)> = salient(&current.content)
        .into_iter()
        .filter_map(|t| {
            let n = counts.get(&t).copied().unwrap_or(0);
            let pos = current.content.to_lowercase().find(t.as_str()).unwrap_or(usize::MAX);
            (n >= 2 || members.len() == 1).then_some((n, pos, t))
        })
        .collect();
    title_terms.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    title_terms.truncate(4);
    title_terms.sort_by_key(|t| t.1);
    let title = if title_terms.is_empty() {
        crate::content::one_line(&current.summary, 60)
    } else {
        let words: Vec<String> = title_terms.into_iter().map(|t| t.2).collect();
        capitalize(&words.join(" "))
    };

    let start = members.iter().map(|m| m.created_at).min().unwrap_or(now);
    let end = members.iter().map(|m| m.created_at).max().unwrap_or(now);
    let namespace = dominant_namespace(members);
    let span = if start.date_naive() == end.date_naive() {
        start.format("%Y-%m-%d").to_string()
    } else {
        format!("{} to {}", start.format("%Y-%m-%d"), end.format("%Y-%m-%d"))
    };
    let mut summary = format!(
        "{} related {} memories, {span}. Most representative: \"{}\"",
        members.len(),
        namespace,
        first_sentence(&current.content)
    );
    if members.iter().any(|m| is_superseded(m)) {
        summary.push_str(" (earlier versions are superseded)");
    }

    let mut key_facts: Vec<(String, usize)> = Vec::new();
    for &i in &order {
        let m = members[i];
        if is_superseded(m) {
            continue;
        }
        if key_facts.iter().any(|(_, j)| dot(vectors[i], vectors[*j]) > REPEAT) {
            continue;
        }
        key_facts.push((m.summary.clone(), i));
        if key_facts.len() == MAX_FACTS {
            break;
        }
    }
    let decisions = order
        .iter()
        .map(|&i| members[i])
        .filter(|m| m.namespace.as_str() == "decisions" && !is_superseded(m))
        .map(|m| SummaryDecision {
            decision: m.summary.clone(),
            rationale: rationale(&m.content).unwrap_or_default(),
            source_id: m.id.to_string(),
        })
        .collect();
    let by_id: BTreeMap<String, &Memory> = members.iter().map(|m| (m.id.to_string(), *m)).collect();
    let superseded_facts = supersessions
        .iter()
        .filter_map(|s| {
            let old = by_id.get(&s.superseded_id)?;
            let new = by_id.get(&s.superseder_id)?;
            Some(SupersededFact {
                original_fact: old.summary.clone(),
                superseded_by: new.summary.clone(),
                source_memory_id: s.superseded_id.clone(),
            })
        })
        .collect();
    let mut source_ids: Vec<(DateTime<Utc>, String)> =
        members.iter().map(|m| (m.created_at, m.id.to_string())).collect();
    source_ids.sort();
    Some(MemorySummary {
        id: format!("sum_{}", cluster_id.trim_start_matches("cl_")),
        cluster_id: cluster_id.to_string(),
        namespace,
        title,
        summary,
        key_facts: key_facts.into_iter().map(|(f, _)| f).collect(),
        decisions,
        superseded_facts,
        source_ids: source_ids.into_iter().map(|(_, id)| id).collect(),
        start,
        end,
        // Extractive summaries quote; how far they represent the cluster is its coherence.
        confidence: (0.5 + 0.5 * coherence).clamp(0.0, 1.0),
        method: "extractive".into(),
        tier: Tier::Warm,
        run_id: run_id.to_string(),
        created_at: now,
        updated_at: now,
    })
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

fn first_sentence(text: &str) -> String {
    let s = sentences(text).into_iter().next().unwrap_or_default();
    crate::content::one_line(&s, 160)
}

/// The clause of a text that gives a reason ("because …", "so that …", "to avoid …").
pub fn rationale(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    for marker in [
        "because ",
        "so that ",
        "since ",
        "to avoid ",
        "in order to ",
        "due to ",
        "after ",
    ] {
        if let Some(pos) = lower.find(marker) {
            let clause = text.get(pos..)?;
            let end = clause.find(['.', ';', '\n']).unwrap_or(clause.len());
            return clause
                .get(..end)
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty());
        }
    }
    None
}

/// The namespace most members share (ties: alphabetical).
pub fn dominant_namespace(members: &[&Memory]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in members {
        *counts.entry(m.namespace.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(ns, _)| ns.to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Namespace;
    use chrono::{Duration, TimeZone};

    #[test]
    fn summaries_quote_and_never_invent() {
        let t = Utc.with_ymd_and_hms(2024, 3, 1, 0, 0, 0).single().expect("date");
        let ns = Namespace::parse("learnings").expect("ns");
        let a = Memory::new("The CI cache key must include the lockfile hash.", ns.clone(), t);
        let b = Memory::new(
            "CI cache must be keyed by the lockfile hash or builds use stale deps.",
            ns.clone(),
            t + Duration::days(20),
        );
        let c = Memory::new("Key the CI cache on the lockfile hash.", ns, t + Duration::days(40));
        let va = [1.0f32, 0.0];
        let vb = [0.96f32, 0.28];
        let vc = [0.99f32, 0.14];
        let s = summarize(
            "cl_abc",
            &[&a, &b, &c],
            &[&va, &vb, &vc],
            &[],
            0.95,
            "run_1",
            t + Duration::days(50),
        )
        .expect("summary");
        assert_eq!(s.id, "sum_abc");
        assert!(
            s.title.to_lowercase().contains("cache") && s.title.to_lowercase().contains("lockfile"),
            "{}",
            s.title
        );
        assert!(
            s.summary
                .starts_with("3 related learnings memories, 2024-03-01 to 2024-04-10."),
            "{}",
            s.summary
        );
        assert!(s.key_facts.iter().all(|f| [&a, &b, &c].iter().any(|m| &m.summary == f)));
        assert_eq!(s.source_ids.first(), Some(&a.id.to_string()));
        assert!(s.decisions.is_empty());
    }

    #[test]
    fn rationale_is_the_reason_clause() {
        assert_eq!(
            rationale("Switched to PostgreSQL because MySQL lacked JSON indexing. More text."),
            Some("because MySQL lacked JSON indexing".into())
        );
        assert_eq!(rationale("Use tabs"), None);
    }
}
