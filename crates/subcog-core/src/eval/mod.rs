//! Retrieval-quality evaluation on public benchmarks (`subcog eval`).
//!
//! Each benchmark ingests its data through the same capture and recall paths users get,
//! into throwaway stores, and reports the metric its authors define.

pub mod labelled;
pub mod locomo;
pub mod longmemeval;
pub mod prompts;
pub mod quarantine;
pub mod resolution;
pub mod secrets;
pub mod supersession;
pub mod temporal;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::clock::{Clock, SystemClock};
use crate::config::{Config, RetrievalMode};
use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::location::DataLocation;
use crate::model::{Memory, MemoryId};
use crate::recall::{RecallQuery, RecallResult};
use crate::service::{ScopeKind, Subcog};
use crate::store::{InsertOutcome, Vectors};

/// A throwaway service over a fresh project under `workdir`, without git notes (an
/// evaluation's memories are never the user's).
pub fn scratch_subcog(config: &Config, embedder: Option<Arc<dyn Embedder>>, workdir: &Path) -> Result<Scratch> {
    scratch_subcog_at(config, embedder, workdir, Arc::new(SystemClock))
}

/// [`scratch_subcog`] reading "now" from `clock`.
pub fn scratch_subcog_at(
    config: &Config,
    embedder: Option<Arc<dyn Embedder>>,
    workdir: &Path,
    clock: Arc<dyn Clock>,
) -> Result<Scratch> {
    let project = workdir.join("project");
    std::fs::create_dir_all(&project).map_err(|e| Error::Io {
        context: format!("create {}", project.display()),
        source: e,
    })?;
    let mut config = config.clone();
    config.storage.git_notes = false;
    Ok(Scratch(
        Subcog::new(config, DataLocation::resolve(workdir, &project), clock).with_embedder(embedder),
    ))
}

/// A throwaway service; on a shared database its rows are removed when it drops (on SQLite
/// the caller removes the directory).
pub struct Scratch(Subcog);

impl std::ops::Deref for Scratch {
    type Target = Subcog;
    fn deref(&self) -> &Subcog {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.0.shared_database() {
            return;
        }
        match self.0.existing_stores() {
            Ok(stores) => {
                for (_, store) in stores {
                    if let Err(e) = store.purge() {
                        tracing::warn!(store = %store.location(), error = %e, "could not remove an evaluation's scratch rows");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not remove an evaluation's scratch rows"),
        }
    }
}

/// Stores `memories` (with vectors when the service has a model) in the project scope;
/// returns, for each stored memory, the keys of the items it holds (`keys[i]` names
/// `memories[i]`; identical texts share one memory, which then holds each of their keys).
pub fn insert_keyed(
    subcog: &Subcog,
    memories: &[Memory],
    keys: &[String],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<HashMap<MemoryId, Vec<String>>> {
    let texts: Vec<&str> = memories.iter().map(|m| m.content.as_str()).collect();
    let vectors = subcog.embed_texts(&texts, progress)?;
    let store = subcog.store_for_write(ScopeKind::Project)?;
    let with = vectors.as_ref().map(|(model, v)| Vectors { model, vectors: v });
    let outcomes = store.insert_many(memories, with, false)?;
    let mut owners: HashMap<MemoryId, Vec<String>> = HashMap::new();
    for (key, outcome) in keys.iter().zip(outcomes) {
        let id = match outcome {
            InsertOutcome::Inserted(id) | InsertOutcome::DuplicateContent(id) | InsertOutcome::DuplicateId(id) => id,
        };
        owners.entry(id).or_default().push(key.clone());
    }
    Ok(owners)
}

/// One evaluation question through recall: exhaustive mode (every tier), the top
/// `limit`, activation untouched, with its precomputed query vector when there is one.
pub fn recall_question(subcog: &Subcog, question: &str, limit: usize, vector: Option<&[f32]>) -> Result<RecallResult> {
    let query = RecallQuery {
        query: question.to_string(),
        limit: Some(limit),
        mode: Some(RetrievalMode::Exhaustive),
        no_touch: true,
        ..Default::default()
    };
    let embedder = subcog.embedder();
    let vector = match (&embedder, vector) {
        (Some(e), Some(v)) => Some((e.model(), v)),
        _ => None,
    };
    subcog.recall_with_vector(&query, vector)
}

/// Reads a JSON Lines file of records (blank lines skipped); a bad line is an error that
/// names it.
pub fn read_jsonl<T: for<'de> serde::Deserialize<'de>>(path: &Path) -> Result<Vec<T>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        context: format!("read {}", path.display()),
        source: e,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(serde_json::from_str(line).map_err(|e| Error::Import {
            line: i + 1,
            message: format!("{}: {e}", path.display()),
        })?);
    }
    Ok(out)
}

/// The p-th percentile (0–100) of a sample by nearest rank; 0 for an empty sample.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(percentile(&v, 50.0), 3.0);
        assert_eq!(percentile(&v, 95.0), 5.0);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&[], 50.0), 0.0);
    }
}
