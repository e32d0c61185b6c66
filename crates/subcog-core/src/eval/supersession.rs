//! Supersession on a labelled set (`subcog eval supersession DIR`): does offline
//! consolidation link each replacement to the memory it replaces, and nothing else?
//!
//! The set is a directory with `pairs.jsonl` (`id`, `older`, `newer`, `namespace`, `label`:
//! `supersedes` or `not`, `kind`, `split`), `chains.jsonl` (three notes A → B → C) and
//! `filler.jsonl` (notes nothing supersedes), as in `data/supersession`. Protocol: the
//! older notes, chain notes A and the filler are captured first; the newer notes and chain
//! notes B a week later; chain notes C a week after that; all in one store (so a wrong
//! target shows); then one consolidation runs with `--llm off`.
//!
//! Reported per split: pair **precision** (labelled pairs linked correctly / labelled pairs
//! linked), **recall** (replacements linked), **wrong targets** (a labelled newer note that
//! superseded anything other than its labelled older note), chain links, and over the whole
//! store the share of recorded supersessions that the labels call right.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use chrono::{Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::consolidate::{ConsolidateOptions, LlmMode, supersede};
use crate::embed::Embedder;
use crate::error::Result;
use crate::model::{Memory, MemoryId, Namespace};
use crate::service::ScopeKind;
use crate::store::Vectors;

/// One labelled pair.
#[derive(Debug, Clone, Deserialize)]
pub struct PairRecord {
    /// Its id.
    pub id: String,
    /// The older note.
    pub older: String,
    /// The newer note.
    pub newer: String,
    /// Where both are captured.
    pub namespace: String,
    /// `supersedes` or `not`.
    pub label: String,
    /// What kind of change (or non-change).
    #[serde(default)]
    pub kind: String,
    /// `dev` or `test` (`holdout` in a set that is only read).
    #[serde(default)]
    pub split: String,
}

/// Three notes, each replacing the one before.
#[derive(Debug, Clone, Deserialize)]
pub struct ChainRecord {
    /// Its id.
    pub id: String,
    /// A, B, C in time order.
    pub notes: Vec<String>,
    /// Where they are captured.
    pub namespace: String,
    /// `dev` or `test` (`holdout` in a set that is only read).
    #[serde(default)]
    pub split: String,
}

/// A note nothing supersedes.
#[derive(Debug, Clone, Deserialize)]
pub struct FillerRecord {
    /// Its text.
    pub text: String,
    /// Where it is captured.
    pub namespace: String,
}

/// Scores of one split (or kind).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Score {
    /// Labelled replacements.
    pub replacements: usize,
    /// Of those, linked to their older note.
    pub found: usize,
    /// Labelled non-replacements.
    pub negatives: usize,
    /// Of those, linked anyway.
    pub false_links: usize,
    /// Supersessions recorded by a labelled newer note on some other note.
    pub wrong_targets: usize,
    /// found / (found + false_links).
    pub precision: f64,
    /// found / replacements.
    pub recall: f64,
    /// Chain links expected (A→B, B→C).
    pub chain_links: usize,
    /// Of those, recorded.
    pub chain_found: usize,
    /// A→C links recorded (skipping the middle).
    pub chain_skips: usize,
}

impl Score {
    fn finish(&mut self) {
        let linked = self.found + self.false_links;
        self.precision = if linked == 0 {
            0.0
        } else {
            self.found as f64 / linked as f64
        };
        self.recall = if self.replacements == 0 {
            0.0
        } else {
            self.found as f64 / self.replacements as f64
        };
    }
}

/// One pair's outcome, for reading the misses.
#[derive(Debug, Clone, Serialize)]
pub struct PairDetail {
    /// Its id.
    pub id: String,
    /// Its split.
    pub split: String,
    /// Its kind.
    pub kind: String,
    /// Its label.
    pub label: String,
    /// Whether the newer note superseded the older.
    pub linked: bool,
    /// Why (the recorded reason), when linked.
    pub reason: Option<String>,
    /// Other notes the newer one superseded (wrong targets), with the reasons.
    pub wrong: Vec<(String, String)>,
    /// The two notes.
    pub older: String,
    /// The newer note.
    pub newer: String,
}

/// The evaluation's result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SupersessionReport {
    /// Memories in the store.
    pub memories: usize,
    /// Whether vectors took part.
    pub semantic: bool,
    /// Per split, and `all`.
    pub splits: BTreeMap<String, Score>,
    /// Per kind (all splits).
    pub kinds: BTreeMap<String, Score>,
    /// Supersessions recorded in the whole store.
    pub recorded: usize,
    /// Of those, on a labelled pair or chain link and right.
    pub recorded_right: usize,
    /// recorded_right / recorded.
    pub store_precision: f64,
    /// Seconds the consolidation took.
    pub consolidation_seconds: f64,
    /// Every pair, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<PairDetail>,
    /// Every judged candidate pair with its evidence and label, when asked for (the
    /// calibration's input: `tools/calibrate_supersession.py`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<CandidateRow>,
}

/// One judged candidate pair, labelled.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateRow {
    /// The split of the newer note's pair or chain (`none` for other notes).
    pub split: String,
    /// Whether the labels say newer replaces older.
    pub label: bool,
    /// Its rank among the newer note's candidates (0 = closest).
    pub rank: usize,
    /// The inputs of the score, named as in `supersede::features::NAMES`.
    pub features: Vec<f32>,
    /// The score with the current weights.
    pub score: f32,
    /// Whether the judgement may link the pair at all (`Features::linkable`).
    pub linkable: bool,
    /// An old product or tool replaced by one of its kind (`Features::same_kind`).
    pub same_kind: bool,
    /// A kind swapped as the closest candidate (`Features::swaps_kind`).
    pub swaps_kind: bool,
    /// The speaker's own slot stated anew (`Features::restates_personal_slot`).
    pub personal: bool,
    /// The older note.
    pub older: String,
    /// The newer note.
    pub newer: String,
}

/// Runs the evaluation of the set in `dir`; the store is created under `workdir`.
pub fn run(
    dir: &Path,
    config: &Config,
    embedder: Option<Arc<dyn Embedder>>,
    workdir: &Path,
    details: bool,
    candidates: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<SupersessionReport> {
    let pairs: Vec<PairRecord> = super::read_jsonl(&dir.join("pairs.jsonl"))?;
    let chains: Vec<ChainRecord> = super::read_jsonl(&dir.join("chains.jsonl"))?;
    let filler: Vec<FillerRecord> = super::read_jsonl(&dir.join("filler.jsonl"))?;
    let subcog = super::scratch_subcog(config, embedder.clone(), workdir)?;

    let t0 = Utc::now() - Duration::days(30);
    let mut memories: Vec<Memory> = Vec::new();
    let at = |memories: &mut Vec<Memory>, text: &str, ns: &str, days: i64| -> Result<usize> {
        let seconds = memories.len() as i64;
        let mut m = Memory::new(
            text.to_string(),
            Namespace::parse(ns)?,
            t0 + Duration::days(days) + Duration::seconds(seconds),
        );
        m.created_by = "eval".into();
        memories.push(m);
        Ok(memories.len() - 1)
    };
    let mut pair_idx: Vec<(usize, usize)> = Vec::new();
    for p in &pairs {
        pair_idx.push((at(&mut memories, &p.older, &p.namespace, 0)?, 0));
    }
    let mut chain_idx: Vec<[usize; 3]> = Vec::new();
    for c in &chains {
        let a = at(
            &mut memories,
            c.notes.first().map_or("", String::as_str),
            &c.namespace,
            0,
        )?;
        chain_idx.push([a, 0, 0]);
    }
    for f in &filler {
        at(&mut memories, &f.text, &f.namespace, 0)?;
    }
    for (p, idx) in pairs.iter().zip(pair_idx.iter_mut()) {
        idx.1 = at(&mut memories, &p.newer, &p.namespace, 7)?;
    }
    for (c, idx) in chains.iter().zip(chain_idx.iter_mut()) {
        idx[1] = at(
            &mut memories,
            c.notes.get(1).map_or("", String::as_str),
            &c.namespace,
            7,
        )?;
    }
    for (c, idx) in chains.iter().zip(chain_idx.iter_mut()) {
        idx[2] = at(
            &mut memories,
            c.notes.get(2).map_or("", String::as_str),
            &c.namespace,
            14,
        )?;
    }
    progress(&format!("capturing {} memories", memories.len()));
    let texts: Vec<&str> = memories.iter().map(|m| m.content.as_str()).collect();
    let vectors = subcog.embed_texts(&texts, &mut |_, _| {})?;
    let store = subcog.store_for_write(ScopeKind::Project)?;
    let with = vectors.as_ref().map(|(model, v)| Vectors { model, vectors: v });
    let ids: Vec<MemoryId> = store
        .insert_many(&memories, with, false)?
        .iter()
        .map(|o| o.id())
        .collect();

    progress("consolidating (--llm off)");
    let started = std::time::Instant::now();
    subcog.consolidate(
        &ConsolidateOptions {
            llm: LlmMode::Off,
            ..Default::default()
        },
        &mut |_, _, _| {},
    )?;
    let consolidation_seconds = started.elapsed().as_secs_f64();
    // newer id -> [(older id, reason)]
    let mut by_newer: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let recorded = store.supersessions()?;
    for s in &recorded {
        by_newer
            .entry(s.superseder_id.clone())
            .or_default()
            .push((s.superseded_id.clone(), s.reason.clone()));
    }
    let id = |i: usize| ids.get(i).map(ToString::to_string).unwrap_or_default();
    let text_of: HashMap<String, &str> = ids
        .iter()
        .zip(&memories)
        .map(|(id, m)| (id.to_string(), m.content.as_str()))
        .collect();
    let mut report = SupersessionReport {
        memories: memories.len(),
        semantic: vectors.is_some(),
        recorded: recorded.len(),
        consolidation_seconds,
        ..Default::default()
    };
    let mut right = 0usize;
    for (p, &(older, newer)) in pairs.iter().zip(&pair_idx) {
        let (older, newer) = (id(older), id(newer));
        let links = by_newer.get(&newer).cloned().unwrap_or_default();
        let linked = links.iter().find(|(o, _)| *o == older).map(|(_, r)| r.clone());
        let wrong: Vec<(String, String)> = links
            .iter()
            .filter(|(o, _)| *o != older)
            .map(|(o, r)| (text_of.get(o).copied().unwrap_or_default().to_string(), r.clone()))
            .collect();
        let positive = p.label == "supersedes";
        if positive && linked.is_some() {
            right += 1;
        }
        for key in [p.split.clone(), "all".to_string()] {
            let s = report.splits.entry(key).or_default();
            add(s, positive, linked.is_some(), wrong.len());
        }
        add(
            report.kinds.entry(p.kind.clone()).or_default(),
            positive,
            linked.is_some(),
            wrong.len(),
        );
        if details {
            report.details.push(PairDetail {
                id: p.id.clone(),
                split: p.split.clone(),
                kind: p.kind.clone(),
                label: p.label.clone(),
                linked: linked.is_some(),
                reason: linked,
                wrong,
                older: p.older.clone(),
                newer: p.newer.clone(),
            });
        }
    }
    for (c, idx) in chains.iter().zip(&chain_idx) {
        let [a, b, cc] = idx.map(id);
        let has = |newer: &str, older: &str| by_newer.get(newer).is_some_and(|l| l.iter().any(|(o, _)| o == older));
        let found = usize::from(has(&b, &a)) + usize::from(has(&cc, &b));
        right += found;
        let skips = usize::from(has(&cc, &a));
        let wrong = [(&b, &a), (&cc, &b)]
            .iter()
            .map(|(n, o)| {
                by_newer
                    .get(n.as_str())
                    .map_or(0, |l| l.iter().filter(|(x, _)| x != *o && *x != a).count())
            })
            .sum::<usize>()
            + skips;
        for key in [c.split.clone(), "all".to_string()] {
            let s = report.splits.entry(key).or_default();
            s.chain_links += 2;
            s.chain_found += found;
            s.chain_skips += skips;
            s.wrong_targets += wrong;
        }
    }
    if candidates {
        // The judgement again, with every candidate kept and labelled.
        let mut split_of: HashMap<usize, String> = HashMap::new();
        let mut positive: std::collections::HashSet<(usize, usize)> = std::collections::HashSet::new();
        for (p, &(older, newer)) in pairs.iter().zip(&pair_idx) {
            split_of.insert(newer, p.split.clone());
            if p.label == "supersedes" {
                positive.insert((newer, older));
            }
        }
        for (c, idx) in chains.iter().zip(&chain_idx) {
            split_of.insert(idx[1], c.split.clone());
            split_of.insert(idx[2], c.split.clone());
            positive.insert((idx[1], idx[0]));
            positive.insert((idx[2], idx[1]));
        }
        let model = vectors.as_ref().map(|(m, _)| m.clone());
        let stored: HashMap<MemoryId, Vec<f32>> = match &model {
            Some(m) => store.vectors(m)?.into_iter().collect(),
            None => HashMap::new(),
        };
        let refs: Vec<&Memory> = memories.iter().collect();
        let vecs: Vec<Option<&[f32]>> = ids.iter().map(|id| stored.get(id).map(Vec::as_slice)).collect();
        let readings: Vec<supersede::Reading> = refs.iter().map(|m| supersede::Reading::of(m)).collect();
        let idf = supersede::Idf::new(readings.iter().map(|r| &r.words));
        let cfg = &subcog.config().consolidation;
        let neighbours = supersede::neighbours(
            &refs,
            &vecs,
            &readings,
            cfg.supersession_similarity,
            supersede::CANDIDATES,
        );
        for judged in supersede::judge_all(
            &refs,
            &neighbours,
            &readings,
            &idf,
            cfg.supersession_min_evidence,
            &|_, _| false,
        ) {
            for (rank, c) in judged.candidates.iter().enumerate() {
                report.candidates.push(CandidateRow {
                    split: split_of.get(&judged.newer).cloned().unwrap_or_else(|| "none".into()),
                    label: positive.contains(&(judged.newer, c.older)),
                    rank,
                    features: c.features.vector().to_vec(),
                    score: c.score,
                    linkable: c.features.linkable(),
                    same_kind: c.features.same_kind.is_some(),
                    swaps_kind: c.features.swaps_kind(),
                    personal: c.features.restates_personal_slot(),
                    older: memories[c.older].content.clone(),
                    newer: memories[judged.newer].content.clone(),
                });
            }
        }
    }
    report.recorded_right = right;
    report.store_precision = if recorded.is_empty() {
        0.0
    } else {
        right as f64 / recorded.len() as f64
    };
    for s in report.splits.values_mut().chain(report.kinds.values_mut()) {
        s.finish();
    }
    Ok(report)
}

fn add(s: &mut Score, positive: bool, linked: bool, wrong: usize) {
    if positive {
        s.replacements += 1;
        s.found += usize::from(linked);
    } else {
        s.negatives += 1;
        s.false_links += usize::from(linked);
    }
    s.wrong_targets += wrong;
}
