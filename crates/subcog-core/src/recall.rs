//! Recall: find the memories that answer a query, across the project and user scopes.
//!
//! Hybrid retrieval: a keyword channel (FTS5 BM25), a vector channel (cosine over stored
//! embeddings, when the model is installed) and a time channel (when the query names a
//! date or period) each return their best candidates after filtering; weighted
//! reciprocal-rank fusion combines them. Each result carries every channel's rank and
//! score so scores can be explained. Returned memories are touched (activation count and
//! last access) unless the caller asks not to.

use std::collections::HashMap;

use serde::Serialize;

use crate::config::RetrievalMode;
use crate::error::{Error, Result, ValidationError};
use crate::model::{Memory, MemoryId, SearchHit};
use crate::search::query_terms;
use crate::service::{ScopeKind, Subcog};
use crate::store::{MemoryFilter, Store};
use crate::temporal;

/// A recall request.
#[derive(Debug, Clone, Default)]
pub struct RecallQuery {
    /// The question or keywords.
    pub query: String,
    /// Filters applied before ranking.
    pub filter: MemoryFilter,
    /// How many results; the config's default when `None`.
    pub limit: Option<usize>,
    /// Which tiers to search; the config's default when `None`. Ignored when the filter
    /// names tiers itself.
    pub mode: Option<RetrievalMode>,
    /// Leave activation counts alone (read-only callers, benchmarks, evaluation).
    pub no_touch: bool,
}

/// One channel's view of a result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChannelScore {
    /// 1-based rank within the channel.
    pub rank: usize,
    /// The channel's own score (BM25, cosine, or time closeness).
    pub score: f64,
}

/// How a result was found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Explanation {
    /// Keyword channel.
    pub bm25: Option<ChannelScore>,
    /// Vector channel.
    pub vector: Option<ChannelScore>,
    /// Time channel.
    pub time: Option<ChannelScore>,
    /// Whether a tag named in the query boosted the score.
    pub tag_boost: bool,
    /// The query terms its tags matched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub boost_tags: Vec<String>,
    /// Whether the memory speaks of its writer ("I", "my") for a question about the asker.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub self_boost: bool,
    /// The factor the boosts multiplied the fused score by (1 when none).
    pub boost: f64,
    /// The fused score before the boost.
    pub fused: f64,
    /// Moved up (or pulled in) to sit right above the memory it replaced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed_above: Option<MemoryId>,
    /// Ranked where the superseded memory it replaced matched (that one is filtered out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stands_for: Option<MemoryId>,
}

/// One result.
#[derive(Debug, Clone)]
pub struct RecallHit {
    /// The memory.
    pub memory: Memory,
    /// Fused score (higher is better).
    pub score: f64,
    /// Each channel's rank and score.
    pub explain: Explanation,
}

/// Recall results, best first.
#[derive(Debug, Clone)]
pub struct RecallResult {
    /// The terms the query was reduced to.
    pub terms: Vec<String>,
    /// Matches, best first.
    pub results: Vec<RecallHit>,
    /// Whether the vector channel took part.
    pub semantic: bool,
    /// Why it did not, when it did not.
    pub semantic_unavailable: Option<String>,
    /// The time range the query named, if any.
    pub time_range: Option<(chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>)>,
    /// The memory dating the event a query placed itself against ("before the move").
    pub time_anchor: Option<MemoryId>,
    /// The mode used.
    pub mode: RetrievalMode,
    /// The vector channel's best similarities, best first (up to `recall.candidates`):
    /// the store's background for this query, against which a match stands out.
    pub vector_top: Vec<f64>,
}

/// A candidate of the fusion, before its memory is loaded.
struct Fused {
    /// What the channels know of it.
    hit: SearchHit,
    /// Index of its store in the searched stores.
    store: usize,
    /// Fused score.
    score: f64,
    /// Each channel's rank and score.
    explain: Explanation,
    /// Already loaded (a replacement pulled in by id).
    memory: Option<Memory>,
}

#[derive(Clone, Copy)]
enum Channel {
    Bm25,
    Vector,
    Time,
}

impl Subcog {
    /// Searches every scope the filter allows and fuses the channels.
    pub fn recall(&self, query: &RecallQuery) -> Result<RecallResult> {
        if !self.config.embedding.enabled || query_terms(&query.query).is_empty() {
            return self.search(query, &mut || None);
        }
        // The keyword and time channels search, and the vector index loads, on another
        // thread while this one loads the model (in a fresh process) and embeds the query:
        // for a hook those are most of its time, and they overlap.
        let (send, receive) = std::sync::mpsc::sync_channel(1);
        std::thread::scope(|scope| {
            let search = scope.spawn(move || {
                self.search(query, &mut || {
                    self.prepare_vectors();
                    receive.recv().ok().flatten()
                })
            });
            let (vector, failure) = match self.embedder().map(|e| (e.embed_one(&query.query), e)) {
                Some((Ok(v), embedder)) => (Some((embedder.model().clone(), v)), None),
                // A failed query embedding degrades recall to keywords; it never fails it.
                Some((Err(err), _)) => {
                    tracing::warn!(error = %err, "query embedding failed; keyword recall only");
                    (None, Some(err.to_string()))
                }
                None => (None, None),
            };
            // The search may have ended early (an error); then nobody listens.
            let _ = send.send(vector);
            // A panic in the search goes on as if it had happened on this thread.
            let mut result = search.join().unwrap_or_else(|e| std::panic::resume_unwind(e))?;
            if let Some(why) = failure {
                result.semantic_unavailable = Some(why);
            }
            Ok(result)
        })
    }

    /// Loads the stores' vector indexes unless the embedder is known to be missing (then no
    /// vector search follows). Failures only cost the head start: the search reports them.
    fn prepare_vectors(&self) {
        if self.embedder_known_missing() {
            return;
        }
        let _span = tracing::debug_span!("recall.prepare_vectors").entered();
        for (_, store) in self.existing_stores().unwrap_or_default() {
            if let Err(e) = store.prepare_vectors() {
                tracing::debug!(error = %e, "vector index not loaded ahead");
            }
        }
    }

    /// Builds (or refreshes) the in-memory keyword index of every existing store, for a
    /// long-lived process (the warm daemon, the MCP server): its later keyword searches
    /// skip FTS5's per-row scoring, with the same results. Failures are logged; searches
    /// then use FTS5.
    pub fn prepare_keywords(&self) {
        let _span = tracing::debug_span!("recall.prepare_keywords").entered();
        for (_, store) in self.existing_stores().unwrap_or_default() {
            if let Err(e) = store.prepare_keywords() {
                tracing::warn!(error = %e, "keyword index not built; searching FTS5");
            }
        }
    }

    /// Recall with a query vector computed by the caller (batch evaluation, benchmarks
    /// that exclude embedding time). `None` means keyword and time channels only.
    pub fn recall_with_vector(
        &self,
        query: &RecallQuery,
        vector: Option<(&crate::embed::EmbeddingModel, &[f32])>,
    ) -> Result<RecallResult> {
        self.search(query, &mut || vector.map(|(m, v)| (m.clone(), v.to_vec())))
    }

    /// The search, counted in the metrics; what a recall that touches returns is recorded
    /// in the activity log (for `subcog explain`).
    fn search(
        &self,
        query: &RecallQuery,
        vector: &mut dyn FnMut() -> Option<(crate::embed::EmbeddingModel, Vec<f32>)>,
    ) -> Result<RecallResult> {
        let result = self.search_ranked(query, vector);
        match &result {
            Err(Error::Validation(_)) => {}
            Err(_) => crate::metrics::global().failure("recall.search"),
            Ok(r) if !query.no_touch && !r.results.is_empty() => {
                let at = self.clock.now();
                let records: Vec<crate::activity::ActivityRecord> = r
                    .results
                    .iter()
                    .enumerate()
                    .map(|(i, h)| crate::activity::ActivityRecord {
                        memory_id: h.memory.id.to_string(),
                        kind: crate::activity::ActivityKind::Recalled,
                        at,
                        via: "recall".into(),
                        session: None,
                        query: Some(query.query.clone()),
                        rank: i + 1,
                        score: h.score,
                    })
                    .collect();
                self.record_activity(&records);
            }
            Ok(_) => {}
        }
        result
    }

    /// The search itself; `vector` is asked for the query vector once the keyword and time
    /// channels are done.
    fn search_ranked(
        &self,
        query: &RecallQuery,
        vector: &mut dyn FnMut() -> Option<(crate::embed::EmbeddingModel, Vec<f32>)>,
    ) -> Result<RecallResult> {
        let cfg = &self.config.recall;
        let limit = query.limit.unwrap_or(cfg.default_limit);
        let mode = query.mode.unwrap_or(cfg.default_mode);
        let span = tracing::info_span!(
            "recall.search",
            query_length = query.query.len(),
            mode = ?mode,
            limit,
            result_count = tracing::field::Empty
        );
        let _guard = span.enter();
        let terms = query_terms(&query.query);
        if terms.is_empty() {
            return Err(ValidationError::EmptyQuery.into());
        }
        let mut filter = query.filter.clone();
        if filter.tiers.is_empty() {
            filter.tiers = mode.tiers().to_vec();
        }
        if filter.statuses.is_empty() && mode != RetrievalMode::Exhaustive {
            // Archived memories are kept but leave normal recall (exhaustive finds them).
            filter.statuses = vec![crate::model::Status::Active, crate::model::Status::Superseded];
        }
        let candidates = cfg.candidates.max(limit);
        let wanted = |kind: ScopeKind| {
            filter.domains.is_empty() || filter.domains.iter().any(|d| ScopeKind::for_domain(*d) == kind)
        };

        let mut fused: HashMap<MemoryId, Fused> = HashMap::new();
        let mut add = |channel: Channel, hits: Vec<(usize, SearchHit)>, weight: f64| {
            for (i, (store, hit)) in hits.into_iter().enumerate() {
                let rank = i + 1;
                let cs = Some(ChannelScore { rank, score: hit.score });
                let entry = fused.entry(hit.id).or_insert_with(|| Fused {
                    hit,
                    store,
                    score: 0.0,
                    explain: Explanation::default(),
                    memory: None,
                });
                entry.score += weight / (cfg.rrf_k + rank as f64);
                match channel {
                    Channel::Bm25 => entry.explain.bm25 = cs,
                    Channel::Vector => entry.explain.vector = cs,
                    Channel::Time => entry.explain.time = cs,
                }
            }
        };
        let mut semantic = false;
        let stores: Vec<(ScopeKind, std::sync::Arc<dyn Store>)> = self
            .existing_stores()?
            .into_iter()
            .filter(|(k, _)| wanted(*k))
            .collect();
        let mut time_anchor = None;
        let time_range = match temporal::query_range(&query.query, self.clock.now()) {
            Some(range) => Some(range),
            None => match temporal::relative_event(&query.query) {
                Some((side, phrase)) => {
                    let anchor = event_anchor(&stores, &phrase, &filter)?;
                    time_anchor = anchor.as_ref().map(|(id, _)| *id);
                    anchor.map(|(_, day)| temporal::window(side, day))
                }
                None => None,
            },
        };
        // Each channel's hits from every scope are ranked together, so the best match of a
        // small user store does not get the credit of the best project match.
        let (mut bm25, mut vec_hits, mut time_hits) = (Vec::new(), Vec::new(), Vec::new());
        // Replacements standing in for superseded memories the filter hides: new id -> old.
        let mut stood_in: HashMap<MemoryId, MemoryId> = HashMap::new();
        for (i, (_, store)) in stores.iter().enumerate() {
            bm25.extend(
                store
                    .search_text(&terms, &filter, candidates)?
                    .into_iter()
                    .map(|h| (i, h)),
            );
            if let Some((start, end)) = time_range {
                time_hits.extend(
                    store
                        .search_time(start, end, &filter, candidates)?
                        .into_iter()
                        .map(|h| (i, h)),
                );
            }
        }
        let vector = vector();
        if let Some((model, v)) = &vector {
            let _s = tracing::debug_span!("recall.vector").entered();
            for (i, (_, store)) in stores.iter().enumerate() {
                vec_hits.extend(
                    store
                        .search_vector(model, v, &filter, candidates)?
                        .into_iter()
                        .map(|h| (i, h)),
                );
                semantic = true;
            }
        }
        let mut vector_top: Vec<f64> = vec_hits.iter().map(|(_, h)| h.score).collect();
        vector_top.sort_by(|a, b| b.total_cmp(a));
        vector_top.truncate(candidates);
        if mode != RetrievalMode::Exhaustive {
            // A question about the old fact ("where does the user live?" matching "I just
            // moved to Austin", now superseded and archived) is answered by the fact that
            // replaced it: the replacement takes the superseded memory's place in each channel.
            let mut relaxed = filter.clone();
            relaxed.tiers.clear();
            relaxed.statuses.clear();
            let mut old_bm25 = Vec::new();
            let mut old_vec = Vec::new();
            for (i, (_, store)) in stores.iter().enumerate() {
                old_bm25.extend(
                    store
                        .search_text(&terms, &relaxed, STAND_IN)?
                        .into_iter()
                        .map(|h| (i, h)),
                );
                if let Some((model, v)) = &vector {
                    old_vec.extend(
                        store
                            .search_vector(model, v, &relaxed, STAND_IN)?
                            .into_iter()
                            .map(|h| (i, h)),
                    );
                }
            }
            stand_in(&mut bm25, old_bm25, &stores, &filter, &mut stood_in)?;
            stand_in(&mut vec_hits, old_vec, &stores, &filter, &mut stood_in)?;
        }
        for (channel, mut hits, weight) in [
            (Channel::Bm25, bm25, cfg.bm25_weight),
            (Channel::Vector, vec_hits, cfg.vector_weight),
            (Channel::Time, time_hits, cfg.time_weight),
        ] {
            hits.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
            hits.truncate(candidates);
            add(channel, hits, weight);
        }
        let mut ranked: Vec<Fused> = fused.into_values().collect();
        let query_entities = if cfg.entity_boost {
            crate::entities::names::named_in(&query.query)
        } else {
            Vec::new()
        };
        for f in &mut ranked {
            f.explain.stands_for = stood_in.get(&f.hit.id).copied();
            f.explain.fused = f.score;
            f.explain.boost = 1.0;
            // A tag the query names, or an entity its text names (a speaker, a person, a
            // service) that the query names as an entity too: "What did Caroline say?"
            // names Caroline, "a photography setup" names nobody.
            let mut matched: Vec<String> = terms.iter().filter(|t| f.hit.tags.contains(t)).cloned().collect();
            // Read only when the query names an entity (most do not), and only from the
            // fused candidates.
            for e in &query_entities {
                if !matched.contains(e) && crate::entities::names::names(&f.hit.content, e) {
                    matched.push(e.clone());
                }
            }
            if cfg.tag_boost != 0.0 && !matched.is_empty() {
                f.explain.boost = 1.0 + cfg.tag_boost;
                f.score *= f.explain.boost;
                f.explain.tag_boost = true;
                f.explain.boost_tags = matched;
            }
        }
        // A question about the asker ("my photography setup") is answered by what the asker
        // said of themselves, not by advice written to them (docs/EVALUATION.md).
        if cfg.self_boost != 0.0 && crate::perspective::asks_about_self(&query.query) {
            for f in &mut ranked {
                let p = crate::perspective::Persons::of(&f.hit.content);
                if p.first > 0 && p.first >= p.second {
                    f.score *= 1.0 + cfg.self_boost;
                    f.explain.boost *= 1.0 + cfg.self_boost;
                    f.explain.self_boost = true;
                }
            }
        }
        cap_boosts(&mut ranked);
        ranked.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| b.hit.created_at.cmp(&a.hit.created_at))
                .then_with(|| a.hit.id.cmp(&b.hit.id))
        });
        place_replacements(&mut ranked, &stores, &filter)?;
        ranked.truncate(limit);
        let results = load_memories(ranked, &stores)?;
        span.record("result_count", results.len());

        if !query.no_touch && !results.is_empty() {
            let _s = tracing::info_span!("recall.increment_activation", count = results.len()).entered();
            let now = self.clock.now();
            for (kind, store) in &stores {
                let ids: Vec<MemoryId> = results
                    .iter()
                    .filter(|h| ScopeKind::for_domain(h.memory.domain) == *kind)
                    .map(|h| h.memory.id)
                    .collect();
                // Activation is a hint for ranking; a busy store must not fail the recall.
                if let Err(e) = store.touch(&ids, now) {
                    tracing::warn!(error = %e, "could not record activation");
                }
            }
        }
        let semantic_unavailable = if vector.is_none() {
            Some(match self.embedder_state() {
                crate::service::EmbedderState::Unavailable(why) => why.clone(),
                crate::service::EmbedderState::Ready(_) => "no query vector".into(),
            })
        } else {
            None
        };
        Ok(RecallResult {
            terms,
            results,
            semantic,
            semantic_unavailable,
            time_range,
            time_anchor,
            mode,
            vector_top,
        })
    }
}

/// Superseded memories each channel finds when the filter is relaxed (looked at per query).
const STAND_IN: usize = 5;

/// Puts each replacement where its superseded memory matched in a channel, when the filter
/// hides that memory (archived, superseded) and lets the replacement through: a replacement
/// already found keeps the better of the two scores.
fn stand_in(
    hits: &mut Vec<(usize, SearchHit)>,
    relaxed: Vec<(usize, SearchHit)>,
    stores: &[(ScopeKind, std::sync::Arc<dyn Store>)],
    filter: &MemoryFilter,
    stood_in: &mut HashMap<MemoryId, MemoryId>,
) -> Result<()> {
    for (k, old) in relaxed {
        let Some(newer) = old.superseded_by else { continue };
        if hits.iter().any(|(_, h)| h.id == old.id) {
            continue;
        }
        if let Some((_, h)) = hits.iter_mut().find(|(_, h)| h.id == newer) {
            if old.score > h.score {
                h.score = old.score;
                stood_in.insert(newer, old.id);
            }
            continue;
        }
        let Some((_, store)) = stores.get(k) else { continue };
        let Some(m) = store.get(&newer)? else { continue };
        let passes = m.is_live()
            && (filter.tiers.is_empty() || filter.tiers.contains(&m.tier))
            && filter.admits(&m)
            && (filter.namespaces.is_empty() || filter.namespaces.contains(&m.namespace))
            && (filter.domains.is_empty() || filter.domains.contains(&m.domain));
        if !passes {
            continue;
        }
        stood_in.insert(newer, old.id);
        hits.push((
            k,
            SearchHit {
                id: m.id,
                score: old.score,
                created_at: m.created_at,
                tags: m.tags.clone(),
                content: m.content.clone(),
                superseded_by: m.superseded_by,
            },
        ));
    }
    Ok(())
}

/// A tag boost never lifts a memory above the one that both the keyword and the vector
/// channel rank first: "how many retries does the flaky upload test need?" must not put a
/// note tagged `upload` (second by keywords and by meaning) above "The flaky upload test
/// needs two retries" (first in both). Below that unanimous best it breaks near-ties as
/// before (measured on LoCoMo: recall@5 and @10 unchanged, docs/EVALUATION.md).
fn cap_boosts(ranked: &mut [Fused]) {
    let first_in_both = |e: &Explanation| e.bm25.is_some_and(|c| c.rank == 1) && e.vector.is_some_and(|c| c.rank == 1);
    let Some(cap) = ranked
        .iter()
        .find(|f| !f.explain.tag_boost && first_in_both(&f.explain))
        .map(|f| f.score)
    else {
        return;
    };
    for f in ranked.iter_mut().filter(|f| f.explain.tag_boost && f.score >= cap) {
        f.score = cap * (1.0 - 1e-9);
        f.explain.boost = f.score / f.explain.fused.max(f64::MIN_POSITIVE);
    }
}

/// The memory that best matches the words naming an event ("the move") and its date: the
/// first confident reference in it, else when it was captured.
fn event_anchor(
    stores: &[(ScopeKind, std::sync::Arc<dyn Store>)],
    phrase: &str,
    filter: &MemoryFilter,
) -> Result<Option<(MemoryId, chrono::NaiveDate)>> {
    let terms = query_terms(phrase);
    if terms.is_empty() {
        return Ok(None);
    }
    let mut best: Option<(usize, SearchHit)> = None;
    for (i, (_, store)) in stores.iter().enumerate() {
        for hit in store.search_text(&terms, filter, 1)? {
            if best.as_ref().is_none_or(|(_, b)| hit.score > b.score) {
                best = Some((i, hit));
            }
        }
    }
    let Some((i, hit)) = best else {
        return Ok(None);
    };
    let Some(m) = stores.get(i).map(|(_, s)| s.get(&hit.id)).transpose()?.flatten() else {
        return Ok(None);
    };
    let day = m
        .time_refs
        .iter()
        .filter(|r| r.confidence >= 0.5)
        .find_map(|r| r.start)
        .unwrap_or_else(|| m.created_at.date_naive());
    Ok(Some((m.id, day)))
}

/// Puts each superseded memory right below the memory that replaced it: the replacement is
/// moved up, or pulled in when the query did not find it (if it passes the filters), so the
/// current answer always comes first.
fn place_replacements(
    results: &mut Vec<Fused>,
    stores: &[(ScopeKind, std::sync::Arc<dyn Store>)],
    filter: &MemoryFilter,
) -> Result<()> {
    let passes = |m: &Memory| {
        m.is_live()
            && (filter.tiers.is_empty() || filter.tiers.contains(&m.tier))
            && filter.admits(m)
            && (filter.namespaces.is_empty() || filter.namespaces.contains(&m.namespace))
            && (filter.domains.is_empty() || filter.domains.contains(&m.domain))
    };
    let mut i = 0;
    let mut moves = 0;
    while i < results.len() && moves < 4 * results.len() + 8 {
        let Some(newer) = results[i].hit.superseded_by else {
            i += 1;
            continue;
        };
        match results.iter().position(|f| f.hit.id == newer) {
            Some(j) if j > i => {
                let mut f = results.remove(j);
                f.score = f.score.max(results[i].score);
                f.explain.placed_above = Some(results[i].hit.id);
                results.insert(i, f);
                moves += 1;
                continue;
            }
            Some(_) => {}
            None => {
                let mut found = None;
                for (k, (_, store)) in stores.iter().enumerate() {
                    if let Some(m) = store.get(&newer)? {
                        found = Some((k, m));
                        break;
                    }
                }
                if let Some((store, m)) = found.filter(|(_, m)| passes(m)) {
                    let score = results[i].score;
                    let replaced = results[i].hit.id;
                    let hit = SearchHit {
                        id: m.id,
                        score: 0.0,
                        created_at: m.created_at,
                        tags: m.tags.clone(),
                        content: m.content.clone(),
                        superseded_by: m.superseded_by,
                    };
                    results.insert(
                        i,
                        Fused {
                            hit,
                            store,
                            score,
                            explain: Explanation {
                                placed_above: Some(replaced),
                                boost: 1.0,
                                ..Default::default()
                            },
                            memory: Some(m),
                        },
                    );
                    moves += 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    Ok(())
}

/// Loads the memories of the final results (one query per store), keeping their order; a
/// memory deleted since the search is left out.
fn load_memories(ranked: Vec<Fused>, stores: &[(ScopeKind, std::sync::Arc<dyn Store>)]) -> Result<Vec<RecallHit>> {
    let _span = tracing::debug_span!("recall.load", count = ranked.len()).entered();
    let mut loaded: HashMap<MemoryId, Memory> = HashMap::new();
    for (k, (_, store)) in stores.iter().enumerate() {
        let ids: Vec<MemoryId> = ranked
            .iter()
            .filter(|f| f.store == k && f.memory.is_none())
            .map(|f| f.hit.id)
            .collect();
        if !ids.is_empty() {
            loaded.extend(store.get_many(&ids)?.into_iter().map(|m| (m.id, m)));
        }
    }
    Ok(ranked
        .into_iter()
        .filter_map(|f| {
            let memory = f.memory.or_else(|| loaded.remove(&f.hit.id))?;
            Some(RecallHit {
                memory,
                score: f.score,
                explain: f.explain,
            })
        })
        .collect())
}
