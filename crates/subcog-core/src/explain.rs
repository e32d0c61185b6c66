//! Why a memory is where it is (`subcog explain ID`): its retention factors and the tier
//! they earn, its tier history, supersession either way and why, its edges, cluster and
//! summary, and when it last reached a session or a recall. And why it did or did not come
//! back for a query (`subcog explain --query`): each channel's rank, each filter, the
//! cut-offs.
//!
//! Reads only: an explanation never touches activation counts or records activity.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::activity::{ActivityKind, ActivityRecord};
use crate::error::{Error, Result};
use crate::model::{Memory, MemoryEdge, MemoryId, MemorySummary, Status, Supersession, Tier};
use crate::recall::{ChannelScore, RecallQuery};
use crate::retention::{Retention, is_pinned};
use crate::service::{ScopeKind, Subcog};
use crate::store::RecordedTransition;

/// How many activity records of each kind an explanation shows.
pub const ACTIVITY_SHOWN: usize = 10;
/// How many tier changes an explanation shows (newest first).
pub const HISTORY_SHOWN: usize = 200;
/// How deep each channel is searched for the memory's own rank.
const CHANNEL_DEPTH: usize = 1000;

/// The retention score, factor by factor, as stored and as it stands now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetentionFactors {
    /// What the last consolidation stored.
    pub stored: crate::model::RetentionScore,
    /// The same formula at this moment (decay goes on between runs).
    pub now: crate::model::RetentionScore,
    /// The tier `now` earns (consolidation applies it at its next run).
    pub tier_now: Tier,
    /// Days since it was created or last recalled, whichever is later.
    pub age_days: f64,
    /// `retention.recency_half_life_days`.
    pub half_life_days: f32,
    /// The weights of the sum: recency, activation, importance, supersession.
    pub weights: [f32; 4],
    /// HOT, WARM and archive thresholds.
    pub thresholds: [f32; 3],
    /// Critical priority or a pin tag: never below WARM.
    pub pinned: bool,
}

/// Everything known about why a memory is where it is.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryExplanation {
    /// The memory.
    pub memory: Memory,
    /// `project` or `user`.
    pub scope: &'static str,
    /// Its retention factors.
    pub retention: RetentionFactors,
    /// Its tier changes, newest first.
    pub tier_history: Vec<RecordedTransition>,
    /// The supersession that replaced it, if any.
    pub superseded_by: Option<Supersession>,
    /// The memories it replaced.
    pub supersedes: Vec<Supersession>,
    /// Edges touching it.
    pub edges: Vec<MemoryEdge>,
    /// The summary of its cluster, if consolidation wrote one.
    pub summary: Option<MemorySummary>,
    /// The last sessions it was injected into, newest first.
    pub injections: Vec<ActivityRecord>,
    /// The last recalls that returned it, newest first.
    pub recalls: Vec<ActivityRecord>,
    /// All kept injections and recalls (the activity log keeps 90 days).
    pub injected_count: u64,
    /// See `injected_count`.
    pub recalled_count: u64,
    /// Why the activity could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_unavailable: Option<String>,
}

/// One filter of a recall, and whether the memory passes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FilterCheck {
    /// The filter (`status`, `tier`, `namespace`, …).
    pub filter: &'static str,
    /// Whether the memory passes.
    pub passes: bool,
    /// Why, in words.
    pub detail: String,
}

/// Why a memory did or did not come back for a query.
#[derive(Debug, Clone, Serialize)]
pub struct QueryExplanation {
    /// The memory's id.
    pub id: String,
    /// The query.
    pub query: String,
    /// The terms it was reduced to.
    pub terms: Vec<String>,
    /// Its 1-based rank among the results, when returned.
    pub returned_rank: Option<usize>,
    /// How many results the recall returns.
    pub limit: usize,
    /// Its rank after fusion when it passes the filters but falls below the limit.
    pub fused_rank: Option<usize>,
    /// The memory returned in its place (it is superseded), if any.
    pub stood_in_by: Option<String>,
    /// Its rank in the keyword channel, filters aside (searched to depth 1000).
    pub bm25: Option<ChannelScore>,
    /// Its rank in the meaning channel, filters aside.
    pub vector: Option<ChannelScore>,
    /// Its rank in the time channel, when the query names a time.
    pub time: Option<ChannelScore>,
    /// How many candidates each channel hands to the fusion (`recall.candidates`).
    pub candidates: usize,
    /// Whether the meaning channel took part, and why not.
    pub semantic_unavailable: Option<String>,
    /// Each filter the recall applies.
    pub filters: Vec<FilterCheck>,
    /// The answer in one sentence.
    pub verdict: String,
}

impl Subcog {
    /// Why a memory is where it is.
    pub fn explain(&self, id: &MemoryId) -> Result<MemoryExplanation> {
        let _span = tracing::info_span!("explain.memory", memory_id = %id).entered();
        let (scope, memory) = self.find_required(id)?;
        let store = self
            .store_for_read(scope)?
            .ok_or_else(|| Error::NotFound { id: id.to_string() })?;
        let key = id.to_string();
        let supersessions = store.supersessions()?;
        let superseded_by = supersessions.iter().find(|s| s.superseded_id == key).cloned();
        let supersedes: Vec<Supersession> = supersessions.into_iter().filter(|s| s.superseder_id == key).collect();
        let now = self.clock.now();
        let retention = self.retention_factors(&memory, superseded_by.as_ref(), now);
        let tier_history: Vec<RecordedTransition> = store.transitions_of(&key, HISTORY_SHOWN)?;
        let summary = match &memory.cluster_id {
            Some(cluster) => store.summaries()?.into_iter().find(|s| &s.cluster_id == cluster),
            None => None,
        };
        let edges = store.edges(Some(&key))?;
        let mut explanation = MemoryExplanation {
            memory,
            scope: scope.as_str(),
            retention,
            tier_history,
            superseded_by,
            supersedes,
            edges,
            summary,
            injections: Vec::new(),
            recalls: Vec::new(),
            injected_count: 0,
            recalled_count: 0,
            activity_unavailable: None,
        };
        let activity = self.activity();
        match activity.for_memory(&key, 4 * ACTIVITY_SHOWN).and_then(|records| {
            let counts = activity.counts(&key)?;
            Ok((records, counts))
        }) {
            Ok((records, (injected, recalled))) => {
                let (inj, rec): (Vec<_>, Vec<_>) = records.into_iter().partition(|r| r.kind == ActivityKind::Injected);
                explanation.injections = inj.into_iter().take(ACTIVITY_SHOWN).collect();
                explanation.recalls = rec.into_iter().take(ACTIVITY_SHOWN).collect();
                explanation.injected_count = injected;
                explanation.recalled_count = recalled;
            }
            Err(e) => explanation.activity_unavailable = Some(e.to_string()),
        }
        Ok(explanation)
    }

    fn retention_factors(&self, m: &Memory, superseded: Option<&Supersession>, now: DateTime<Utc>) -> RetentionFactors {
        let c = &self.config.retention;
        let retention = Retention::new(c);
        let current = retention.score(m, superseded.map(|s| s.kind), now);
        let pinned = is_pinned(m);
        let since = m.last_accessed.map_or(m.created_at, |a| a.max(m.created_at));
        RetentionFactors {
            stored: m.retention,
            now: current,
            tier_now: retention.tier(current.overall, pinned),
            age_days: (now - since).num_seconds().max(0) as f64 / 86_400.0,
            half_life_days: c.recency_half_life_days,
            weights: [
                c.recency_weight,
                c.activation_weight,
                c.importance_weight,
                c.supersession_weight,
            ],
            thresholds: [c.hot_threshold, c.warm_threshold, c.archive_threshold],
            pinned,
        }
    }

    /// Why a memory did or did not come back for `query` (its filters, limit and mode as
    /// given; the config's defaults otherwise).
    pub fn explain_query(&self, id: &MemoryId, query: &RecallQuery) -> Result<QueryExplanation> {
        let _span = tracing::info_span!("explain.query", memory_id = %id).entered();
        let (scope, memory) = self.find_required(id)?;
        let cfg = &self.config.recall;
        let limit = query.limit.unwrap_or(cfg.default_limit);
        let mode = query.mode.unwrap_or(cfg.default_mode);
        let terms = crate::search::query_terms(&query.query);
        if terms.is_empty() {
            return Err(crate::error::ValidationError::EmptyQuery.into());
        }
        let filters = filter_checks(&memory, scope, query, mode);
        // The recall itself, deep enough to see where the memory falls below the limit.
        let deep = RecallQuery {
            limit: Some(limit.max(cfg.candidates)),
            no_touch: true,
            ..query.clone()
        };
        // The query is embedded once, for the recall and for the meaning channel's own rank.
        let mut semantic_unavailable = None;
        let vector = match self.embedder() {
            Some(embedder) => match embedder.embed_one(&query.query) {
                Ok(v) => Some((embedder.model().clone(), v)),
                Err(e) => {
                    semantic_unavailable = Some(e.to_string());
                    None
                }
            },
            None => None,
        };
        let result = self.recall_with_vector(&deep, vector.as_ref().map(|(m, v)| (m, v.as_slice())))?;
        let position = result.results.iter().position(|h| h.memory.id == *id).map(|p| p + 1);
        let stood_in_by = result
            .results
            .iter()
            .find(|h| h.explain.stands_for == Some(*id))
            .map(|h| h.memory.id.to_string());
        // Each channel on its own, filters aside: does the memory match at all?
        let store = self
            .store_for_read(scope)?
            .ok_or_else(|| Error::NotFound { id: id.to_string() })?;
        let open = crate::store::MemoryFilter {
            statuses: vec![memory.status],
            ..Default::default()
        };
        let rank_in = |hits: Vec<crate::model::SearchHit>| {
            hits.iter().position(|h| h.id == *id).map(|p| ChannelScore {
                rank: p + 1,
                score: hits[p].score,
            })
        };
        let bm25 = rank_in(store.search_text(&terms, &open, CHANNEL_DEPTH)?);
        let semantic_unavailable = semantic_unavailable.or_else(|| result.semantic_unavailable.clone());
        let vector = match &vector {
            Some((model, v)) => rank_in(store.search_vector(model, v, &open, CHANNEL_DEPTH)?),
            None => None,
        };
        let time = match result.time_range {
            Some((start, end)) => rank_in(store.search_time(start, end, &open, CHANNEL_DEPTH)?),
            None => None,
        };
        let returned_rank = position.filter(|p| *p <= limit);
        let fused_rank = position.filter(|p| *p > limit);
        let verdict = verdict(&Verdict {
            returned_rank,
            fused_rank,
            limit,
            stood_in_by: stood_in_by.as_deref(),
            filters: &filters,
            any_channel: bm25.is_some() || vector.is_some() || time.is_some(),
            candidates: cfg.candidates,
            bm25,
            vector,
        });
        Ok(QueryExplanation {
            id: id.to_string(),
            query: query.query.clone(),
            terms,
            returned_rank,
            limit,
            fused_rank,
            stood_in_by,
            bm25,
            vector,
            time,
            candidates: cfg.candidates,
            semantic_unavailable,
            filters,
            verdict,
        })
    }
}

/// Each filter the recall applies, checked against the memory.
fn filter_checks(
    m: &Memory,
    scope: ScopeKind,
    q: &RecallQuery,
    mode: crate::config::RetrievalMode,
) -> Vec<FilterCheck> {
    use crate::config::RetrievalMode;
    let f = &q.filter;
    let mut out = Vec::new();
    let statuses: Vec<Status> = if !f.statuses.is_empty() {
        f.statuses.clone()
    } else if mode == RetrievalMode::Exhaustive {
        Vec::new()
    } else {
        vec![Status::Active, Status::Superseded]
    };
    let status_ok = if statuses.is_empty() {
        f.admits(m)
    } else {
        statuses.contains(&m.current_status())
    };
    out.push(FilterCheck {
        filter: "status",
        passes: status_ok,
        detail: match m.status {
            Status::Quarantined => {
                "quarantined: held back until a user releases it (`subcog review --quarantined`)".into()
            }
            Status::Deleted => "deleted".into(),
            Status::Archived if !status_ok => {
                "archived: only an exhaustive recall (`--mode exhaustive`) finds it".into()
            }
            s => format!("{s}"),
        },
    });
    let tiers: Vec<Tier> = if f.tiers.is_empty() {
        mode.tiers().to_vec()
    } else {
        f.tiers.clone()
    };
    let tier_ok = tiers.contains(&m.tier);
    out.push(FilterCheck {
        filter: "tier",
        passes: tier_ok,
        detail: if tier_ok {
            format!("{} is searched by mode {}", m.tier, format!("{mode:?}").to_lowercase())
        } else if !f.tiers.is_empty() {
            format!(
                "{} is not among the tiers asked for ({})",
                m.tier,
                tiers.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            )
        } else {
            format!(
                "{} is not among the tiers searched ({}); a deeper mode (`--mode deep` or `exhaustive`) reaches it",
                m.tier,
                tiers.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            )
        },
    });
    if !f.namespaces.is_empty() {
        let ok = f.namespaces.contains(&m.namespace);
        out.push(FilterCheck {
            filter: "namespace",
            passes: ok,
            detail: format!(
                "{} {} the namespaces asked for",
                m.namespace,
                if ok { "is among" } else { "is not among" }
            ),
        });
    }
    if !f.domains.is_empty() {
        let ok = f.domains.contains(&m.domain);
        out.push(FilterCheck {
            filter: "domain",
            passes: ok,
            detail: format!("{} ({} scope)", m.domain, scope.as_str()),
        });
    }
    if !f.tags.is_empty() {
        let missing: Vec<&String> = f.tags.iter().filter(|t| !m.tags.contains(t)).collect();
        out.push(FilterCheck {
            filter: "tags",
            passes: missing.is_empty(),
            detail: if missing.is_empty() {
                "has every tag asked for".into()
            } else {
                format!(
                    "lacks {}",
                    missing.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
                )
            },
        });
    }
    if let Some(since) = f.since {
        out.push(FilterCheck {
            filter: "since",
            passes: m.created_at >= since,
            detail: format!("created {}", m.created_at.to_rfc3339()),
        });
    }
    if let Some(until) = f.until {
        out.push(FilterCheck {
            filter: "until",
            passes: m.created_at < until,
            detail: format!("created {}", m.created_at.to_rfc3339()),
        });
    }
    out
}

struct Verdict<'a> {
    returned_rank: Option<usize>,
    fused_rank: Option<usize>,
    limit: usize,
    stood_in_by: Option<&'a str>,
    filters: &'a [FilterCheck],
    any_channel: bool,
    candidates: usize,
    bm25: Option<ChannelScore>,
    vector: Option<ChannelScore>,
}

fn verdict(v: &Verdict<'_>) -> String {
    if let Some(rank) = v.returned_rank {
        return format!("returned at rank {rank} of {}", v.limit);
    }
    if let Some(by) = v.stood_in_by {
        return format!(
            "not returned itself: it is superseded, and {by}, which replaced it, was returned in its place"
        );
    }
    if let Some(failed) = v.filters.iter().find(|f| !f.passes) {
        return format!("filtered out by {}: {}", failed.filter, failed.detail);
    }
    if let Some(rank) = v.fused_rank {
        return format!("ranked {rank} after fusion, below the limit of {}", v.limit);
    }
    if !v.any_channel {
        return "no channel matched: none of the query's terms is in its text and it is not among the 1000 \
                nearest by meaning"
            .into();
    }
    let best = [v.bm25, v.vector]
        .into_iter()
        .flatten()
        .map(|c| c.rank)
        .min()
        .unwrap_or(usize::MAX);
    if best > v.candidates {
        return format!(
            "matched, but its best channel rank ({best}) is below the {} candidates each channel hands to the fusion",
            v.candidates
        );
    }
    format!(
        "matched, but ranked below the {} results fused",
        v.limit.max(v.candidates)
    )
}
