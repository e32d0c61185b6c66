//! Stage 6 without an LLM: the memory graph from what the text and the vectors show.
//!
//! - `supersedes`: from stage 4 (and merges);
//! - `consolidates`: summary → each member;
//! - `relates_to`: the closest neighbours above `relates_to_similarity` (undirected, drawn
//!   once from the older memory);
//! - `references`: a memory that quotes another's id;
//! - `depends_on` / `implements`: "depends on …", "blocked by …", "requires …" /
//!   "implements …", "as decided …" followed by words that name another memory's topic;
//! - `contradicts`: a change marker aimed at a memory of another namespace (so it cannot
//!   replace it).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::terms::salient;
use crate::model::{EdgeType, Memory, MemoryEdge, MemorySummary, Supersession};

/// Neighbours per memory considered for `relates_to`.
const MAX_RELATED: usize = 3;

static DEPENDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(depends on|dependent on|blocked (?:by|on)|requires|waiting (?:on|for)|needs)\s+([^.;\n]{3,120})",
    )
    .expect("constant regex")
});
static IMPLEMENTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(implements|implemented|implementing|as decided in|per the decision|follows the decision)\s+([^.;\n]{3,120})")
        .expect("constant regex")
});
static ULID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b[0-9A-HJKMNP-TV-Z]{26}\b").expect("constant regex"));

static RELATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(depends? on|dependent on|blocked (?:by|on)|requires|waiting (?:on|for)|implements?|implemented|as decided|contradicts?|conflicts? with|relates? to|related to|because of|caused by|breaks|uses)\b")
        .expect("constant regex")
});

/// Whether a memory's text states a relation worth asking an LLM about.
pub fn names_relation(text: &str) -> bool {
    RELATION.is_match(text)
}

/// Everything the edge stage looks at.
pub struct EdgeInput<'a> {
    /// The memories in scope.
    pub memories: &'a [&'a Memory],
    /// Memory pairs `(i, j, similarity)` close enough to relate (from clustering).
    pub near: &'a [(usize, usize, f32)],
    /// Supersessions found by this run.
    pub supersessions: &'a [Supersession],
    /// Summaries of this run's clusters.
    pub summaries: &'a [MemorySummary],
    /// Memory pairs (newer, older) judged to contradict.
    pub contradictions: &'a [(usize, usize, String)],
    /// `relates_to` threshold.
    pub relates_to: f32,
    /// The run drawing them.
    pub run_id: &'a str,
}

/// Draws the graph.
pub fn extract(input: &EdgeInput<'_>) -> Vec<MemoryEdge> {
    let mut out: BTreeMap<(String, String, EdgeType), MemoryEdge> = BTreeMap::new();
    let mut add = |source: String, target: String, edge_type: EdgeType, weight: f32, reason: String| {
        if source == target {
            return;
        }
        let key = (source.clone(), target.clone(), edge_type);
        out.entry(key).or_insert(MemoryEdge {
            source_id: source,
            target_id: target,
            edge_type,
            weight: weight.clamp(0.0, 1.0),
            reason,
            run_id: input.run_id.to_string(),
        });
    };
    for s in input.supersessions {
        add(
            s.superseder_id.clone(),
            s.superseded_id.clone(),
            EdgeType::Supersedes,
            s.confidence,
            format!("{} supersession: {}", s.kind, s.reason),
        );
    }
    for summary in input.summaries {
        for id in &summary.source_ids {
            add(
                summary.id.clone(),
                id.clone(),
                EdgeType::Consolidates,
                1.0,
                format!("member of cluster \"{}\"", summary.title),
            );
        }
    }
    let ms = input.memories;
    let superseding: BTreeSet<(String, String)> = input
        .supersessions
        .iter()
        .flat_map(|s| {
            [
                (s.superseder_id.clone(), s.superseded_id.clone()),
                (s.superseded_id.clone(), s.superseder_id.clone()),
            ]
        })
        .collect();
    // Each memory's closest neighbours above the threshold, drawn once per pair.
    let mut neighbours: BTreeMap<usize, Vec<(f32, usize)>> = BTreeMap::new();
    for &(i, j, sim) in input.near {
        if sim >= input.relates_to && i < ms.len() && j < ms.len() {
            neighbours.entry(i).or_default().push((sim, j));
            neighbours.entry(j).or_default().push((sim, i));
        }
    }
    for (i, mut near) in neighbours {
        near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (sim, j) in near.into_iter().take(MAX_RELATED) {
            let (a, b) = if (ms[i].created_at, ms[i].id) <= (ms[j].created_at, ms[j].id) {
                (i, j)
            } else {
                (j, i)
            };
            let (src, dst) = (ms[a].id.to_string(), ms[b].id.to_string());
            if superseding.contains(&(src.clone(), dst.clone())) {
                continue;
            }
            add(
                src,
                dst,
                EdgeType::RelatesTo,
                sim,
                format!("similar content ({sim:.2})"),
            );
        }
    }
    let ids: BTreeMap<String, usize> = ms.iter().enumerate().map(|(i, m)| (m.id.to_string(), i)).collect();
    let terms: Vec<BTreeSet<String>> = ms.iter().map(|m| salient(&m.content)).collect();
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    let mut postings: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (j, t) in terms.iter().enumerate() {
        for w in t {
            *df.entry(w.as_str()).or_default() += 1;
            postings.entry(w.as_str()).or_default().push(j);
        }
    }
    for (i, m) in ms.iter().enumerate() {
        for found in ULID.find_iter(&m.content) {
            if let Some(&j) = ids.get(found.as_str()) {
                add(
                    m.id.to_string(),
                    ms[j].id.to_string(),
                    EdgeType::References,
                    1.0,
                    "names the memory's id".into(),
                );
            }
        }
        for (re, edge_type, decisions_only) in [
            (&*DEPENDS, EdgeType::DependsOn, false),
            (&*IMPLEMENTS, EdgeType::Implements, true),
        ] {
            for caps in re.captures_iter(&m.content) {
                let (Some(marker), Some(phrase)) = (caps.get(1), caps.get(2)) else {
                    continue;
                };
                let words = salient(phrase.as_str());
                if let Some((j, score, shared)) = best_target(i, &words, ms, &terms, &df, &postings, decisions_only) {
                    add(
                        m.id.to_string(),
                        ms[j].id.to_string(),
                        edge_type,
                        score,
                        format!("\"{} …\" names {}", marker.as_str().to_lowercase(), shared),
                    );
                }
            }
        }
    }
    for (newer, older, reason) in input.contradictions {
        if let (Some(a), Some(b)) = (ms.get(*newer), ms.get(*older)) {
            add(
                a.id.to_string(),
                b.id.to_string(),
                EdgeType::Contradicts,
                0.6,
                reason.clone(),
            );
        }
    }
    out.into_values().collect()
}

/// What identifies an edge's content (weights to three decimals).
fn edge_key(e: &MemoryEdge) -> (String, String, String, u32, String) {
    (
        e.source_id.clone(),
        e.target_id.clone(),
        e.edge_type.to_string(),
        (e.weight * 1000.0).round() as u32,
        e.reason.clone(),
    )
}

/// The nodes among `sources` whose outgoing edges differ between `old` and `new`: only
/// those are rewritten, so an unchanged graph costs no writes.
pub fn changed_sources(old: &[MemoryEdge], new: &[MemoryEdge], sources: BTreeSet<String>) -> Vec<String> {
    let group = |edges: &[MemoryEdge]| {
        let mut by: BTreeMap<String, Vec<_>> = BTreeMap::new();
        for e in edges {
            by.entry(e.source_id.clone()).or_default().push(edge_key(e));
        }
        by.values_mut().for_each(|v| v.sort());
        by
    };
    let (old, new) = (group(old), group(new));
    sources.into_iter().filter(|s| old.get(s) != new.get(s)).collect()
}

/// The memory whose topic words best cover `words`: at least two shared words, or one
/// that at most three memories use.
fn best_target(
    from: usize,
    words: &BTreeSet<String>,
    ms: &[&Memory],
    terms: &[BTreeSet<String>],
    df: &BTreeMap<&str, usize>,
    postings: &BTreeMap<&str, Vec<usize>>,
    decisions_only: bool,
) -> Option<(usize, f32, String)> {
    if words.is_empty() {
        return None;
    }
    // Targets are found through the phrase's less common words; words most memories use
    // ("service", "team") name nothing in particular.
    let common = (terms.len() / 20).max(5);
    let candidates: BTreeSet<usize> = words
        .iter()
        .filter(|w| df.get(w.as_str()).copied().unwrap_or(0) <= common)
        .flat_map(|w| postings.get(w.as_str()).into_iter().flatten().copied())
        .collect();
    let mut best: Option<(f32, usize, Vec<String>)> = None;
    for j in candidates {
        let t = &terms[j];
        if j == from || (decisions_only && ms[j].namespace.as_str() != "decisions") || !ms[j].is_live() {
            continue;
        }
        let shared: Vec<String> = words.intersection(t).cloned().collect();
        let rare = shared.iter().any(|w| df.get(w.as_str()).copied().unwrap_or(0) <= 3);
        if shared.len() < 2 && !(shared.len() == 1 && rare) {
            continue;
        }
        // Favour words few memories share: they identify the target.
        let score: f32 = shared
            .iter()
            .map(|w| 1.0 / df.get(w.as_str()).copied().unwrap_or(1).max(1) as f32)
            .sum::<f32>()
            / words.len() as f32;
        let better = match &best {
            None => true,
            Some((s, k, _)) => score > *s || (score == *s && ms[j].created_at > ms[*k].created_at),
        };
        if better {
            best = Some((score, j, shared));
        }
    }
    best.map(|(score, j, shared)| (j, (0.4 + score).min(1.0), shared.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Namespace;
    use chrono::{Duration, TimeZone, Utc};

    #[test]
    fn text_markers_become_typed_edges() {
        let t = Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).single().expect("date");
        let m =
            |text: &str, ns: &str, d: i64| Memory::new(text, Namespace::parse(ns).expect("ns"), t + Duration::days(d));
        let redis = m(
            "Sessions live in the Redis session store with a 30 minute TTL",
            "decisions",
            0,
        );
        let pg = m("Use PostgreSQL for the events table", "decisions", 1);
        let limiter = m(
            "The public API rate limiter depends on the Redis session store",
            "context",
            2,
        );
        let migration = m(
            "Events table migration implements the decision to use PostgreSQL",
            "progress",
            3,
        );
        let quoting = m(&format!("See {} for the session details", redis.id), "context", 4);
        let all = [&redis, &pg, &limiter, &migration, &quoting];
        let edges = extract(&EdgeInput {
            memories: &all,
            near: &[],
            supersessions: &[],
            summaries: &[],
            contradictions: &[],
            relates_to: 0.75,
            run_id: "run_1",
        });
        let has = |s: &Memory, d: &Memory, ty: EdgeType| {
            edges
                .iter()
                .any(|e| e.source_id == s.id.to_string() && e.target_id == d.id.to_string() && e.edge_type == ty)
        };
        assert!(has(&limiter, &redis, EdgeType::DependsOn), "{edges:#?}");
        assert!(has(&migration, &pg, EdgeType::Implements), "{edges:#?}");
        assert!(has(&quoting, &redis, EdgeType::References), "{edges:#?}");
        assert!(!has(&redis, &pg, EdgeType::DependsOn));
    }
}
