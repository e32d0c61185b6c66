//! Copying one scope's store into another backend (`subcog migrate`): every memory with
//! its enrichment, every vector, summaries, edges, supersessions and run records, in
//! batches that are each one transaction, then a verify step that compares both sides.
//!
//! A copy is resumable by running it again: memories already copied compare equal and are
//! left alone (`put_records` reports them unchanged), vectors are replaced in place.

use std::collections::{BTreeMap, HashMap};

use crate::error::Result;
use crate::model::{ConsolidationResult, MemoryId, Phase, Status};
use crate::store::{ConsolidationWrite, ListOrder, MemoryFilter, PutOutcome, Store};

/// Memories per transaction.
const BATCH: usize = 500;

/// What a copy did and what its verification found.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CopyReport {
    /// Where from.
    pub from: String,
    /// Where to.
    pub to: String,
    /// Memories read from the source (every status).
    pub memories: usize,
    /// Newly written in the target.
    pub inserted: usize,
    /// Replaced in the target (it held an older version).
    pub replaced: usize,
    /// Already there and identical (a resumed copy).
    pub unchanged: usize,
    /// Not written: the target holds the same live content under another id.
    pub conflicts: Vec<String>,
    /// Vectors copied, by model.
    pub vectors: BTreeMap<String, usize>,
    /// Summaries, edges, supersessions and run records copied.
    pub summaries: usize,
    /// Graph edges copied.
    pub edges: usize,
    /// Supersession records copied.
    pub supersessions: usize,
    /// Consolidation runs copied.
    pub runs: usize,
    /// What differs after the copy (empty when the target holds everything the source does).
    pub differences: Vec<String>,
}

/// Every status, so deleted and archived memories travel too.
fn everything() -> MemoryFilter {
    MemoryFilter {
        statuses: Status::ALL.to_vec(),
        ..Default::default()
    }
}

/// Copies `from` into `to`; `progress` gets (memories done, total).
pub fn copy_store(from: &dyn Store, to: &dyn Store, progress: &mut dyn FnMut(usize, usize)) -> Result<CopyReport> {
    let _span = tracing::info_span!("migrate.copy", from = %from.location(), to = %to.location()).entered();
    let mut report = CopyReport {
        from: from.location(),
        to: to.location(),
        ..Default::default()
    };
    let memories = from.list(&everything(), ListOrder::OldestFirst, None)?;
    report.memories = memories.len();
    let total = memories.len();
    progress(0, total);
    for (i, batch) in memories.chunks(BATCH).enumerate() {
        for (m, outcome) in batch.iter().zip(to.put_records(batch)?) {
            match outcome {
                PutOutcome::Inserted => report.inserted += 1,
                PutOutcome::Replaced => report.replaced += 1,
                PutOutcome::Unchanged => report.unchanged += 1,
                PutOutcome::DuplicateContent(other) => {
                    report.conflicts.push(format!("{} (same content as {other})", m.id))
                }
            }
        }
        progress(((i + 1) * BATCH).min(total), total);
    }
    for count in from.embedding_counts()? {
        let model = crate::embed::EmbeddingModel {
            id: count.model_id.clone(),
            dim: count.dim,
        };
        let vectors = from.vectors(&model)?;
        let mut stored = 0;
        for batch in vectors.chunks(BATCH) {
            stored += to.put_embeddings(&model, batch)?;
        }
        report.vectors.insert(format!("{} ({}d)", model.id, model.dim), stored);
    }
    // Consolidation output in one transaction, recorded as a run of its own.
    let summaries = from.summaries()?;
    let edges = from.edges(None)?;
    let supersessions = from.supersessions()?;
    let mut sources: Vec<String> = edges.iter().map(|e| e.source_id.clone()).collect();
    sources.sort();
    sources.dedup();
    let write = ConsolidationWrite {
        summaries: summaries.clone(),
        edge_sources: sources,
        edges: edges.clone(),
        supersession_scope: supersessions.iter().map(|s| s.superseded_id.clone()).collect(),
        supersessions: supersessions.clone(),
        ..Default::default()
    };
    let runs = from.runs(usize::MAX)?;
    for run in runs.iter().rev() {
        to.save_run(run, None)?;
    }
    let now = crate::timestamp::canonical(chrono::Utc::now());
    let record = ConsolidationResult {
        run_id: format!("migrate-{}", ulid::Ulid::generate()),
        trigger: "migrate".into(),
        scope: from.location(),
        started_at: now,
        completed_at: Some(now),
        phase: Phase::Completed,
        dry_run: false,
        full: false,
        memories_processed: total,
        clusters_found: 0,
        summaries_created: summaries.len(),
        supersessions_detected: supersessions.len(),
        edges: edges.len(),
        tier_transitions: Vec::new(),
        actions: Vec::new(),
        memories_changed: report.inserted + report.replaced,
        errors: Vec::new(),
        stage_ms: Vec::new(),
        llm: None,
    };
    to.apply_consolidation(&write, &record, &mut || Ok(()))?;
    report.summaries = summaries.len();
    report.edges = edges.len();
    report.supersessions = supersessions.len();
    report.runs = runs.len();
    report.differences = verify(from, to)?;
    Ok(report)
}

/// What the target lacks or holds differently: memories (every field), vectors per model.
pub fn verify(from: &dyn Store, to: &dyn Store) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let source = from.list(&everything(), ListOrder::OldestFirst, None)?;
    let ids: Vec<MemoryId> = source.iter().map(|m| m.id).collect();
    let mut target: HashMap<MemoryId, crate::model::Memory> = HashMap::new();
    for chunk in ids.chunks(BATCH) {
        target.extend(to.get_many(chunk)?.into_iter().map(|m| (m.id, m)));
    }
    for m in &source {
        match target.get(&m.id) {
            None => out.push(format!("memory {} is missing", m.id)),
            // Recall counts may have grown in the target meanwhile; anything else must match.
            Some(t)
                if t.content != m.content
                    || t.status != m.status
                    || t.tier != m.tier
                    || t.superseded_by != m.superseded_by =>
            {
                out.push(format!("memory {} differs", m.id));
            }
            Some(_) => {}
        }
    }
    let counts = |s: &dyn Store| -> Result<BTreeMap<String, u64>> {
        Ok(s.embedding_counts()?
            .into_iter()
            .map(|c| (format!("{} ({}d)", c.model_id, c.dim), c.count))
            .collect())
    };
    let (a, b) = (counts(from)?, counts(to)?);
    for (model, n) in &a {
        let m = b.get(model).copied().unwrap_or(0);
        if m < *n {
            out.push(format!("{model}: {m} of {n} vectors"));
        }
    }
    if to.summaries()?.len() < from.summaries()?.len() {
        out.push("summaries are missing".into());
    }
    Ok(out)
}

/// Where `subcog migrate` copies to.
#[derive(Debug, Clone)]
pub enum Target {
    /// A PostgreSQL database (URL); each scope under its key.
    Postgres(String),
    /// SQLite files under this data directory, at their usual places.
    Sqlite(std::path::PathBuf),
}

impl crate::service::Subcog {
    /// Copies every scope that has memories into `target`, then verifies each copy.
    pub fn migrate(
        &self,
        target: &Target,
        progress: &mut dyn FnMut(crate::service::ScopeKind, usize, usize),
    ) -> Result<Vec<(crate::service::ScopeKind, CopyReport)>> {
        let mut out = Vec::new();
        for (kind, from) in self.existing_stores()? {
            let to = self.open_target(target, kind)?;
            if to.location() == from.location() {
                return Err(crate::error::Error::Store(crate::store::StoreError::Open {
                    path: to.location(),
                    message: "the target is the store subcog already uses; name another one".into(),
                }));
            }
            let report = copy_store(from.as_ref(), to.as_ref(), &mut |done, total| {
                progress(kind, done, total)
            })?;
            out.push((kind, report));
        }
        Ok(out)
    }

    fn open_target(&self, target: &Target, kind: crate::service::ScopeKind) -> Result<Box<dyn Store>> {
        match target {
            Target::Sqlite(dir) => {
                let location = crate::location::DataLocation::resolve(dir, &self.location().project_root);
                let path = match kind {
                    crate::service::ScopeKind::Project => location.project_db,
                    crate::service::ScopeKind::User => location.user_db,
                };
                let timeout = std::time::Duration::from_millis(self.config().storage.busy_timeout_ms);
                Ok(Box::new(crate::store::sqlite::SqliteStore::open(&path, timeout)?))
            }
            #[cfg(feature = "postgres")]
            Target::Postgres(url) => {
                use crate::store::postgres::{PgOptions, PgStore};
                let options = PgOptions {
                    statement_timeout_ms: self.config().storage.statement_timeout_ms,
                    ..PgOptions::default()
                };
                Ok(Box::new(PgStore::open(url, &self.scope_key(kind), &options)?))
            }
            #[cfg(not(feature = "postgres"))]
            Target::Postgres(url) => Err(crate::error::Error::Store(crate::store::StoreError::Open {
                path: crate::config::url_without_password(url),
                message: "this subcog was built without PostgreSQL support (cargo feature `postgres`)".into(),
            })),
        }
    }
}
