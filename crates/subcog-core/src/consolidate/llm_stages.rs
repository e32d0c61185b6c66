//! The stages an LLM improves: supersession judgements on candidate pairs and cluster
//! summaries. Each item is asked separately with bounded concurrency; an item whose call
//! fails or whose answer cannot be parsed keeps its offline result, and a budget cap stops
//! further calls for the rest of the run.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::supersede::{Verdict, has_marker};
use super::terms::{jaccard, salient};
use crate::embed::{Embedder, dot};

use crate::llm::chain::Chain;
use crate::llm::prompts::{self, PromptMemory};
use crate::llm::{LlmClient, LlmError, parse};
use crate::model::{
    EdgeType, LlmRun, Memory, MemoryEdge, MemorySummary, SummaryDecision, SupersededFact, SupersessionKind,
};

/// A supersession verdict from the LLM.
pub struct Judged {
    /// Whether the newer replaces the older.
    pub supersedes: bool,
    /// Full or partial.
    pub kind: SupersessionKind,
    /// Confidence.
    pub confidence: f32,
    /// The model's reason.
    pub reason: String,
    /// The model that judged.
    pub model: String,
}

/// A summary from the LLM.
pub struct Written {
    /// Title.
    pub title: String,
    /// Two or three sentences.
    pub summary: String,
    /// Facts.
    pub key_facts: Vec<String>,
    /// Decisions.
    pub decisions: Vec<SummaryDecision>,
    /// Outdated facts.
    pub superseded_facts: Vec<SupersededFact>,
    /// The model.
    pub model: String,
}

fn prompt_memory(m: &Memory) -> PromptMemory<'_> {
    PromptMemory {
        id: m.id.to_string(),
        namespace: m.namespace.as_str(),
        created_at: m.created_at,
        content: &m.content,
    }
}

/// Runs `f` over `items` on up to `workers` threads; stops handing out work once `stop`
/// is set. Results keep the input order (`None` for items never attempted).
fn parallel<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    stop: &AtomicBool,
    f: &(dyn Fn(&T) -> R + Sync),
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, 32) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { return };
                    let r = f(item);
                    if let Ok(mut o) = out.lock()
                        && let Some(slot) = o.get_mut(i)
                    {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    out.into_inner().unwrap_or_default()
}

/// Judges `(newer, older)` pairs.
pub fn judge_pairs(
    chain: &Chain,
    ms: &[&Memory],
    pairs: &[(usize, usize)],
    workers: usize,
    run: &mut LlmRun,
) -> Vec<Option<Judged>> {
    let stop = AtomicBool::new(false);
    // Workers are other threads: each call's span is tied to the stage's span by hand.
    let parent = tracing::Span::current();
    let results = parallel(pairs, workers, &stop, &|&(newer, older)| {
        let _span = tracing::info_span!(parent: &parent, "llm.detect_supersession").entered();
        let req = prompts::supersession(&prompt_memory(ms[newer]), &prompt_memory(ms[older]));
        let out = chain.complete(&req);
        if matches!(out, Err(LlmError::Budget(_))) {
            stop.store(true, Ordering::Relaxed);
        }
        out.and_then(|resp| {
            let v = parse::json_object(&resp.text).ok_or_else(|| LlmError::Protocol {
                provider: resp.provider.clone(),
                message: "no JSON object in the answer".into(),
            })?;
            let supersedes = parse::boolean(&v, "supersedes").ok_or_else(|| LlmError::Protocol {
                provider: resp.provider.clone(),
                message: "no \"supersedes\" field".into(),
            })?;
            Ok(Judged {
                supersedes,
                kind: match parse::string(&v, "kind").as_deref() {
                    Some("partial") => SupersessionKind::Partial,
                    _ => SupersessionKind::Full,
                },
                confidence: parse::confidence(&v, "confidence").unwrap_or(0.6),
                reason: parse::string(&v, "reason").unwrap_or_else(|| "judged by the LLM".into()),
                model: resp.model,
            })
        })
    });
    run.pairs_judged += results.iter().filter(|r| matches!(r, Some(Ok(_)))).count();
    results
        .into_iter()
        .zip(pairs)
        .map(|(r, &(newer, older))| match r {
            Some(Ok(j)) => Some(j),
            Some(Err(e)) => {
                note(run, &e, format!("pair {} → {}: {e}", ms[newer].id, ms[older].id));
                None
            }
            None => {
                run.fallbacks.push(format!(
                    "pair {} → {}: not asked (budget reached)",
                    ms[newer].id, ms[older].id
                ));
                None
            }
        })
        .collect()
}

fn note(run: &mut LlmRun, e: &LlmError, line: String) {
    if let LlmError::Budget(why) = e {
        run.stopped
            .get_or_insert_with(|| format!("{why}; the rest of the run used the offline path"));
    }
    run.fallbacks.push(line);
}

/// Writes summaries for clusters (their members, oldest first).
pub fn summarize(
    chain: &Chain,
    clusters: &[Vec<&Memory>],
    max_tokens: u32,
    workers: usize,
    run: &mut LlmRun,
) -> Vec<Option<Written>> {
    let stop = AtomicBool::new(false);
    let parent = tracing::Span::current();
    let results = parallel(clusters, workers, &stop, &|members: &Vec<&Memory>| {
        let _span = tracing::info_span!(parent: &parent, "llm.summarize", members = members.len()).entered();
        let shown: Vec<PromptMemory<'_>> = members.iter().map(|m| prompt_memory(m)).collect();
        let out = chain.complete(&prompts::summary(&shown, max_tokens));
        if matches!(out, Err(LlmError::Budget(_))) {
            stop.store(true, Ordering::Relaxed);
        }
        out.and_then(|resp| {
            let v = parse::json_object(&resp.text).ok_or_else(|| LlmError::Protocol {
                provider: resp.provider.clone(),
                message: "no JSON object in the answer".into(),
            })?;
            let summary = parse::string(&v, "summary").ok_or_else(|| LlmError::Protocol {
                provider: resp.provider.clone(),
                message: "no \"summary\" field".into(),
            })?;
            let ids: Vec<String> = members.iter().map(|m| m.id.to_string()).collect();
            let known = |id: Option<String>| id.filter(|i| ids.contains(i));
            let decisions = parse::items(&v, "decisions", |d| {
                Some(SummaryDecision {
                    decision: parse::string(d, "decision")?,
                    rationale: parse::string(d, "rationale").unwrap_or_default(),
                    source_id: known(parse::string(d, "source_memory_id")).unwrap_or_default(),
                })
            });
            let superseded_facts = parse::items(&v, "superseded_facts", |f| {
                Some(SupersededFact {
                    original_fact: parse::string(f, "original_fact")?,
                    superseded_by: parse::string(f, "superseded_by").unwrap_or_default(),
                    source_memory_id: known(parse::string(f, "source_memory_id")).unwrap_or_default(),
                })
            });
            Ok(Written {
                title: parse::string(&v, "title").unwrap_or_default(),
                summary,
                key_facts: parse::strings(&v, "key_facts"),
                decisions,
                superseded_facts,
                model: resp.model,
            })
        })
    });
    run.summaries_written += results.iter().filter(|r| matches!(r, Some(Ok(_)))).count();
    results
        .into_iter()
        .zip(clusters)
        .map(|(r, members)| {
            let first = members.first().map(|m| m.id.to_string()).unwrap_or_default();
            match r {
                Some(Ok(w)) => Some(w),
                Some(Err(e)) => {
                    note(run, &e, format!("summary of the cluster of {first}: {e}"));
                    None
                }
                None => {
                    run.fallbacks
                        .push(format!("summary of the cluster of {first}: not asked (budget reached)"));
                    None
                }
            }
        })
        .collect()
}

/// The chain's providers as `name/model`.
pub fn describe(chain: &Chain) -> Vec<String> {
    chain
        .providers()
        .iter()
        .map(|p| format!("{}/{}", p.name(), p.model()))
        .collect()
}

/// A relation the LLM named, with the phrase that names its target.
pub struct Hinted {
    /// The relation type as the model wrote it.
    pub edge_type: String,
    /// What the memory points at.
    pub target_hint: String,
    /// Confidence.
    pub confidence: f32,
    /// The model.
    pub model: String,
}

/// Asks for the relations of each memory (by index).
pub fn extract_edges(
    chain: &Chain,
    ms: &[&Memory],
    which: &[usize],
    workers: usize,
    run: &mut LlmRun,
) -> Vec<Vec<Hinted>> {
    let stop = AtomicBool::new(false);
    let results = parallel(which, workers, &stop, &|&i| {
        let out = chain.complete(&prompts::edges(&prompt_memory(ms[i])));
        if matches!(out, Err(LlmError::Budget(_))) {
            stop.store(true, Ordering::Relaxed);
        }
        out.and_then(|resp| {
            let v = parse::json_object(&resp.text).ok_or_else(|| LlmError::Protocol {
                provider: resp.provider.clone(),
                message: "no JSON object in the answer".into(),
            })?;
            Ok(v["edges"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| {
                            Some(Hinted {
                                edge_type: parse::string(e, "type")?.to_ascii_lowercase(),
                                target_hint: parse::string(e, "target_hint")?,
                                confidence: parse::confidence(e, "confidence").unwrap_or(0.5),
                                model: resp.model.clone(),
                            })
                        })
                        .collect::<Vec<Hinted>>()
                })
                .unwrap_or_default())
        })
    });
    results
        .into_iter()
        .zip(which)
        .map(|(r, &i)| match r {
            Some(Ok(edges)) => {
                run.edges_extracted += edges.len();
                edges
            }
            Some(Err(e)) => {
                note(run, &e, format!("edges of {}: {e}", ms[i].id));
                Vec::new()
            }
            None => {
                run.fallbacks
                    .push(format!("edges of {}: not asked (budget reached)", ms[i].id));
                Vec::new()
            }
        })
        .collect()
}

/// Clusters as the plan holds them: id, member indices, coherence.
pub type Clusters = [(String, Vec<usize>, f32)];

/// What the offline judge found: its links (older → (newer, verdict)) and the pairs
/// (newer, older) it was unsure of.
pub struct OfflineFinds<'a> {
    /// The offline links; the LLM's verdicts replace them.
    pub best: &'a mut BTreeMap<usize, (usize, Verdict)>,
    /// Pairs near the threshold with a change cue.
    pub ambiguous: &'a [(usize, usize)],
}

/// Lets the LLM judge the candidate pairs (the offline finds, the pairs it was unsure of,
/// and cluster mates at cosine ≥ 0.6 whose newer text carries a change marker). Its
/// verdicts replace the offline ones in `finds.best`; returns the model per LLM-judged older.
pub fn refine_supersessions(
    chain: &Chain,
    ms: &[&Memory],
    clusters: &Clusters,
    finds: OfflineFinds<'_>,
    sim: &dyn Fn(usize, usize) -> f32,
    workers: usize,
    run: &mut LlmRun,
) -> BTreeMap<usize, String> {
    let OfflineFinds { best, ambiguous } = finds;
    // The offline finds, the pairs it was unsure of (newer, older), and close cluster mates.
    let mut pairs: BTreeSet<(usize, usize)> = best.iter().map(|(o, (n, _))| (*n, *o)).collect();
    pairs.extend(ambiguous.iter().copied());
    for (_, members, _) in clusters {
        for &a in members {
            for &b in members {
                // Only pairs with evidence of change reach the prompt: every call costs.
                if a != b
                    && has_marker(&ms[a].content)
                    && ms[a].namespace == ms[b].namespace
                    && ms[a].domain == ms[b].domain
                    && (ms[a].created_at, ms[a].id) > (ms[b].created_at, ms[b].id)
                    && sim(a, b) >= 0.6
                {
                    pairs.insert((a, b));
                }
            }
        }
    }
    let pairs: Vec<(usize, usize)> = pairs.into_iter().collect();
    let judged = judge_pairs(chain, ms, &pairs, workers, run);
    let mut methods: BTreeMap<usize, String> = BTreeMap::new();
    for (&(newer, older), j) in pairs.iter().zip(judged) {
        let Some(j) = j else { continue };
        if j.supersedes {
            let better =
                !methods.contains_key(&older) || best.get(&older).is_none_or(|(_, v)| j.confidence > v.confidence);
            if better {
                let verdict = Verdict {
                    kind: j.kind,
                    confidence: j.confidence,
                    reason: j.reason,
                };
                best.insert(older, (newer, verdict));
                methods.insert(older, j.model);
            }
        } else if best.get(&older).is_some_and(|(n, _)| *n == newer) && !methods.contains_key(&older) {
            best.remove(&older);
        }
    }
    methods
}

/// Rewrites the summaries written this run with the LLM's (an item it cannot do keeps the
/// extractive one), mirroring the change into `all`.
pub fn rewrite_summaries(
    chain: &Chain,
    ms: &[&Memory],
    written: &mut [MemorySummary],
    all: &mut [MemorySummary],
    max_tokens: u32,
    workers: usize,
    run: &mut LlmRun,
) {
    if written.is_empty() {
        return;
    }
    let by_id: HashMap<String, &Memory> = ms.iter().map(|m| (m.id.to_string(), *m)).collect();
    let groups: Vec<Vec<&Memory>> = written
        .iter()
        .map(|s| s.source_ids.iter().filter_map(|id| by_id.get(id).copied()).collect())
        .collect();
    let outs = summarize(chain, &groups, max_tokens, workers, run);
    for (s, w) in written.iter_mut().zip(outs) {
        let Some(w) = w else { continue };
        if !w.title.is_empty() {
            s.title = crate::content::one_line(&w.title, 80);
        }
        s.summary = w.summary;
        if !w.key_facts.is_empty() {
            s.key_facts = w.key_facts;
        }
        s.decisions = w.decisions;
        s.superseded_facts = w.superseded_facts;
        s.method = w.model;
        if let Some(slot) = all.iter_mut().find(|x| x.id == s.id) {
            *slot = s.clone();
        }
    }
}

/// What edge extraction looks at.
pub struct EdgeContext<'a> {
    /// The memories in scope.
    pub memories: &'a [&'a Memory],
    /// Their stored vectors, when they have one.
    pub vectors: &'a [Option<&'a [f32]>],
    /// Their topic words.
    pub terms: &'a [BTreeSet<String>],
    /// The model that embeds target phrases, when loaded.
    pub embedder: Option<Arc<dyn Embedder>>,
    /// The run drawing the edges.
    pub run_id: &'a str,
    /// Parallel calls.
    pub workers: usize,
}

/// Most memories per run whose relations an LLM is asked for.
const MAX_EDGE_MEMORIES: usize = 200;

/// Asks for the relations of memories that state one and resolves each target phrase to
/// the memory it is closest to (by meaning when a model is loaded, else by topic words);
/// the edges drawn from the text itself win a tie.
pub fn add_edges(chain: &Chain, cx: &EdgeContext<'_>, edges: &mut Vec<MemoryEdge>, run: &mut LlmRun) {
    let ms = cx.memories;
    let which: Vec<usize> = (0..ms.len())
        .filter(|&i| super::edges::names_relation(&ms[i].content))
        .take(MAX_EDGE_MEMORIES)
        .collect();
    run.prompt_versions.push(prompts::EDGES_VERSION.into());
    let hinted = extract_edges(chain, ms, &which, cx.workers, run);
    for (&i, list) in which.iter().zip(hinted) {
        for h in list {
            let edge_type = match h.edge_type.as_str() {
                "relates_to" => EdgeType::RelatesTo,
                "depends_on" => EdgeType::DependsOn,
                "contradicts" => EdgeType::Contradicts,
                "implements" => EdgeType::Implements,
                // Supersession has its own stage and prompt.
                _ => continue,
            };
            let hint_vec = cx
                .embedder
                .as_ref()
                .and_then(|e| e.embed(&[h.target_hint.as_str()]).ok())
                .and_then(|mut v| v.pop());
            let hint_terms = salient(&h.target_hint);
            let best = (0..ms.len())
                .filter(|&j| j != i && ms[j].is_live())
                .filter_map(|j| {
                    let score = match (&hint_vec, cx.vectors.get(j).copied().flatten()) {
                        (Some(q), Some(v)) => dot(q, v),
                        _ => jaccard(&hint_terms, &cx.terms[j]),
                    };
                    (score >= 0.45).then_some((score, j))
                })
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            if let Some((score, j)) = best {
                run.edges_resolved += 1;
                edges.push(MemoryEdge {
                    source_id: ms[i].id.to_string(),
                    target_id: ms[j].id.to_string(),
                    edge_type,
                    weight: h.confidence.clamp(0.0, 1.0),
                    reason: format!("{}: \"{}\" (match {score:.2})", h.model, h.target_hint),
                    run_id: cx.run_id.to_string(),
                });
            }
        }
    }
    let mut seen = BTreeSet::new();
    edges.retain(|e| seen.insert((e.source_id.clone(), e.target_id.clone(), e.edge_type)));
}
