//! Prompt recall on a labelled set (`subcog eval prompts DIR`): does UserPromptSubmit give
//! a prompt the memories it needs, and small talk nothing?
//!
//! The set is a directory with `store.jsonl` (one project's memories: `key`, `namespace`,
//! `content`, `tags`, `days_ago`) and `prompts.jsonl` (`prompt`, `relevant`: the keys of
//! the memories that help, empty for prompts no memory helps, `kind`, `split`). The store
//! goes into a fresh temporary project; every prompt runs through the same gate as the
//! hook ([`crate::hooks::prompt`]).
//!
//! Reported per split: **precision** (injected memories that are relevant), **recall**
//! (prompts with relevant memories that got at least one), **silence** (prompts with no
//! relevant memory that got nothing), and how recall ranks the first relevant memory
//! (hit@1, MRR over the judged candidates).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use chrono::{Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::hooks::prompt::Evidence;
use crate::model::{Memory, MemoryId, Namespace, normalize_tags};
use crate::service::ScopeKind;
use crate::store::Vectors;

/// One memory of the labelled store.
#[derive(Debug, Clone, Deserialize)]
pub struct StoreRecord {
    /// The label prompts refer to.
    pub key: String,
    /// Its namespace.
    pub namespace: String,
    /// Its text.
    pub content: String,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// How long before now it was captured.
    #[serde(default)]
    pub days_ago: i64,
}

/// One labelled prompt.
#[derive(Debug, Clone, Deserialize)]
pub struct PromptRecord {
    /// What the user types.
    pub prompt: String,
    /// Keys of the memories that help (best first); empty when none does.
    #[serde(default)]
    pub relevant: Vec<String>,
    /// Its kind (paraphrase, keyword, smalltalk, …).
    #[serde(default)]
    pub kind: String,
    /// `dev` or `test`.
    #[serde(default)]
    pub split: String,
}

/// Scores of one group of prompts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Score {
    /// Prompts.
    pub prompts: usize,
    /// Prompts some memory helps.
    pub relevant_prompts: usize,
    /// Of those, prompts that got at least one relevant memory.
    pub hits: usize,
    /// Prompts no memory helps.
    pub irrelevant_prompts: usize,
    /// Of those, prompts that got nothing.
    pub silent: usize,
    /// Memories injected.
    pub injected: usize,
    /// Of those, relevant ones.
    pub injected_relevant: usize,
    /// injected_relevant / injected.
    pub precision: f64,
    /// hits / relevant_prompts.
    pub recall: f64,
    /// silent / irrelevant_prompts.
    pub silence: f64,
    /// Relevant prompts whose first judged candidate is relevant.
    pub hit_at_1: f64,
    /// Mean reciprocal rank of the first relevant candidate (0 when none was judged).
    pub mrr: f64,
}

impl Score {
    fn add(&mut self, relevant: bool, injected: usize, injected_relevant: usize, first_relevant: Option<usize>) {
        self.prompts += 1;
        self.injected += injected;
        self.injected_relevant += injected_relevant;
        if relevant {
            self.relevant_prompts += 1;
            if injected_relevant > 0 {
                self.hits += 1;
            }
            if let Some(rank) = first_relevant {
                self.mrr += 1.0 / rank as f64;
                if rank == 1 {
                    self.hit_at_1 += 1.0;
                }
            }
        } else {
            self.irrelevant_prompts += 1;
            if injected == 0 {
                self.silent += 1;
            }
        }
    }

    fn finish(&mut self) {
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        self.precision = ratio(self.injected_relevant, self.injected);
        self.recall = ratio(self.hits, self.relevant_prompts);
        self.silence = ratio(self.silent, self.irrelevant_prompts);
        if self.relevant_prompts > 0 {
            self.mrr /= self.relevant_prompts as f64;
            self.hit_at_1 /= self.relevant_prompts as f64;
        }
    }
}

/// One judged candidate of a prompt, with its label (for calibration).
#[derive(Debug, Clone, Serialize)]
pub struct CandidateDetail {
    /// The memory's key.
    pub key: String,
    /// Whether the label says it helps.
    pub relevant: bool,
    /// Whether the gate injected it.
    pub injected: bool,
    /// Its evidence.
    pub evidence: Evidence,
}

/// One prompt's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct PromptDetail {
    /// The prompt.
    pub prompt: String,
    /// Its split.
    pub split: String,
    /// Its kind.
    pub kind: String,
    /// The labelled keys.
    pub relevant: Vec<String>,
    /// The keys injected.
    pub injected: Vec<String>,
    /// The background similarity.
    pub background: Option<f64>,
    /// Every judged candidate.
    pub candidates: Vec<CandidateDetail>,
}

/// The evaluation's result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PromptReport {
    /// Memories in the store.
    pub memories: usize,
    /// Whether the vector channel took part.
    pub semantic: bool,
    /// The gate's threshold used.
    pub min_evidence: f32,
    /// Scores per split (`dev`, `test`, and `all`).
    pub splits: BTreeMap<String, Score>,
    /// Scores per kind (all splits).
    pub kinds: BTreeMap<String, Score>,
    /// Every prompt, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<PromptDetail>,
}

/// Runs the evaluation of the set in `dir`; stores are created under `workdir`.
pub fn run(
    dir: &Path,
    config: &Config,
    embedder: Option<Arc<dyn Embedder>>,
    workdir: &Path,
    details: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<PromptReport> {
    let store_records: Vec<StoreRecord> = super::read_jsonl(&dir.join("store.jsonl"))?;
    let prompts: Vec<PromptRecord> = super::read_jsonl(&dir.join("prompts.jsonl"))?;
    let subcog = super::scratch_subcog(config, embedder.clone(), workdir)?;
    progress(&format!("ingesting {} memories", store_records.len()));
    let now = Utc::now();
    let mut memories = Vec::with_capacity(store_records.len());
    for r in &store_records {
        let ns = Namespace::parse(&r.namespace)?;
        let mut m = Memory::new(r.content.clone(), ns, now - Duration::days(r.days_ago.max(0)));
        m.tags = normalize_tags(&r.tags)?;
        m.source = Some(r.key.clone());
        m.created_by = "eval".into();
        memories.push(m);
    }
    let texts: Vec<&str> = memories.iter().map(|m| m.content.as_str()).collect();
    let vectors = subcog.embed_texts(&texts, &mut |_, _| {})?;
    let store = subcog.store_for_write(ScopeKind::Project)?;
    let with = vectors.as_ref().map(|(model, v)| Vectors { model, vectors: v });
    let outcomes = store.insert_many(&memories, with, false)?;
    let key_of: HashMap<MemoryId, String> = outcomes
        .iter()
        .zip(&store_records)
        .map(|(o, r)| (o.id(), r.key.clone()))
        .collect();

    progress(&format!("judging {} prompts", prompts.len()));
    let texts: Vec<&str> = prompts.iter().map(|p| p.prompt.as_str()).collect();
    let prompt_vectors = match &embedder {
        Some(e) if !texts.is_empty() => Some(e.embed(&texts)?),
        _ => None,
    };
    let mut report = PromptReport {
        memories: store_records.len(),
        semantic: embedder.is_some(),
        min_evidence: config.hooks.prompt_min_evidence,
        ..Default::default()
    };
    for (i, p) in prompts.iter().enumerate() {
        let vector = match (&embedder, &prompt_vectors) {
            (Some(e), Some(v)) => v.get(i).map(|v| (e.model(), v.as_slice())),
            _ => None,
        };
        let decided = match subcog.prompt_recall_with_vector(&p.prompt, vector) {
            Ok(d) => d,
            // A prompt with no searchable words gets nothing, as in the hook.
            Err(Error::Validation(_)) => Default::default(),
            Err(e) => return Err(e),
        };
        let key = |id: &MemoryId| key_of.get(id).cloned().unwrap_or_default();
        let candidates: Vec<CandidateDetail> = decided
            .judged
            .iter()
            .map(|j| {
                let k = key(&j.hit.memory.id);
                CandidateDetail {
                    relevant: p.relevant.contains(&k),
                    key: k,
                    injected: j.injected,
                    evidence: j.evidence.clone(),
                }
            })
            .collect();
        let injected: Vec<String> = candidates
            .iter()
            .filter(|c| c.injected)
            .map(|c| c.key.clone())
            .collect();
        let injected_relevant = candidates.iter().filter(|c| c.injected && c.relevant).count();
        let first_relevant = candidates.iter().position(|c| c.relevant).map(|r| r + 1);
        let relevant = !p.relevant.is_empty();
        let split = if p.split.is_empty() {
            "all".to_string()
        } else {
            p.split.clone()
        };
        for group in [split.clone(), "all".to_string()] {
            let s = report.splits.entry(group).or_default();
            s.add(relevant, injected.len(), injected_relevant, first_relevant);
            if split == "all" {
                break;
            }
        }
        report.kinds.entry(p.kind.clone()).or_default().add(
            relevant,
            injected.len(),
            injected_relevant,
            first_relevant,
        );
        if details {
            report.details.push(PromptDetail {
                prompt: p.prompt.clone(),
                split,
                kind: p.kind.clone(),
                relevant: p.relevant.clone(),
                injected,
                background: decided.background,
                candidates,
            });
        }
    }
    for s in report.splits.values_mut().chain(report.kinds.values_mut()) {
        s.finish();
    }
    Ok(report)
}
