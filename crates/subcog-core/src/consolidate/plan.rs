//! Computing a run: every stage as a pure step from the stored state to a [`ScopePlan`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::cluster::cluster;
use super::edges::{EdgeInput, extract};
use super::supersede::{self, Idf, Pair, Reading, has_marker, judge_pair};
use super::terms::salient;
use super::{ConsolidateOptions, StageProgress, llm_stages, rules, summarize};
use crate::embed::{EmbeddingModel, dot};
use crate::error::Result;
use crate::llm::prompts::{SUMMARY_VERSION, SUPERSESSION_VERSION};
use crate::model::{
    ConsolidationResult, Domain, LlmRun, Memory, MemoryEdge, MemoryId, MemorySummary, Phase, RetentionScore, RunAction,
    Status, Supersession, SupersessionKind, Tier, TierTransition,
};
use crate::retention::{Retention, is_pinned};
use crate::service::{EmbedderState, ScopeKind, Subcog};
use crate::store::{ConsolidationWrite, ListOrder, MemoryFilter, Store};

/// Everything one run will write to one scope; saved before it is applied.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScopePlan {
    /// The run's result (completed when applied).
    pub result: ConsolidationResult,
    /// The index writes (mirrored to the notes when applied).
    pub write: ConsolidationWrite,
    /// Copies of project patterns for the user scope.
    pub promotions: Vec<Memory>,
}

/// Scores are stored to three decimals, so a rerun at the same moment changes nothing and
/// tiny drifts do not rewrite every memory.
fn round3(x: f32) -> f32 {
    (x * 1000.0).round() / 1000.0
}

fn rounded(r: RetentionScore) -> RetentionScore {
    RetentionScore {
        overall: round3(r.overall),
        recency: round3(r.recency),
        activation: round3(r.activation),
        importance: round3(r.importance),
        supersession_penalty: round3(r.supersession_penalty),
    }
}

/// A summary without the fields that change on every write, for comparison.
fn content_of(s: &MemorySummary) -> MemorySummary {
    let mut c = s.clone();
    c.run_id = String::new();
    c.created_at = DateTime::<Utc>::MIN_UTC;
    c.updated_at = DateTime::<Utc>::MIN_UTC;
    c
}

impl Subcog {
    /// The embedding model whose stored vectors clustering uses: the installed model, else
    /// the model with the most stored vectors.
    fn vector_model(&self, store: &dyn Store) -> Result<Option<EmbeddingModel>> {
        if let EmbedderState::Ready(e) = self.embedder_state() {
            return Ok(Some(e.model().clone()));
        }
        Ok(store
            .embedding_counts()?
            .into_iter()
            .max_by_key(|c| c.count)
            .map(|c| EmbeddingModel {
                id: c.model_id,
                dim: c.dim,
            }))
    }

    /// Runs every stage for one scope and returns what to write.
    pub(crate) fn plan_scope(
        &self,
        scope: ScopeKind,
        opts: &ConsolidateOptions,
        now: DateTime<Utc>,
        progress: StageProgress<'_>,
        chain: Option<&crate::llm::chain::Chain>,
    ) -> Result<ScopePlan> {
        let cfg = &self.config.consolidation;
        let store = self.store_for_write(scope)?;
        let run_id = format!("run_{}", MemoryId::at(now));
        let mut stage_ms: Vec<(String, u64)> = Vec::new();
        let mut clock = Instant::now();
        let mut lap = |name: &str, stage_ms: &mut Vec<(String, u64)>| {
            stage_ms.push((name.to_string(), clock.elapsed().as_millis() as u64));
            clock = Instant::now();
        };

        // 1. scan
        let span = tracing::info_span!("consolidation.scan").entered();
        progress(Phase::Scan, 0, 1);
        let filter = MemoryFilter {
            statuses: vec![Status::Active, Status::Superseded, Status::Archived],
            namespaces: opts.namespaces.clone(),
            since: opts.since,
            until: opts.until,
            ..Default::default()
        };
        let memories = store.list(&filter, ListOrder::OldestFirst, None)?;
        let ms: Vec<&Memory> = memories.iter().collect();
        let model = self.vector_model(&*store)?;
        let mut vectors: HashMap<MemoryId, Vec<f32>> = match &model {
            Some(m) => store.vectors(m)?.into_iter().collect(),
            None => HashMap::new(),
        };
        let in_scan: std::collections::HashSet<MemoryId> = memories.iter().map(|m| m.id).collect();
        vectors.retain(|id, _| in_scan.contains(id));
        let scan_ids: BTreeSet<String> = ms.iter().map(|m| m.id.to_string()).collect();
        // A scoped run (namespace or dates) sees part of the picture: clusters, summaries
        // and links to memories outside it are left as they are.
        let scoped = opts.scoped();
        let vec_of: Vec<Option<&[f32]>> = ms.iter().map(|m| vectors.get(&m.id).map(Vec::as_slice)).collect();
        let terms: Vec<BTreeSet<String>> = ms.iter().map(|m| salient(&m.content)).collect();
        let mut df: HashMap<&str, usize> = HashMap::new();
        for t in &terms {
            for w in t {
                *df.entry(w.as_str()).or_default() += 1;
            }
        }
        // A word used by at most 5 memories, or 5 % of them, identifies a topic.
        let distinct_max = (ms.len() / 20).max(5);
        let distinctive = |w: &str| df.get(w).copied().unwrap_or(0) <= distinct_max;
        progress(Phase::Scan, 1, 1);
        drop(span);
        lap("scan", &mut stage_ms);

        // 2. cluster
        let span = tracing::info_span!("consolidation.cluster", memories = ms.len()).entered();
        progress(Phase::Cluster, 0, 1);
        let with: Vec<usize> = (0..ms.len()).filter(|&i| vec_of[i].is_some()).collect();
        let with_vecs: Vec<&[f32]> = with.iter().filter_map(|&i| vec_of[i]).collect();
        let with_ids: Vec<String> = with.iter().map(|&i| ms[i].id.to_string()).collect();
        // Pairs below 0.5 are never used, and keeping them would cost memory.
        let near_threshold = cfg.merge_similarity.min(cfg.relates_to_similarity).max(0.5);
        let (clusters, near_local) = cluster(
            &with_vecs,
            &with_ids,
            cfg.cluster_threshold,
            cfg.min_cluster_size,
            cfg.max_cluster_size.max(cfg.min_cluster_size),
            near_threshold,
        );
        let clusters: Vec<(String, Vec<usize>, f32)> = if scoped {
            Vec::new()
        } else {
            clusters
                .into_iter()
                .map(|c| (c.id, c.members.into_iter().map(|k| with[k]).collect(), c.coherence))
                .collect()
        };
        let near: Vec<(usize, usize, f32)> = near_local.into_iter().map(|(a, b, s)| (with[a], with[b], s)).collect();
        let mut cluster_of: Vec<Option<usize>> = vec![None; ms.len()];
        for (k, (_, members, _)) in clusters.iter().enumerate() {
            for &i in members {
                cluster_of[i] = Some(k);
            }
        }
        progress(Phase::Cluster, 1, 1);
        drop(span);
        lap("cluster", &mut stage_ms);

        // 4 before 3: summaries name the superseded facts, so supersession comes first.
        let span = tracing::info_span!("consolidation.supersession").entered();
        let sim = |i: usize, j: usize| match (vec_of[i], vec_of[j]) {
            (Some(a), Some(b)) => dot(a, b),
            _ => super::terms::jaccard(&terms[i], &terms[j]),
        };
        let mut best: BTreeMap<usize, (usize, super::supersede::Verdict)> = BTreeMap::new();
        // Pairs the offline judgement was unsure of: an LLM, when there is one, decides.
        let mut ambiguous: Vec<(usize, usize)> = Vec::new();
        if cfg.enable_supersession {
            // Same namespace: each memory against its closest older ones (see `supersede`).
            let readings: Vec<Reading> = ms.iter().map(|m| Reading::of(m)).collect();
            let idf = Idf::new(readings.iter().map(|r| &r.words));
            let neighbours = supersede::neighbours(
                &ms,
                &vec_of,
                &readings,
                cfg.supersession_similarity,
                supersede::CANDIDATES,
            );
            // A supersession the user undid is never made again.
            let refused = |newer: usize, older: usize| ms[older].not_superseded_by.contains(&ms[newer].id);
            for judged in supersede::judge_all(
                &ms,
                &neighbours,
                &readings,
                &idf,
                cfg.supersession_min_evidence,
                &refused,
            ) {
                progress(Phase::Supersession, judged.newer, ms.len());
                if let Some(c) = judged.chosen.and_then(|k| judged.candidates.get(k)) {
                    best.insert(c.older, (judged.newer, supersede::verdict(c, ms[judged.newer])));
                } else if let Some(c) = judged
                    .candidates
                    .iter()
                    .filter(|c| c.ambiguous())
                    .max_by(|a, b| a.score.total_cmp(&b.score))
                {
                    ambiguous.push((judged.newer, c.older));
                }
            }
        }
        // Across namespaces the marker heuristic finds contradictions (edges only).
        let mut contradictions: Vec<(usize, usize, String)> = Vec::new();
        let marked: Vec<usize> = (0..ms.len()).filter(|&i| has_marker(&ms[i].content)).collect();
        // Who uses each topic word: a pair must share a word, so only those are compared.
        let mut postings: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in terms.iter().enumerate() {
            for w in t {
                postings.entry(w.as_str()).or_default().push(i);
            }
        }
        let marked: Vec<usize> = if cfg.enable_supersession { marked } else { Vec::new() };
        for &i in &marked {
            let mut candidates: BTreeSet<usize> = BTreeSet::new();
            for w in &terms[i] {
                if distinctive(w) {
                    candidates.extend(postings.get(w.as_str()).into_iter().flatten().copied());
                }
            }
            for j in candidates {
                if i == j
                    || ms[j].namespace == ms[i].namespace
                    || ms[j].domain != ms[i].domain
                    || (ms[j].created_at, ms[j].id) >= (ms[i].created_at, ms[i].id)
                    || terms[i].is_disjoint(&terms[j])
                {
                    continue;
                }
                let similarity = sim(i, j);
                let same_cluster = cluster_of[i].is_some() && cluster_of[i] == cluster_of[j];
                let pair = Pair {
                    newer: ms[i],
                    older: ms[j],
                    new_terms: &terms[i],
                    old_terms: &terms[j],
                    similarity,
                    same_cluster,
                    distinctive: &distinctive,
                };
                if similarity >= cfg.supersession_similarity.max(0.5)
                    && let Some(v) = judge_pair(&pair, cfg.supersession_similarity, true)
                    && v.kind == SupersessionKind::Full
                {
                    contradictions.push((i, j, format!("{} (different namespaces)", v.reason)));
                }
            }
        }
        // An LLM, when there is one, judges the candidate pairs: the heuristic's finds and
        // close cluster mates. Its verdict replaces the heuristic's; a failed call keeps it.
        let mut llm_run = chain.as_ref().map(|c| LlmRun {
            providers: llm_stages::describe(c),
            prompt_versions: vec![SUPERSESSION_VERSION.into(), SUMMARY_VERSION.into()],
            ..Default::default()
        });
        let llm_methods: BTreeMap<usize, String> = match (&chain, &mut llm_run) {
            (Some(chain), Some(run)) if cfg.enable_supersession => {
                let workers = self.config.llm.concurrency;
                llm_stages::refine_supersessions(
                    chain,
                    &ms,
                    &clusters,
                    llm_stages::OfflineFinds {
                        best: &mut best,
                        ambiguous: &ambiguous,
                    },
                    &sim,
                    workers,
                    run,
                )
            }
            _ => BTreeMap::new(),
        };
        let merges = rules::merges(
            &ms,
            &|a, b| Some(sim(a, b)),
            &near.iter().map(|&(a, b, _)| (a, b)).collect::<Vec<_>>(),
            cfg,
            now,
        );
        let mut supersessions: Vec<(usize, usize, Supersession)> = best
            .into_iter()
            .map(|(older, (newer, v))| {
                let s = Supersession {
                    superseder_id: ms[newer].id.to_string(),
                    superseded_id: ms[older].id.to_string(),
                    kind: v.kind,
                    confidence: round3(v.confidence),
                    reason: v.reason,
                    method: llm_methods.get(&older).cloned().unwrap_or_else(|| "heuristic".into()),
                };
                (newer, older, s)
            })
            .collect();
        let mut actions: Vec<RunAction> = Vec::new();
        let mut merged_into: BTreeMap<usize, usize> = BTreeMap::new();
        for &(newer, older, similarity) in &merges {
            merged_into.insert(older, newer);
            actions.push(RunAction {
                action: "merge".into(),
                memory_ids: vec![ms[newer].id.to_string(), ms[older].id.to_string()],
                reason: format!("near-duplicate (similarity {similarity:.2}); kept the newer"),
            });
            if supersessions.iter().any(|(_, o, _)| *o == older) {
                continue;
            }
            supersessions.push((
                newer,
                older,
                Supersession {
                    superseder_id: ms[newer].id.to_string(),
                    superseded_id: ms[older].id.to_string(),
                    kind: SupersessionKind::Full,
                    confidence: round3(similarity),
                    reason: format!("near-duplicate merged into the newer memory (similarity {similarity:.2})"),
                    method: "merge".into(),
                },
            ));
        }
        supersessions.sort_by(|a, b| a.2.superseded_id.cmp(&b.2.superseded_id));
        for (newer, older, s) in &supersessions {
            if s.method != "merge" {
                actions.push(RunAction {
                    action: "supersede".into(),
                    memory_ids: vec![ms[*newer].id.to_string(), ms[*older].id.to_string()],
                    reason: format!("{}: {}", s.kind, s.reason),
                });
            }
        }
        drop(span);
        lap("supersede", &mut stage_ms);

        // 3. summarize
        let span = tracing::info_span!("consolidation.summarize", clusters = clusters.len()).entered();
        let existing: BTreeMap<String, MemorySummary> =
            store.summaries()?.into_iter().map(|s| (s.id.clone(), s)).collect();
        let mut summaries: Vec<MemorySummary> = Vec::new();
        let mut written: Vec<MemorySummary> = Vec::new();
        for (k, (cluster_id, members, coherence)) in clusters.iter().enumerate() {
            progress(Phase::Summarize, k, clusters.len());
            let member_refs: Vec<&Memory> = members.iter().map(|&i| ms[i]).collect();
            let member_vecs: Vec<&[f32]> = members.iter().filter_map(|&i| vec_of[i]).collect();
            let inside: Vec<Supersession> = supersessions
                .iter()
                .filter(|(n, o, _)| members.contains(n) && members.contains(o))
                .map(|(_, _, s)| s.clone())
                .collect();
            let Some(mut s) = summarize::summarize(
                cluster_id,
                &member_refs,
                &member_vecs,
                &inside,
                *coherence,
                &run_id,
                now,
            ) else {
                continue;
            };
            let unchanged_llm = |old: &MemorySummary| {
                old.method != "extractive"
                    && old.source_ids == s.source_ids
                    && member_refs.iter().all(|m| m.updated_at <= old.updated_at)
            };
            match existing.get(&s.id) {
                Some(old) if !opts.full && (content_of(old) == content_of(&s) || unchanged_llm(old)) => {
                    summaries.push(old.clone())
                }
                Some(old) => {
                    s.created_at = old.created_at;
                    written.push(s.clone());
                    summaries.push(s);
                }
                None => {
                    written.push(s.clone());
                    summaries.push(s);
                }
            }
        }
        if let (Some(chain), Some(run)) = (&chain, &mut llm_run) {
            let budget = u32::try_from(cfg.summary_token_budget).unwrap_or(u32::MAX);
            let workers = self.config.llm.concurrency;
            llm_stages::rewrite_summaries(chain, &ms, &mut written, &mut summaries, budget, workers, run);
        }
        let kept: BTreeSet<&String> = summaries.iter().map(|s| &s.id).collect();
        let removed_summaries: Vec<String> = existing
            .values()
            .filter(|s| !scoped && !kept.contains(&s.id))
            .map(|s| s.id.clone())
            .collect();
        for s in &written {
            actions.push(RunAction {
                action: "summary".into(),
                memory_ids: s.source_ids.clone(),
                reason: format!("\"{}\" ({} memories)", s.title, s.source_ids.len()),
            });
        }
        drop(span);
        lap("summarize", &mut stage_ms);

        // 5. tier
        let span = tracing::info_span!("consolidation.tier").entered();
        let retention = Retention::new(&self.config.retention);
        let superseded: BTreeMap<usize, (usize, SupersessionKind)> =
            supersessions.iter().map(|(n, o, s)| (*o, (*n, s.kind))).collect();
        // In a scoped run, a replacement outside the scope still stands.
        let mut carried: BTreeMap<usize, (MemoryId, SupersessionKind)> = BTreeMap::new();
        if scoped {
            let kinds: HashMap<String, SupersessionKind> = store
                .supersessions()?
                .into_iter()
                .map(|s| (s.superseded_id, s.kind))
                .collect();
            for (i, m) in ms.iter().enumerate() {
                if let Some(newer) = m.superseded_by
                    && !in_scan.contains(&newer)
                    && !superseded.contains_key(&i)
                {
                    let kind = kinds.get(&m.id.to_string()).copied().unwrap_or(SupersessionKind::Full);
                    carried.insert(i, (newer, kind));
                }
            }
        }
        let mut enrichment: Vec<Memory> = Vec::new();
        let mut transitions: Vec<TierTransition> = Vec::new();
        let compute = tracing::info_span!("retention.compute", memories = ms.len()).entered();
        for (i, m) in ms.iter().enumerate() {
            progress(Phase::Tier, i, ms.len());
            let kind = superseded
                .get(&i)
                .map(|(_, k)| *k)
                .or_else(|| carried.get(&i).map(|(_, k)| *k));
            let score = rounded(retention.score(m, kind, now));
            let pinned = is_pinned(m);
            let mut tier = retention.tier(score.overall, pinned);
            let mut reason = format!("retention score {:.3}", score.overall);
            if let Some(k) = kind {
                reason = format!("{k} supersession; retention score {:.3}", score.overall);
            }
            if let Some(&keeper) = merged_into.get(&i) {
                tier = Tier::Archived;
                reason = format!("merged into {}", ms[keeper].id);
            } else if tier == Tier::Cold
                && let Some(why) = rules::stale(m, cfg, now)
            {
                // Only memories already COLD by their score are archived as stale: an
                // important learning nobody recalled yet stays WARM.
                tier = Tier::Archived;
                reason = why.clone();
                if m.tier != Tier::Archived {
                    actions.push(RunAction {
                        action: "archive".into(),
                        memory_ids: vec![m.id.to_string()],
                        reason: why,
                    });
                }
            }
            if pinned && tier.rank() > Tier::Warm.rank() {
                tier = Tier::Warm;
                reason.push_str("; pinned, kept WARM");
            }
            let mut next = (*m).clone();
            next.tier = tier;
            next.retention = score;
            next.superseded_by = superseded
                .get(&i)
                .map(|(n, _)| ms[*n].id)
                .or_else(|| carried.get(&i).map(|(n, _)| *n));
            if !scoped {
                next.cluster_id = cluster_of[i].map(|k| clusters[k].0.clone());
            }
            if next.tier != m.tier {
                transitions.push(TierTransition {
                    memory_id: m.id.to_string(),
                    from_tier: m.tier,
                    to_tier: next.tier,
                    reason,
                    retention_score: score.overall,
                });
            }
            if next.tier != m.tier
                || next.retention != m.retention
                || next.superseded_by != m.superseded_by
                || next.cluster_id != m.cluster_id
            {
                enrichment.push(next);
            }
        }
        drop(compute);
        drop(span);
        lap("tier", &mut stage_ms);

        // 6. edges
        let span = tracing::info_span!("consolidation.edges").entered();
        progress(Phase::Edges, 0, 1);
        let plain: Vec<Supersession> = supersessions.iter().map(|(_, _, s)| s.clone()).collect();
        let mut edges = extract(&EdgeInput {
            memories: &ms,
            near: &near,
            supersessions: &plain,
            summaries: &summaries,
            contradictions: &contradictions,
            relates_to: cfg.relates_to_similarity,
            run_id: &run_id,
        });

        // With an LLM, memories that state a relation get it named and resolved.
        if let (Some(chain), Some(run)) = (&chain, &mut llm_run)
            && cfg.enable_edge_extraction
        {
            let context = llm_stages::EdgeContext {
                memories: &ms,
                vectors: &vec_of,
                terms: &terms,
                embedder: self.embedder(),
                run_id: &run_id,
                workers: self.config.llm.concurrency,
            };
            llm_stages::add_edges(chain, &context, &mut edges, run);
        }
        if let (Some(chain), Some(run)) = (&chain, &mut llm_run) {
            run.usage = chain.usage().report();
        }

        // Rule edits: tag unions of merge keepers, shortened verbose memories, promotions.
        let mut edits: BTreeMap<usize, Memory> = BTreeMap::new();
        for &(newer, older, _) in &merges {
            // The keeper's tags are user-visible: the rules' exclusions protect it too.
            if rules::exclusion(ms[newer], cfg, now).is_some() {
                continue;
            }
            let keeper = edits.entry(newer).or_insert_with(|| ms[newer].clone());
            for t in &ms[older].tags {
                if !keeper.tags.contains(t) {
                    keeper.tags.push(t.clone());
                }
            }
        }
        for (i, m) in ms.iter().enumerate() {
            if let Some(short) = rules::shorten_verbose(m, cfg, now) {
                let e = edits.entry(i).or_insert_with(|| (*m).clone());
                e.content = short;
                e.content_hash = crate::content::content_hash(&e.content);
                if !e.tags.iter().any(|t| t == "summarized") {
                    e.tags.push("summarized".into());
                }
                actions.push(RunAction {
                    action: "summarize_verbose".into(),
                    memory_ids: vec![m.id.to_string()],
                    reason: format!(
                        "{} characters, older than {} days",
                        m.content.chars().count(),
                        cfg.verbose_min_age_days
                    ),
                });
            }
        }
        let mut promotions = Vec::new();
        if scope == ScopeKind::Project {
            for (i, m) in ms.iter().enumerate() {
                if !rules::promotable(m, cfg, now) {
                    continue;
                }
                let mut copy = Memory::new(m.content.clone(), m.namespace.clone(), m.created_at);
                copy.id = MemoryId::derived(m.created_at, &format!("promote:{}", m.id));
                copy.summary = m.summary.clone();
                copy.domain = Domain::User;
                copy.tags = m.tags.clone();
                copy.tags.push("promoted".into());
                copy.source = Some(format!("promoted from project memory {}", m.id));
                copy.created_by = "consolidation".into();
                copy.importance = m.importance;
                copy.updated_at = m.updated_at;
                let e = edits.entry(i).or_insert_with(|| (*m).clone());
                e.tags.push("promoted".into());
                edges.push(MemoryEdge {
                    source_id: m.id.to_string(),
                    target_id: copy.id.to_string(),
                    edge_type: crate::model::EdgeType::References,
                    weight: 1.0,
                    reason: "promoted to the user scope".into(),
                    run_id: run_id.clone(),
                });
                actions.push(RunAction {
                    action: "promote".into(),
                    memory_ids: vec![m.id.to_string(), copy.id.to_string()],
                    reason: format!("pattern recalled {} times", m.activation_count),
                });
                promotions.push(copy);
            }
        }
        let edits: Vec<(Memory, DateTime<Utc>)> = edits
            .into_iter()
            .filter(|(i, e)| *e != *ms[*i])
            .map(|(i, mut e)| {
                let expected = ms[i].updated_at;
                e.updated_at = now.max(expected + chrono::Duration::microseconds(1));
                (e, expected)
            })
            .collect();

        // Promoted patterns keep their link to the user-scope copy on every run.
        if scope == ScopeKind::Project {
            let user = self.store_for_read(ScopeKind::User)?;
            for m in ms.iter().filter(|m| m.tags.iter().any(|t| t == "promoted")) {
                if promotions
                    .iter()
                    .any(|c| c.source.as_deref() == Some(&format!("promoted from project memory {}", m.id)))
                {
                    continue;
                }
                let derived = MemoryId::derived(m.created_at, &format!("promote:{}", m.id));
                let target = match &user {
                    Some(u) if u.get(&derived)?.is_some() => Some(derived),
                    Some(u) => u
                        .list(&MemoryFilter::default(), ListOrder::OldestFirst, None)?
                        .into_iter()
                        .find(|x| x.content_hash == m.content_hash)
                        .map(|x| x.id),
                    None => None,
                };
                if let Some(target) = target {
                    edges.push(MemoryEdge {
                        source_id: m.id.to_string(),
                        target_id: target.to_string(),
                        edge_type: crate::model::EdgeType::References,
                        weight: 1.0,
                        reason: "promoted to the user scope".into(),
                        run_id: run_id.clone(),
                    });
                }
            }
        }
        if !cfg.enable_edge_extraction {
            edges.retain(|e| {
                matches!(
                    e.edge_type,
                    crate::model::EdgeType::Supersedes | crate::model::EdgeType::Consolidates
                )
            });
        }
        let old_edges = store.edges(None)?;
        if scoped {
            // Links from the scope to memories outside it cannot be redrawn here: keep them.
            edges.extend(
                old_edges
                    .iter()
                    .filter(|e| scan_ids.contains(&e.source_id) && !scan_ids.contains(&e.target_id))
                    .cloned(),
            );
        }
        // Only sources whose edges changed are rewritten.
        let mut sources: BTreeSet<String> = scan_ids.clone();
        sources.extend(summaries.iter().map(|s| s.id.clone()));
        sources.extend(removed_summaries.iter().cloned());
        let edge_sources = super::edges::changed_sources(&old_edges, &edges, sources);
        let changed: BTreeSet<&String> = edge_sources.iter().collect();
        let edge_count = edges.len();
        let edges: Vec<MemoryEdge> = edges.into_iter().filter(|e| changed.contains(&e.source_id)).collect();
        progress(Phase::Edges, 1, 1);
        drop(span);
        lap("edges", &mut stage_ms);

        let result = ConsolidationResult {
            run_id,
            trigger: if opts.trigger.is_empty() {
                "manual".into()
            } else {
                opts.trigger.clone()
            },
            scope: format!("{}: {}", scope.as_str(), opts.describe()),
            started_at: now,
            completed_at: opts.dry_run.then_some(now),
            phase: if opts.dry_run { Phase::Completed } else { Phase::Persist },
            dry_run: opts.dry_run,
            full: opts.full,
            memories_processed: ms.len(),
            clusters_found: clusters.len(),
            summaries_created: written.len(),
            supersessions_detected: supersessions.len(),
            edges: edge_count,
            tier_transitions: transitions.clone(),
            actions,
            memories_changed: enrichment.len() + edits.len(),
            errors: llm_run.as_ref().and_then(|r| r.stopped.clone()).into_iter().collect(),
            stage_ms,
            llm: llm_run,
        };
        Ok(ScopePlan {
            result,
            write: ConsolidationWrite {
                enrichment,
                edits,
                summaries: written,
                removed_summaries,
                edge_sources,
                edges,
                supersession_scope: ms
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !carried.contains_key(i))
                    .map(|(_, m)| m.id.to_string())
                    .collect(),
                supersessions: plain,
                transitions,
            },
            promotions,
        })
    }
}
