//! The stages an LLM improves: supersession judgements on candidate pairs and cluster
//! summaries. Each item is asked separately with bounded concurrency; an item whose call
//! fails or whose answer cannot be parsed keeps its offline result, and a budget cap stops
//! further calls for the rest of the run.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::llm::chain::Chain;
use crate::llm::prompts::{self, PromptMemory};
use crate::llm::{LlmClient, LlmError, parse};
use crate::model::{LlmRun, Memory, SummaryDecision, SupersededFact, SupersessionKind};

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
    let results = parallel(pairs, workers, &stop, &|&(newer, older)| {
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
    let results = parallel(clusters, workers, &stop, &|members: &Vec<&Memory>| {
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
            let decisions = v["decisions"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|d| {
                            Some(SummaryDecision {
                                decision: parse::string(d, "decision")?,
                                rationale: parse::string(d, "rationale").unwrap_or_default(),
                                source_id: known(parse::string(d, "source_memory_id")).unwrap_or_default(),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            let superseded_facts = v["superseded_facts"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|f| {
                            Some(SupersededFact {
                                original_fact: parse::string(f, "original_fact")?,
                                superseded_by: parse::string(f, "superseded_by").unwrap_or_default(),
                                source_memory_id: known(parse::string(f, "source_memory_id")).unwrap_or_default(),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
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
