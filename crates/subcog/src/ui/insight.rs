//! The API of the viewer's consolidation screens: the memory graph, the runs and what each
//! changed, and the tier distribution over time.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use axum::Router;
use axum::extract::State;
use axum::http::Uri;
use axum::routing::get;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use subcog_core::model::{Memory, MemoryEdge, MemoryId, Phase, Tier};
use subcog_core::store::{ListOrder, MemoryFilter, RecordedTransition};
use subcog_core::{ScopeKind, Subcog};

use super::Ui;
use super::query::{ApiResult, Params, blocking};
use crate::command_error::CommandError;

/// The routes of this file.
pub fn routes() -> Router<Ui> {
    Router::new()
        .route("/api/graph", get(graph))
        .route("/api/runs", get(runs))
        .route("/api/tiers", get(tiers))
}

/// How the tier history is derived, shown with it.
const TIER_HISTORY_METHOD: &str = "Live memories before the first consolidation run and after each run, \
derived from today's tiers rewound through the recorded tier transitions. A memory captured after a run is not counted at that run; \
deleted memories are not counted at all, so earlier totals can be lower than they were.";

/// The graph consolidation drew: the best-connected `limit` nodes (or those within two
/// steps of `around`) and the edges between them.
async fn graph(State(ui): State<Ui>, uri: Uri) -> ApiResult {
    let params = Params::of(&uri);
    blocking(&ui.subcog, move |s| {
        let limit = params.number("limit", 150)?.clamp(1, 1000);
        let around = params.get("around").map(|a| resolve_node(s, a)).transpose()?;
        let mut edges: Vec<MemoryEdge> = Vec::new();
        let mut summaries = HashMap::new();
        for kind in [ScopeKind::Project, ScopeKind::User] {
            if let Some(store) = s.store_for_read(kind)? {
                edges.extend(store.edges(None)?);
                summaries.extend(store.summaries()?.into_iter().map(|x| (x.id.clone(), x.title)));
            }
        }
        let total_edges = edges.len();
        if let Some(center) = &around {
            let near = within_two_steps(&edges, center);
            edges.retain(|e| near.contains(&e.source_id) && near.contains(&e.target_id));
        }
        let mut degree: HashMap<String, usize> = HashMap::new();
        for e in &edges {
            *degree.entry(e.source_id.clone()).or_default() += 1;
            *degree.entry(e.target_id.clone()).or_default() += 1;
        }
        let mut ranked: Vec<(String, usize)> = degree.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut kept: BTreeSet<String> = ranked.iter().take(limit).map(|(n, _)| n.clone()).collect();
        if let Some(center) = &around {
            kept.insert(center.clone());
        }
        edges.retain(|e| kept.contains(&e.source_id) && kept.contains(&e.target_id));
        let ids: Vec<MemoryId> = kept.iter().filter_map(|n| n.parse().ok()).collect();
        let memories: HashMap<String, Memory> = load(s, &ids)?.into_iter().map(|m| (m.id.to_string(), m)).collect();
        let nodes: Vec<Value> = kept
            .iter()
            .map(|n| match memories.get(n) {
                Some(m) => json!({"id": n, "kind": "memory", "label": m.summary, "namespace": m.namespace,
                                  "tier": m.tier, "status": m.status}),
                None => match summaries.get(n) {
                    Some(title) => json!({"id": n, "kind": "summary", "label": title}),
                    None => json!({"id": n, "kind": "missing", "label": n}),
                },
            })
            .collect();
        Ok(json!({
            "nodes": nodes,
            // `as_str`, the name the CLI prints (serde's lowercase drops the underscore).
            "edges": edges.iter().map(|e| json!({"source": e.source_id, "target": e.target_id,
                "type": e.edge_type.as_str(), "weight": e.weight, "reason": e.reason})).collect::<Vec<_>>(),
            "total_nodes": ranked.len(),
            "total_edges": total_edges,
            "around": around,
        }))
    })
    .await
}

/// A memory id (short ones resolved) or a summary id as given.
fn resolve_node(s: &Subcog, text: &str) -> Result<String, CommandError> {
    if text.starts_with("sum_") {
        return Ok(text.to_string());
    }
    Ok(s.resolve_id(text)?.to_string())
}

fn within_two_steps(edges: &[MemoryEdge], center: &str) -> BTreeSet<String> {
    let mut near = BTreeSet::from([center.to_string()]);
    for _ in 0..2 {
        let step: Vec<String> = edges
            .iter()
            .filter_map(|e| {
                if near.contains(&e.source_id) {
                    Some(e.target_id.clone())
                } else if near.contains(&e.target_id) {
                    Some(e.source_id.clone())
                } else {
                    None
                }
            })
            .collect();
        near.extend(step);
    }
    near
}

/// Memories of every scope by id.
fn load(s: &Subcog, ids: &[MemoryId]) -> Result<Vec<Memory>, CommandError> {
    let mut out = Vec::new();
    for (_, store) in s.existing_stores()? {
        out.extend(store.get_many(ids)?);
    }
    Ok(out)
}

/// Consolidation runs of every scope, newest first, each with its actions and tier changes.
async fn runs(State(ui): State<Ui>, uri: Uri) -> ApiResult {
    let params = Params::of(&uri);
    blocking(&ui.subcog, move |s| {
        let limit = params.number("limit", 20)?.clamp(1, 500);
        let mut all = Vec::new();
        for kind in [ScopeKind::Project, ScopeKind::User] {
            all.extend(s.runs(kind, limit)?);
        }
        all.sort_by_key(|r| std::cmp::Reverse(r.started_at));
        all.truncate(limit);
        serde_json::to_value(&all).map_err(CommandError::internal)
    })
    .await
}

/// Today's distribution, the distribution after each run, and the latest tier changes.
async fn tiers(State(ui): State<Ui>) -> ApiResult {
    blocking(&ui.subcog, |s| {
        let (status, recent) = crate::commands::tiers::collect(s, 50)?;
        let mut transitions = Vec::new();
        let mut runs = Vec::new();
        for kind in [ScopeKind::Project, ScopeKind::User] {
            if let Some(store) = s.store_for_read(kind)? {
                transitions.extend(store.transitions(usize::MAX)?);
            }
            runs.extend(s.runs(kind, 200)?);
        }
        let live = s.list(&MemoryFilter::default(), ListOrder::NewestFirst, None)?;
        let mut points: Vec<(DateTime<Utc>, String, String)> = runs
            .iter()
            .filter(|r| !r.dry_run && r.phase == Phase::Completed)
            .map(|r| {
                let last_change = transitions
                    .iter()
                    .filter(|t| t.run_id == r.run_id)
                    .map(|t| t.at)
                    .max();
                let at = r.completed_at.unwrap_or(r.started_at);
                let at = last_change.map_or(at, |c| c.max(at));
                (at, r.run_id.clone(), at.format("%Y-%m-%d %H:%M").to_string())
            })
            .collect();
        points.sort();
        // Where the first run started from: every tier it changed, undone.
        if let Some((_, first, _)) = points.first() {
            let started = runs.iter().find(|r| &r.run_id == first).map(|r| r.started_at);
            let changed = transitions.iter().filter(|t| &t.run_id == first).map(|t| t.at).min();
            if let Some(at) = started.into_iter().chain(changed).min() {
                let before = at - chrono::Duration::microseconds(1);
                points.insert(0, (before, String::new(), "before the first run".into()));
            }
        }
        points.push((s.clock().now(), String::new(), "now".into()));
        let rewound = TierHistory::new(&live, &transitions);
        let history: Vec<Value> = points
            .iter()
            .map(|(at, run, label)| json!({"at": at, "run_id": run, "label": label, "counts": rewound.at(*at)}))
            .collect();
        Ok(json!({
            "distribution": Tier::ALL.iter().map(|t| (t.as_str(), status.by_tier.get(t.as_str()).copied().unwrap_or(0))).collect::<BTreeMap<_, _>>(),
            "history": history,
            "method": TIER_HISTORY_METHOD,
            "recent": recent,
        }))
    })
    .await
}

/// Each live memory's tier today, capture time and recorded changes (oldest first), for
/// [`TierHistory::at`].
struct TierHistory {
    memories: Vec<MemoryTiers>,
}

/// One memory's part of [`TierHistory`].
struct MemoryTiers {
    created: DateTime<Utc>,
    today: Tier,
    /// When it changed tier, and the tier it left.
    changes: Vec<(DateTime<Utc>, Tier)>,
}

impl TierHistory {
    fn new(live: &[Memory], transitions: &[RecordedTransition]) -> Self {
        let mut changes: HashMap<&str, Vec<(DateTime<Utc>, Tier)>> = HashMap::new();
        for t in transitions {
            changes
                .entry(t.transition.memory_id.as_str())
                .or_default()
                .push((t.at, t.transition.from_tier));
        }
        let memories = live
            .iter()
            .map(|m| {
                let mut own = changes.remove(m.id.to_string().as_str()).unwrap_or_default();
                own.sort_by_key(|(at, _)| *at);
                MemoryTiers {
                    created: m.created_at,
                    today: m.tier,
                    changes: own,
                }
            })
            .collect();
        TierHistory { memories }
    }

    /// How many were in each tier at `at`: a memory's tier then is the one it left in its
    /// first change after `at`, or its tier today when it has not changed since.
    fn at(&self, at: DateTime<Utc>) -> BTreeMap<&'static str, u64> {
        let mut counts: BTreeMap<&'static str, u64> = Tier::ALL.iter().map(|t| (t.as_str(), 0)).collect();
        for m in self.memories.iter().filter(|m| m.created <= at) {
            let next = m.changes.partition_point(|(when, _)| *when <= at);
            let tier = m.changes.get(next).map_or(m.today, |(_, from)| *from);
            *counts.entry(tier.as_str()).or_default() += 1;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use subcog_core::model::{Namespace, TierTransition};

    fn transition(m: &Memory, from: Tier, to: Tier, at: DateTime<Utc>) -> RecordedTransition {
        RecordedTransition {
            transition: TierTransition {
                memory_id: m.id.to_string(),
                from_tier: from,
                to_tier: to,
                reason: "score".into(),
                retention_score: 0.5,
            },
            run_id: "run_1".into(),
            at,
        }
    }

    #[test]
    fn tiers_are_rewound_through_transitions() {
        let t0 = DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
            .expect("time")
            .with_timezone(&Utc);
        let day = chrono::Duration::days(1);
        let ns = Namespace::parse("decisions").expect("ns");
        let mut a = Memory::new("a", ns.clone(), t0);
        let mut b = Memory::new("b", ns.clone(), t0);
        let late = Memory::new("c", ns, t0 + day * 3);
        // a: hot → warm on day 1, warm → cold on day 2; b: hot → archived on day 2.
        a.tier = Tier::Cold;
        b.tier = Tier::Archived;
        let ts = vec![
            transition(&a, Tier::Hot, Tier::Warm, t0 + day),
            transition(&a, Tier::Warm, Tier::Cold, t0 + day * 2),
            transition(&b, Tier::Hot, Tier::Archived, t0 + day * 2),
        ];
        let live = vec![a, b, late];
        let history = TierHistory::new(&live, &ts);
        let at = |d: i32| history.at(t0 + day * d);
        assert_eq!(at(0)["hot"], 2);
        assert_eq!((at(1)["hot"], at(1)["warm"]), (1, 1));
        assert_eq!((at(2)["cold"], at(2)["archived"], at(2)["hot"]), (1, 1, 0));
        assert_eq!(at(3)["hot"], 1, "the memory captured on day 3 counts from then on");
    }
}
