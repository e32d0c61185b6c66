//! Storage: the [`Store`] trait every backend implements, its error type and query types.
//!
//! The trait is free of backend types (no rusqlite here) so a PostgreSQL store can implement
//! it later. Implementations must be safe to use from several processes at once: the
//! hooks, the MCP server and the CLI open the same store concurrently.

#[cfg(test)]
pub(crate) mod conformance;
#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(test)]
mod ranking_tests;
pub mod sqlite;

use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use thiserror::Error;

use crate::embed::EmbeddingModel;
use crate::model::{
    ConsolidationResult, Domain, Memory, MemoryEdge, MemoryId, MemorySummary, Namespace, SearchHit, Status,
    Supersession, Tier, TierTransition,
};

/// A storage failure.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The database could not be opened or created at this path.
    #[error("cannot open store {path}: {message}")]
    Open {
        /// The database path.
        path: String,
        /// Why.
        message: String,
    },
    /// The store's directory or file is not writable.
    #[error("store {path} is read-only: {message}")]
    ReadOnly {
        /// The database or directory path.
        path: String,
        /// Why.
        message: String,
    },
    /// The database was written by a newer subcog.
    #[error(
        "store {path} has schema version {found}, newer than this subcog understands ({supported}); upgrade subcog"
    )]
    TooNew {
        /// The database path.
        path: String,
        /// Version in the file.
        found: u32,
        /// Highest version this build knows.
        supported: u32,
    },
    /// Another process held the lock past the busy timeout.
    #[error("store {path} is busy (locked by another process) after waiting {waited_ms} ms")]
    Busy {
        /// The database path.
        path: String,
        /// How long we waited.
        waited_ms: u64,
    },
    /// The disk is full.
    #[error("store {path}: disk full")]
    DiskFull {
        /// The database path.
        path: String,
    },
    /// The file is not a database or is damaged.
    #[error("store {path} is corrupt: {message}")]
    Corrupt {
        /// The database path.
        path: String,
        /// Why.
        message: String,
    },
    /// An update would make two live memories with the same content in one namespace.
    #[error("memory {existing} already holds this content in the same namespace and domain")]
    Duplicate {
        /// The memory that holds it.
        existing: MemoryId,
    },
    /// A row could not be turned into a memory.
    #[error("store {path}: bad row for memory {id}: {message}")]
    BadRow {
        /// The database path.
        path: String,
        /// The row's id.
        id: String,
        /// Why.
        message: String,
    },
    /// A step that had to succeed with the write (such as the git note) failed, so the
    /// write was rolled back.
    #[error("write rolled back: {reason}")]
    Aborted {
        /// Why.
        reason: String,
    },
    /// Any other backend error.
    #[error("store {path}: {message}")]
    Backend {
        /// The database path.
        path: String,
        /// The backend's message.
        message: String,
    },
}

/// What happened to one memory handed to [`Store::insert`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertOutcome {
    /// Stored under this id.
    Inserted(MemoryId),
    /// Not stored: a live memory with the same content, namespace and domain exists.
    DuplicateContent(MemoryId),
    /// Not stored: a memory with this id already exists.
    DuplicateId(MemoryId),
}

impl InsertOutcome {
    /// The id that holds the content afterwards.
    pub fn id(&self) -> MemoryId {
        match *self {
            InsertOutcome::Inserted(id) | InsertOutcome::DuplicateContent(id) | InsertOutcome::DuplicateId(id) => id,
        }
    }
}

/// Filters shared by listing and searching. Empty lists mean "any".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryFilter {
    /// Any of these namespaces.
    pub namespaces: Vec<Namespace>,
    /// All of these tags.
    pub tags: Vec<String>,
    /// Any of these domains.
    pub domains: Vec<Domain>,
    /// Any of these statuses; empty means every status except `deleted` and `quarantined`
    /// (held back until a user releases it, so only ever listed when asked for).
    pub statuses: Vec<Status>,
    /// Any of these tiers.
    pub tiers: Vec<Tier>,
    /// Created at or after.
    pub since: Option<DateTime<Utc>>,
    /// Created before.
    pub until: Option<DateTime<Utc>>,
    /// Happened in `[start, end)`: a dated reference in the content overlaps the period, or
    /// the memory has none and was captured in it (event time, not capture time).
    pub happened: Option<(DateTime<Utc>, DateTime<Utc>)>,
}

impl MemoryFilter {
    /// Whether `memory` passes the status filter, by its [`Memory::current_status`].
    pub fn admits(&self, memory: &Memory) -> bool {
        let status = memory.current_status();
        if self.statuses.is_empty() {
            !matches!(status, Status::Deleted | Status::Quarantined)
        } else {
            self.statuses.contains(&status)
        }
    }
}

/// The SQL condition on a row aliased `m` for a status as [`Memory::current_status`]
/// reads it: "superseded" takes active rows with a replacement, "active" leaves them out.
pub(crate) fn status_condition(status: Status) -> String {
    match status {
        Status::Active => "(m.status = 'active' AND m.superseded_by IS NULL)".into(),
        Status::Superseded => {
            "(m.status = 'superseded' OR (m.status = 'active' AND m.superseded_by IS NOT NULL))".into()
        }
        other => format!("m.status = '{}'", other.as_str()),
    }
}

/// The SQL condition for a filter's statuses (any of them).
pub(crate) fn statuses_condition(statuses: &[Status]) -> String {
    let parts: Vec<String> = statuses.iter().map(|s| status_condition(*s)).collect();
    format!("({})", parts.join(" OR "))
}

/// The SQL expression that groups rows by [`Memory::current_status`] (stats).
pub(crate) const CURRENT_STATUS_SQL: &str =
    "CASE WHEN status = 'active' AND superseded_by IS NOT NULL THEN 'superseded' ELSE status END";

/// Order of [`Store::list`] results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListOrder {
    /// Newest first (the default for humans).
    #[default]
    NewestFirst,
    /// Oldest first (export order).
    OldestFirst,
    /// HOT first, then WARM, COLD, ARCHIVED; by retention score within a tier, newest
    /// first on ties (session context order).
    Retention,
}

/// Counts describing a store.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StoreStats {
    /// Memories by status.
    pub by_status: BTreeMap<String, u64>,
    /// Live memories by namespace.
    pub by_namespace: BTreeMap<String, u64>,
    /// Live memories by tier.
    pub by_tier: BTreeMap<String, u64>,
    /// Live memories by domain.
    pub by_domain: BTreeMap<String, u64>,
    /// All rows, whatever their status.
    pub total: u64,
    /// Schema version of the database.
    pub schema_version: u32,
    /// Size of the database files on disk, in bytes.
    pub size_bytes: u64,
}

/// What happened to one memory handed to [`Store::put_records`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutOutcome {
    /// It was not in the store and now is.
    Inserted,
    /// It replaced a different stored version.
    Replaced,
    /// The stored version was identical.
    Unchanged,
    /// Not stored: another live memory holds the same content, namespace and domain.
    DuplicateContent(MemoryId),
}

/// Everything a consolidation run writes to one store, applied in one transaction.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ConsolidationWrite {
    /// Memories whose enrichment (tier, retention, superseded_by, cluster_id) changes;
    /// their other fields are not written.
    pub enrichment: Vec<Memory>,
    /// Memories whose user-visible fields a rule changes, each with the `updated_at` it had
    /// when the run was planned: a memory edited since is left alone.
    pub edits: Vec<(Memory, DateTime<Utc>)>,
    /// Summaries to write (replacing any with the same id).
    pub summaries: Vec<MemorySummary>,
    /// Summaries to remove.
    pub removed_summaries: Vec<String>,
    /// Nodes whose outgoing edges are replaced by those in `edges`.
    pub edge_sources: Vec<String>,
    /// The new edges.
    pub edges: Vec<MemoryEdge>,
    /// Memories whose supersession records are replaced by those in `supersessions`.
    pub supersession_scope: Vec<String>,
    /// The new supersessions.
    pub supersessions: Vec<Supersession>,
    /// Tier changes to record.
    pub transitions: Vec<TierTransition>,
}

/// A recorded tier change with its run and time.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RecordedTransition {
    /// The change.
    #[serde(flatten)]
    pub transition: TierTransition,
    /// The run that made it.
    pub run_id: String,
    /// When.
    pub at: DateTime<Utc>,
}

/// Runs inside a write transaction just before it commits; an error rolls the write back.
pub type BeforeCommit<'a> = &'a mut dyn FnMut() -> Result<(), StoreError>;

/// Like [`BeforeCommit`], given the outcomes of an insert.
pub type BeforeInsertCommit<'a> = &'a mut dyn FnMut(&[InsertOutcome]) -> Result<(), StoreError>;

/// Vectors to store with memories, one per memory, all of one model.
#[derive(Debug, Clone, Copy)]
pub struct Vectors<'a> {
    /// The model that made them.
    pub model: &'a EmbeddingModel,
    /// One vector per memory, in the same order.
    pub vectors: &'a [Vec<f32>],
}

/// Refuses a vector whose length is not the model's dimension (every backend, before writing).
pub fn check_dimension(location: &str, model: &EmbeddingModel, vector: &[f32]) -> Result<(), StoreError> {
    if vector.len() == model.dim {
        return Ok(());
    }
    Err(StoreError::Backend {
        path: location.to_string(),
        message: format!(
            "vector of length {} for a {}-dimensional model",
            vector.len(),
            model.dim
        ),
    })
}

/// How many vectors a store holds for one model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddingCount {
    /// Model id.
    pub model_id: String,
    /// Dimension.
    pub dim: usize,
    /// Vectors stored.
    pub count: u64,
}

/// A persistent store of memories.
pub trait Store: Send + Sync {
    /// Human-readable location (a file path or URL without credentials).
    fn location(&self) -> String;

    /// Stores a memory unless its id or its content (hash, namespace, domain) is already
    /// live in the store; atomic with respect to concurrent writers.
    fn insert(&self, memory: &Memory) -> Result<InsertOutcome, StoreError> {
        let _span = tracing::debug_span!("store.insert", memory_id = %memory.id).entered();
        let mut outcomes = self.insert_many(std::slice::from_ref(memory), None, false)?;
        outcomes.pop().ok_or_else(|| StoreError::Backend {
            path: self.location(),
            message: "insert returned no outcome".into(),
        })
    }

    /// Inserts many memories (and their vectors, when given) in one transaction: all
    /// outcomes are applied, or none. With `dry_run` the outcomes are computed and the
    /// transaction rolled back.
    fn insert_many(
        &self,
        memories: &[Memory],
        vectors: Option<Vectors<'_>>,
        dry_run: bool,
    ) -> Result<Vec<InsertOutcome>, StoreError> {
        self.insert_many_then(memories, vectors, dry_run, &mut |_| Ok(()))
    }

    /// Like [`Store::insert_many`], running `before_commit` with the outcomes inside the
    /// transaction (not on a dry run); its error rolls everything back.
    fn insert_many_then(
        &self,
        memories: &[Memory],
        vectors: Option<Vectors<'_>>,
        dry_run: bool,
        before_commit: BeforeInsertCommit<'_>,
    ) -> Result<Vec<InsertOutcome>, StoreError>;

    /// Inserts or fully replaces memories (every column, enrichment included) in one
    /// transaction, as when rebuilding from notes. A vector is kept while the content
    /// is unchanged.
    fn put_records(&self, memories: &[Memory]) -> Result<Vec<PutOutcome>, StoreError>;

    /// Fetches a memory by id, whatever its status.
    fn get(&self, id: &MemoryId) -> Result<Option<Memory>, StoreError>;

    /// Writes the user-editable fields (content, summary, namespace, tags, source,
    /// importance, priority, status, updated_at, context) of the memory with the same id;
    /// activation and enrichment stay as stored. When the content changed, the old vector
    /// is dropped and `vector` (if given) stored. Returns false when no such memory exists.
    fn update(&self, memory: &Memory, vector: Option<(&EmbeddingModel, &[f32])>) -> Result<bool, StoreError> {
        self.update_then(memory, vector, &mut || Ok(()))
    }

    /// Like [`Store::update`], running `before_commit` inside the transaction when the
    /// memory exists; its error rolls the update back.
    fn update_then(
        &self,
        memory: &Memory,
        vector: Option<(&EmbeddingModel, &[f32])>,
        before_commit: BeforeCommit<'_>,
    ) -> Result<bool, StoreError>;

    /// Removes a memory for good. Returns false when no such memory exists.
    fn delete_hard(&self, id: &MemoryId) -> Result<bool, StoreError> {
        self.delete_hard_then(id, &mut || Ok(()))
    }

    /// Like [`Store::delete_hard`], running `before_commit` inside the transaction; its
    /// error keeps the memory.
    fn delete_hard_then(&self, id: &MemoryId, before_commit: BeforeCommit<'_>) -> Result<bool, StoreError>;

    /// The memories with these ids, in no particular order; ids not stored are skipped.
    fn get_many(&self, ids: &[MemoryId]) -> Result<Vec<Memory>, StoreError>;

    /// Lists memories matching the filter.
    fn list(&self, filter: &MemoryFilter, order: ListOrder, limit: Option<usize>) -> Result<Vec<Memory>, StoreError>;

    /// Full-text search: the best `limit` matches of `terms` (any term, prefix match) after
    /// filtering, best first.
    fn search_text(&self, terms: &[String], filter: &MemoryFilter, limit: usize) -> Result<Vec<SearchHit>, StoreError>;

    /// Nearest memories to `query` among vectors of `model`, after filtering, best first;
    /// the score is the cosine similarity.
    fn search_vector(
        &self,
        model: &EmbeddingModel,
        query: &[f32],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError>;

    /// Loads what a vector search will need (the index of the model most vectors belong
    /// to), so a recall can do it while the query is being embedded. A no-op for stores
    /// that keep nothing in memory.
    fn prepare_vectors(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Builds (or refreshes) what a resident process keeps for keyword search, so later
    /// searches skip the backend's per-row scoring. Only long-lived processes call it;
    /// results are the same either way. A no-op for stores that keep nothing in memory.
    fn prepare_keywords(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Memories created in `[start, end)` after filtering, closest to the middle first;
    /// the score is 1 at the middle and falls toward the ends.
    fn search_time(
        &self,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError>;

    /// Stores (or replaces) vectors for existing memories; returns how many were stored.
    fn put_embeddings(&self, model: &EmbeddingModel, items: &[(MemoryId, Vec<f32>)]) -> Result<usize, StoreError>;

    /// Removes every vector not made by `model`; returns how many were removed.
    fn drop_other_embeddings(&self, model: &EmbeddingModel) -> Result<usize, StoreError>;

    /// Live memories that have no vector of `model`, oldest first.
    fn missing_embeddings(&self, model: &EmbeddingModel, limit: usize) -> Result<Vec<Memory>, StoreError>;

    /// Vector counts by model.
    fn embedding_counts(&self) -> Result<Vec<EmbeddingCount>, StoreError>;

    /// Records that recall returned these memories: activation_count + 1, last_accessed.
    fn touch(&self, ids: &[MemoryId], at: DateTime<Utc>) -> Result<(), StoreError>;

    /// Every stored vector of `model` with its memory id.
    fn vectors(&self, model: &EmbeddingModel) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError>;

    /// The stored vectors of `model` for these memories (those that have one).
    fn vectors_of(&self, model: &EmbeddingModel, ids: &[MemoryId]) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError>;

    /// Applies a consolidation run's writes and records the run as `result`, in one
    /// transaction; `before_commit` runs inside it. Returns how many rule edits applied.
    fn apply_consolidation(
        &self,
        write: &ConsolidationWrite,
        result: &ConsolidationResult,
        before_commit: BeforeCommit<'_>,
    ) -> Result<usize, StoreError>;

    /// Records a run (a checkpoint with its plan, or a dry run's result).
    fn save_run(&self, result: &ConsolidationResult, plan: Option<&str>) -> Result<(), StoreError>;

    /// Recent runs, newest first.
    fn runs(&self, limit: usize) -> Result<Vec<ConsolidationResult>, StoreError>;

    /// The newest run that saved a plan but never completed, with the plan.
    fn unfinished_run(&self) -> Result<Option<(ConsolidationResult, String)>, StoreError>;

    /// Every cluster summary, newest first.
    fn summaries(&self) -> Result<Vec<MemorySummary>, StoreError>;

    /// Edges touching `node` (as source or target), or every edge.
    fn edges(&self, node: Option<&str>) -> Result<Vec<MemoryEdge>, StoreError>;

    /// Every supersession record.
    fn supersessions(&self) -> Result<Vec<Supersession>, StoreError>;

    /// Recent tier changes, newest first.
    fn transitions(&self, limit: usize) -> Result<Vec<RecordedTransition>, StoreError>;

    /// One memory's tier changes, newest first (`subcog explain`, the viewer's memory page).
    fn transitions_of(&self, memory_id: &str, limit: usize) -> Result<Vec<RecordedTransition>, StoreError>;

    /// Namespaces in use by live memories.
    fn namespaces(&self) -> Result<Vec<String>, StoreError>;

    /// Counts by status, namespace, tier and domain.
    fn stats(&self) -> Result<StoreStats, StoreError>;

    /// Memories with `status`, counted per tier (cheap: for every session start).
    fn tier_counts(&self, status: Status) -> Result<BTreeMap<String, u64>, StoreError>;

    /// How often each term occurs (matched as [`Store::search_text`] matches it) and which
    /// of `ids` contain it: the keyword evidence of prompt recall.
    fn term_stats(&self, terms: &[String], ids: &[MemoryId]) -> Result<TermStats, StoreError>;

    /// Ids ending with `suffix` (case-insensitive), at most `limit`: short handles.
    fn ids_with_suffix(&self, suffix: &str, limit: usize) -> Result<Vec<MemoryId>, StoreError>;

    /// Removes every memory and everything derived from them (a scratch store's cleanup);
    /// returns how many memories were removed.
    fn purge(&self) -> Result<u64, StoreError>;

    /// Takes the scope's consolidation lock where the store is shared between machines (a
    /// lock file in the data directory cannot keep them apart); held until the guard drops,
    /// `None` when another process holds it. File-based stores have nothing to lock here.
    fn lock_runs(&self) -> Result<Option<RunGuard>, StoreError> {
        Ok(Some(Box::new(())))
    }
}

/// Holds a store's consolidation lock until dropped (see [`Store::lock_runs`]).
pub type RunGuard = Box<dyn std::any::Any + Send>;

/// Document frequencies of query terms in a store (see [`Store::term_stats`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TermStats {
    /// Memories in the store (every status but deleted).
    pub docs: u64,
    /// Memories containing each term, in the order of the terms.
    pub df: Vec<u64>,
    /// For each asked-for id that contains any term: which terms (bit `i` = term `i`; the
    /// first 64 terms).
    pub present: std::collections::HashMap<MemoryId, u64>,
}
