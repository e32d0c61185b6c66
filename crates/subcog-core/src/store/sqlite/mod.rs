//! The SQLite store: one database file per scope (a project, or the user).
//!
//! WAL journaling lets readers run while one process writes; every write takes the lock
//! up front (`BEGIN IMMEDIATE`) and waits up to the busy timeout, so concurrent hooks, the
//! MCP server and the CLI never see a half-applied capture or lose one to a lock upgrade.
//! `synchronous = FULL` makes a committed capture survive power loss.

mod enrichment;
#[cfg(test)]
mod keyword_tests;
mod keywords;
mod migrate;
mod rows;
mod text;
mod vectors;

pub use migrate::latest_version;

use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params_from_iter};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::{
    BeforeCommit, BeforeInsertCommit, ConsolidationWrite, EmbeddingCount, InsertOutcome, ListOrder, MemoryFilter,
    PutOutcome, RecordedTransition, Store, StoreError, StoreStats, TermStats, Vectors,
};
use crate::embed::EmbeddingModel;
use crate::model::{ConsolidationResult, Memory, MemoryEdge, MemoryId, MemorySummary, SearchHit, Status, Supersession};
use std::collections::{BTreeMap, HashMap};

/// BM25 column weights for content, summary, tags and context (tuned on LoCoMo).
const BM25_WEIGHTS: &str = "1.0, 0.6, 0.4, 0.6";
/// The same weights as numbers, for the resident keyword index (a test keeps them equal).
const BM25_WEIGHT_VALUES: [f64; 4] = [1.0, 0.6, 0.4, 0.6];

/// A store backed by one SQLite database file.
pub struct SqliteStore {
    path: PathBuf,
    label: String,
    busy_timeout: Duration,
    conn: Mutex<Connection>,
    vectors: Mutex<Option<vectors::VectorCache>>,
    /// The last keyword ranking, reused by a recall's second look ([`text`]).
    text_ranking: Mutex<Option<text::TextRanking>>,
    /// The resident keyword index, once a long-lived process asked for it ([`keywords`]).
    keywords: Mutex<Option<keywords::KeywordCache>>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").field("path", &self.path).finish()
    }
}

/// Maps a rusqlite error to a store error that says what the user can do about it.
pub(crate) fn map_err(path: &str, e: rusqlite::Error) -> StoreError {
    let path = path.to_string();
    match &e {
        rusqlite::Error::SqliteFailure(err, msg) => {
            let message = msg.clone().unwrap_or_else(|| err.to_string());
            match err.code {
                ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => StoreError::Busy { path, waited_ms: 0 },
                ErrorCode::DiskFull => StoreError::DiskFull { path },
                ErrorCode::ReadOnly => StoreError::ReadOnly { path, message },
                ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt => StoreError::Corrupt { path, message },
                ErrorCode::CannotOpen | ErrorCode::PermissionDenied => StoreError::Open { path, message },
                _ => StoreError::Backend { path, message },
            }
        }
        _ => StoreError::Backend {
            path,
            message: e.to_string(),
        },
    }
}

/// SQLite's `quick_check` of the database at `path`, read-only: `Corrupt` when it finds
/// damage (or the file is not a database).
pub fn quick_check(path: &Path) -> Result<(), StoreError> {
    let label = path.display().to_string();
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| map_err(&label, e))?;
    let mut stmt = conn.prepare("PRAGMA quick_check").map_err(|e| map_err(&label, e))?;
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| map_err(&label, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| map_err(&label, e))?;
    match rows.first().map(String::as_str) {
        Some("ok") => Ok(()),
        _ => Err(StoreError::Corrupt {
            path: label,
            message: rows.into_iter().take(3).collect::<Vec<_>>().join("; "),
        }),
    }
}

impl SqliteStore {
    /// Opens (creating when needed) the database at `path` and migrates it.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Self, StoreError> {
        let label = path.display().to_string();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io_error(&dir.display().to_string(), e))?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| match map_err(&label, e) {
            StoreError::Open { path: p, message } => readonly_or_open(path, p, message),
            other => other,
        })?;
        // Before WAL mode is set: SQLite gives the -wal and -shm files the database's mode.
        for file in [
            path.to_path_buf(),
            path.with_extension("db-wal"),
            path.with_extension("db-shm"),
        ] {
            if let Err(e) = crate::private::restrict_file(&file) {
                tracing::warn!(path = %file.display(), error = %e, "cannot make the database private (mode 0600)");
            }
        }
        Self::setup(conn, path.to_path_buf(), label, busy_timeout, true).map_err(|e| match e {
            StoreError::Open { path: p, message } => readonly_or_open(path, p, message),
            other => other,
        })
    }

    /// An empty store in memory (dry runs against a store that does not exist yet, tests).
    pub fn open_in_memory() -> Result<Self, StoreError> {
        let label = ":memory:".to_string();
        let conn = Connection::open_in_memory().map_err(|e| map_err(&label, e))?;
        Self::setup(conn, PathBuf::from(":memory:"), label, Duration::from_secs(1), false)
    }

    fn setup(
        mut conn: Connection,
        path: PathBuf,
        label: String,
        busy_timeout: Duration,
        wal: bool,
    ) -> Result<Self, StoreError> {
        conn.busy_timeout(busy_timeout).map_err(|e| map_err(&label, e))?;
        if wal {
            set_wal(&conn, &label, busy_timeout)?;
        }
        conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
            .map_err(|e| map_err(&label, e))?;
        migrate::migrate(&mut conn, &label).map_err(|e| with_wait(e, busy_timeout))?;
        if let Err(e) = migrate::backfill_time_refs(&mut conn, &label) {
            // Not fatal: rows without stored references are resolved when read.
            tracing::warn!(error = %e, path = %label, "could not store time references of older memories");
        }
        Ok(SqliteStore {
            path,
            label,
            busy_timeout,
            conn: Mutex::new(conn),
            vectors: Mutex::new(None),
            text_ranking: Mutex::new(None),
            keywords: Mutex::new(None),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads a value from the store's key/value metadata.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let conn = self.lock()?;
        conn.query_row("SELECT value FROM store_meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Writes a value to the store's key/value metadata.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        let conn = self.lock()?;
        conn.execute(
            "INSERT INTO store_meta (key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )
        .map(|_| ())
        .map_err(|e| self.err(e))
    }

    fn lock(&self) -> Result<MutexGuard<'_, Connection>, StoreError> {
        self.conn.lock().map_err(|_| StoreError::Backend {
            path: self.label.clone(),
            message: "connection lock poisoned by an earlier panic".into(),
        })
    }

    fn err(&self, e: rusqlite::Error) -> StoreError {
        with_wait(map_err(&self.label, e), self.busy_timeout)
    }

    fn insert_in(
        &self,
        tx: &rusqlite::Transaction<'_>,
        m: &Memory,
        vector: Option<(&EmbeddingModel, &[f32])>,
    ) -> Result<InsertOutcome, StoreError> {
        let id = m.id.to_string();
        let exists: bool = tx
            .query_row("SELECT 1 FROM memories WHERE id = ?1", [&id], |_| Ok(true))
            .optional()
            .map_err(|e| self.err(e))?
            .unwrap_or(false);
        if exists {
            return Ok(InsertOutcome::DuplicateId(m.id));
        }
        if m.is_live()
            && let Some(existing) = self.live_duplicate(tx, m)?
        {
            return Ok(InsertOutcome::DuplicateContent(existing));
        }
        let sql = format!(
            "INSERT INTO memories ({}) VALUES ({})",
            rows::COLUMNS.join(", "),
            vec!["?"; rows::COLUMNS.len()].join(", ")
        );
        tx.execute(&sql, params_from_iter(rows::to_values(m)))
            .map_err(|e| self.err(e))?;
        if let Some((model, v)) = vector {
            self.put_vector_in(tx, &m.id, model, v)?;
        }
        Ok(InsertOutcome::Inserted(m.id))
    }

    fn live_duplicate(&self, conn: &Connection, m: &Memory) -> Result<Option<MemoryId>, StoreError> {
        let found: Option<String> = conn
            .query_row(
                "SELECT id FROM memories WHERE namespace = ?1 AND domain = ?2 AND content_hash = ?3
                   AND status <> 'deleted' AND id <> ?4",
                [
                    m.namespace.as_str(),
                    m.domain.as_str(),
                    &m.content_hash,
                    &m.id.to_string(),
                ],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        Ok(found.and_then(|s| s.parse().ok()))
    }

    fn query_memories(&self, sql: &str, params: Vec<Value>) -> Result<Vec<Memory>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let mut rows = stmt.query(params_from_iter(params)).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            out.push(rows::from_row(&self.label, row)?);
        }
        Ok(out)
    }

    /// Runs a query whose columns are [`rows::HIT_COLUMNS`] followed by one extra value (a
    /// rank, a distance, a seq) and returns each hit (score 0) with it.
    pub(super) fn query_hits<T: rusqlite::types::FromSql>(
        &self,
        sql: &str,
        params: Vec<Value>,
    ) -> Result<Vec<(SearchHit, T)>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let mut rows_iter = stmt.query(params_from_iter(params)).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(row) = rows_iter.next().map_err(|e| self.err(e))? {
            let hit = rows::hit_from_row(&self.label, row, 0.0)?;
            let extra: T = row.get(rows::HIT_COLUMN_COUNT).map_err(|e| self.err(e))?;
            out.push((hit, extra));
        }
        Ok(out)
    }

    fn size_on_disk(&self) -> u64 {
        ["", "-wal", "-shm"]
            .iter()
            .filter_map(|suffix| {
                let mut p = self.path.clone().into_os_string();
                p.push(suffix);
                std::fs::metadata(p).ok().map(|m| m.len())
            })
            .sum()
    }
}

impl Store for SqliteStore {
    fn location(&self) -> String {
        self.label.clone()
    }

    fn insert_many_then(
        &self,
        memories: &[Memory],
        vectors: Option<Vectors<'_>>,
        dry_run: bool,
        before_commit: BeforeInsertCommit<'_>,
    ) -> Result<Vec<InsertOutcome>, StoreError> {
        if let Some(v) = vectors
            && v.vectors.len() != memories.len()
        {
            return Err(StoreError::Backend {
                path: self.label.clone(),
                message: format!("{} vectors for {} memories", v.vectors.len(), memories.len()),
            });
        }
        let _span = tracing::debug_span!("store.sqlite.insert_many", count = memories.len(), dry_run).entered();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let mut outcomes = Vec::with_capacity(memories.len());
        for (i, m) in memories.iter().enumerate() {
            let vector = vectors.and_then(|v| v.vectors.get(i).map(|x| (v.model, x.as_slice())));
            outcomes.push(self.insert_in(&tx, m, vector)?);
        }
        if dry_run {
            tx.rollback().map_err(|e| self.err(e))?;
        } else {
            // Dropping the transaction on error rolls it back.
            before_commit(&outcomes)?;
            tx.commit().map_err(|e| self.err(e))?;
        }
        Ok(outcomes)
    }

    fn put_records(&self, memories: &[Memory]) -> Result<Vec<PutOutcome>, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.put_records", count = memories.len()).entered();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let mut outcomes = Vec::with_capacity(memories.len());
        let select = format!("SELECT {} FROM memories m WHERE m.id = ?1", rows::select_list("m"));
        // Recall counts written by other processes since the notes were read are kept.
        let n = rows::COLUMNS.len();
        let update = format!(
            "UPDATE memories SET {} WHERE id = ?{n}",
            rows::COLUMNS
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, c)| match *c {
                    "activation_count" => format!("activation_count = max(activation_count, ?{i})"),
                    "last_accessed" =>
                        format!("last_accessed = coalesce(max(last_accessed, ?{i}), last_accessed, ?{i})"),
                    c => format!("{c} = ?{i}"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
        for m in memories {
            let existing = {
                let mut stmt = tx.prepare_cached(&select).map_err(|e| self.err(e))?;
                let mut found = stmt.query([m.id.to_string()]).map_err(|e| self.err(e))?;
                match found.next().map_err(|e| self.err(e))? {
                    Some(row) => Some(rows::from_row(&self.label, row)?),
                    None => None,
                }
            };
            // Same record, or the index already holds a newer version (an edit that landed
            // after the notes were read): keep the row.
            if existing.as_ref() == Some(m) || existing.as_ref().is_some_and(|e| e.updated_at > m.updated_at) {
                outcomes.push(PutOutcome::Unchanged);
                continue;
            }
            if m.is_live()
                && let Some(other) = self.live_duplicate(&tx, m)?
            {
                outcomes.push(PutOutcome::DuplicateContent(other));
                continue;
            }
            match existing {
                None => {
                    self.insert_in(&tx, m, None)?;
                    outcomes.push(PutOutcome::Inserted);
                }
                Some(old) => {
                    let mut values: Vec<Value> = rows::to_values(m).into_iter().skip(1).collect();
                    values.push(Value::Text(m.id.to_string()));
                    tx.execute(&update, params_from_iter(values)).map_err(|e| self.err(e))?;
                    if old.content_hash != m.content_hash {
                        tx.execute("DELETE FROM memory_embeddings WHERE memory_id = ?1", [m.id.to_string()])
                            .map_err(|e| self.err(e))?;
                    }
                    outcomes.push(PutOutcome::Replaced);
                }
            }
        }
        tx.commit().map_err(|e| self.err(e))?;
        Ok(outcomes)
    }

    fn get(&self, id: &MemoryId) -> Result<Option<Memory>, StoreError> {
        let sql = format!("SELECT {} FROM memories m WHERE m.id = ?1", rows::select_list("m"));
        Ok(self.query_memories(&sql, vec![Value::Text(id.to_string())])?.pop())
    }

    fn get_many(&self, ids: &[MemoryId]) -> Result<Vec<Memory>, StoreError> {
        let mut out = Vec::with_capacity(ids.len());
        // SQLite allows 32,766 parameters; stay well below.
        for chunk in ids.chunks(500) {
            let sql = format!(
                "SELECT {} FROM memories m WHERE m.id IN ({})",
                rows::select_list("m"),
                vec!["?"; chunk.len()].join(", ")
            );
            out.extend(self.query_memories(&sql, chunk.iter().map(|id| Value::Text(id.to_string())).collect())?);
        }
        Ok(out)
    }

    fn update_then(
        &self,
        memory: &Memory,
        vector: Option<(&EmbeddingModel, &[f32])>,
        before_commit: BeforeCommit<'_>,
    ) -> Result<bool, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.update", memory_id = %memory.id).entered();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        if memory.is_live()
            && let Some(existing) = self.live_duplicate(&tx, memory)?
        {
            return Err(StoreError::Duplicate { existing });
        }
        let old_hash: Option<String> = tx
            .query_row(
                "SELECT content_hash FROM memories WHERE id = ?1",
                [memory.id.to_string()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        let Some(old_hash) = old_hash else {
            return Ok(false);
        };
        // Only what a user edits is written: activation and enrichment written meanwhile
        // by recalls or consolidation in other processes are kept.
        let (sets, mut values): (Vec<String>, Vec<Value>) = rows::COLUMNS
            .iter()
            .zip(rows::to_values(memory))
            .filter(|(c, _)| rows::EDITABLE.contains(c))
            .map(|(c, v)| (format!("{c} = ?"), v))
            .unzip();
        values.push(Value::Text(memory.id.to_string()));
        tx.execute(
            &format!("UPDATE memories SET {} WHERE id = ?", sets.join(", ")),
            params_from_iter(values),
        )
        .map_err(|e| self.err(e))?;
        if old_hash != memory.content_hash {
            // A vector of the old text would keep ranking the memory by what it used to say.
            tx.execute(
                "DELETE FROM memory_embeddings WHERE memory_id = ?1",
                [memory.id.to_string()],
            )
            .map_err(|e| self.err(e))?;
        }
        if let Some((model, v)) = vector {
            self.put_vector_in(&tx, &memory.id, model, v)?;
        }
        before_commit()?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(true)
    }

    fn delete_hard_then(&self, id: &MemoryId, before_commit: BeforeCommit<'_>) -> Result<bool, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.delete_hard", memory_id = %id).entered();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let id = id.to_string();
        // Enrichment rows that name the memory go with it.
        for sql in [
            "DELETE FROM edges WHERE source_id = ?1 OR target_id = ?1",
            "DELETE FROM supersessions WHERE superseder_id = ?1 OR superseded_id = ?1",
            "DELETE FROM memory_embeddings WHERE memory_id = ?1",
        ] {
            tx.execute(sql, [&id]).map_err(|e| self.err(e))?;
        }
        let changed = tx
            .execute("DELETE FROM memories WHERE id = ?1", [&id])
            .map_err(|e| self.err(e))?;
        if changed > 0 {
            before_commit()?;
        }
        tx.commit().map_err(|e| self.err(e))?;
        Ok(changed > 0)
    }

    fn list(&self, filter: &MemoryFilter, order: ListOrder, limit: Option<usize>) -> Result<Vec<Memory>, StoreError> {
        let (clause, mut params) = rows::filter_sql(filter);
        let order_by = match order {
            ListOrder::NewestFirst => "m.created_at DESC, m.id DESC",
            ListOrder::OldestFirst => "m.created_at ASC, m.id ASC",
            // Matches the expression index of migration 0006, so SQLite walks it in order.
            ListOrder::Retention => {
                "(CASE m.tier WHEN 'hot' THEN 0 WHEN 'warm' THEN 1 WHEN 'cold' THEN 2 ELSE 3 END),
                 m.retention_score DESC, m.created_at DESC, m.id DESC"
            }
        };
        // The context order walks its index and stops at the limit; without the hint the
        // planner prefers the tier index for the tier filter and sorts everything.
        let hint = if order == ListOrder::Retention && filter.namespaces.len() == 1 {
            // One namespace (the context's per-namespace candidates): seek to it (0009).
            "INDEXED BY memories_namespace_context_order"
        } else if order == ListOrder::Retention {
            "INDEXED BY memories_context_order"
        } else {
            ""
        };
        let mut sql = format!(
            "SELECT {} FROM memories m {hint} WHERE {clause} ORDER BY {order_by}",
            rows::select_list("m")
        );
        if let Some(limit) = limit {
            sql.push_str(" LIMIT ?");
            params.push(Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
        }
        self.query_memories(&sql, params)
    }

    fn search_text(&self, terms: &[String], filter: &MemoryFilter, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.search_text", terms = terms.len(), limit).entered();
        if terms.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let expression = rows::match_expression(terms);
        // Fast path: rank inside FTS alone, then join a few candidates and filter. Exact
        // whenever enough candidates survive the filter; otherwise fall back to one query
        // that filters every match before taking the top `limit`.
        let mut candidates = limit.saturating_mul(3).saturating_add(20);
        if self.has_keyword_index() {
            // Ranking is cheap here: widen the candidates until enough pass the filter.
            loop {
                let (hits, every_match) = self.ranked(&expression, terms, filter, Some(candidates), limit)?;
                if hits.len() >= limit || every_match {
                    return Ok(hits);
                }
                candidates = candidates.saturating_mul(4);
            }
        }
        let (fast, _) = self.ranked(&expression, terms, filter, Some(candidates), limit)?;
        if fast.len() >= limit {
            return Ok(fast);
        }
        // Few results: either few matches (the full query is cheap too) or a filter that
        // removed most candidates (only the full query is exact).
        Ok(self.ranked(&expression, terms, filter, None, limit)?.0)
    }

    fn search_vector(
        &self,
        model: &EmbeddingModel,
        query: &[f32],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.search_vector_impl(model, query, filter, limit)
    }

    fn prepare_vectors(&self) -> Result<(), StoreError> {
        self.prepare_vectors_impl()
    }

    fn prepare_keywords(&self) -> Result<(), StoreError> {
        self.prepare_keywords_impl()
    }

    fn search_time(
        &self,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.search_time_impl(start, end, filter, limit)
    }

    fn put_embeddings(&self, model: &EmbeddingModel, items: &[(MemoryId, Vec<f32>)]) -> Result<usize, StoreError> {
        self.put_embeddings_impl(model, items)
    }

    fn drop_other_embeddings(&self, model: &EmbeddingModel) -> Result<usize, StoreError> {
        self.drop_other_embeddings_impl(model)
    }

    fn missing_embeddings(&self, model: &EmbeddingModel, limit: usize) -> Result<Vec<Memory>, StoreError> {
        self.missing_embeddings_impl(model, limit)
    }

    fn embedding_counts(&self) -> Result<Vec<EmbeddingCount>, StoreError> {
        self.embedding_counts_impl()
    }

    fn touch(&self, ids: &[MemoryId], at: DateTime<Utc>) -> Result<(), StoreError> {
        self.touch_impl(ids, at)
    }

    fn vectors_of(&self, model: &EmbeddingModel, ids: &[MemoryId]) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        self.vectors_of_impl(model, ids)
    }

    fn vectors(&self, model: &EmbeddingModel) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        self.vectors_impl(model)
    }

    fn apply_consolidation(
        &self,
        write: &ConsolidationWrite,
        result: &ConsolidationResult,
        before_commit: BeforeCommit<'_>,
    ) -> Result<usize, StoreError> {
        self.apply_consolidation_impl(write, result, before_commit)
    }

    fn save_run(&self, result: &ConsolidationResult, plan: Option<&str>) -> Result<(), StoreError> {
        self.save_run_impl(result, plan)
    }

    fn runs(&self, limit: usize) -> Result<Vec<ConsolidationResult>, StoreError> {
        self.runs_impl(limit)
    }

    fn unfinished_run(&self) -> Result<Option<(ConsolidationResult, String)>, StoreError> {
        self.unfinished_run_impl()
    }

    fn summaries(&self) -> Result<Vec<MemorySummary>, StoreError> {
        self.summaries_impl()
    }

    fn edges(&self, node: Option<&str>) -> Result<Vec<MemoryEdge>, StoreError> {
        self.edges_impl(node)
    }

    fn supersessions(&self) -> Result<Vec<Supersession>, StoreError> {
        self.supersessions_impl()
    }

    fn transitions(&self, limit: usize) -> Result<Vec<RecordedTransition>, StoreError> {
        self.transitions_impl(None, limit)
    }

    fn transitions_of(&self, memory_id: &str, limit: usize) -> Result<Vec<RecordedTransition>, StoreError> {
        self.transitions_impl(Some(memory_id), limit)
    }

    fn namespaces(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT DISTINCT namespace FROM memories WHERE status <> 'deleted' ORDER BY namespace")
            .map_err(|e| self.err(e))?;
        let names = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e))?;
        Ok(names)
    }

    fn tier_counts(&self, status: Status) -> Result<BTreeMap<String, u64>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT tier, count(*) FROM memories WHERE status = ?1 GROUP BY tier")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([status.as_str()], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .map_err(|e| self.err(e))?;
        let mut out = BTreeMap::new();
        for row in rows {
            let (tier, n) = row.map_err(|e| self.err(e))?;
            out.insert(tier, u64::try_from(n).unwrap_or(0));
        }
        Ok(out)
    }

    fn term_stats(&self, terms: &[String], ids: &[MemoryId]) -> Result<TermStats, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.term_stats", terms = terms.len()).entered();
        let conn = self.lock()?;
        let docs: i64 = conn
            .prepare_cached("SELECT count(*) FROM memories WHERE status <> 'deleted'")
            .and_then(|mut s| s.query_row([], |r| r.get(0)))
            .map_err(|e| self.err(e))?;
        // The candidates' FTS rowids, once.
        let mut seqs: HashMap<i64, MemoryId> = HashMap::new();
        {
            let mut stmt = conn
                .prepare_cached("SELECT seq FROM memories WHERE id = ?1")
                .map_err(|e| self.err(e))?;
            for id in ids {
                if let Some(seq) = stmt
                    .query_row([id.to_string()], |r| r.get::<_, i64>(0))
                    .optional()
                    .map_err(|e| self.err(e))?
                {
                    seqs.insert(seq, *id);
                }
            }
        }
        let mut out = TermStats {
            docs: u64::try_from(docs).unwrap_or(0),
            ..Default::default()
        };
        let mut count = conn
            .prepare_cached("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?1")
            .map_err(|e| self.err(e))?;
        let mut rows = conn
            .prepare_cached("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1")
            .map_err(|e| self.err(e))?;
        for (i, term) in terms.iter().enumerate() {
            let expression = rows::match_expression(std::slice::from_ref(term));
            let df: i64 = count.query_row([&expression], |r| r.get(0)).map_err(|e| self.err(e))?;
            out.df.push(u64::try_from(df).unwrap_or(0));
            if i >= 64 || seqs.is_empty() || df == 0 {
                continue;
            }
            // A frequent term matches many rows; walking them is still cheaper than a query
            // per candidate, and frequent terms are few after stopwords.
            let mut it = rows.query([&expression]).map_err(|e| self.err(e))?;
            while let Some(row) = it.next().map_err(|e| self.err(e))? {
                let seq: i64 = row.get(0).map_err(|e| self.err(e))?;
                if let Some(id) = seqs.get(&seq) {
                    *out.present.entry(*id).or_default() |= 1u64 << i;
                }
            }
        }
        Ok(out)
    }

    fn ids_with_suffix(&self, suffix: &str, limit: usize) -> Result<Vec<MemoryId>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT id FROM memories WHERE id LIKE '%' || ?1 ORDER BY id LIMIT ?2")
            .map_err(|e| self.err(e))?;
        let pattern = suffix.to_ascii_uppercase().replace(['%', '_'], "");
        let ids = stmt
            .query_map(
                rusqlite::params![pattern, i64::try_from(limit).unwrap_or(i64::MAX)],
                |r| r.get::<_, String>(0),
            )
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for id in ids {
            let id = id.map_err(|e| self.err(e))?;
            if let Ok(parsed) = id.parse() {
                out.push(parsed);
            }
        }
        Ok(out)
    }

    fn purge(&self) -> Result<u64, StoreError> {
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        for table in [
            "memory_embeddings",
            "memory_summaries",
            "edges",
            "supersessions",
            "tier_transitions",
            "consolidation_runs",
        ] {
            tx.execute(&format!("DELETE FROM {table}"), [])
                .map_err(|e| self.err(e))?;
        }
        let n = tx.execute("DELETE FROM memories", []).map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    fn stats(&self) -> Result<StoreStats, StoreError> {
        let conn = self.lock()?;
        let count_by = |column: &str, live_only: bool| -> Result<_, StoreError> {
            let filter = if live_only { "WHERE status <> 'deleted'" } else { "" };
            let mut stmt = conn
                .prepare(&format!(
                    "SELECT {column}, count(*) FROM memories {filter} GROUP BY {column}"
                ))
                .map_err(|e| self.err(e))?;
            let pairs = stmt
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?;
            Ok(pairs
                .into_iter()
                .map(|(k, v)| (k, u64::try_from(v).unwrap_or(0)))
                .collect())
        };
        let by_status: std::collections::BTreeMap<String, u64> = count_by(crate::store::CURRENT_STATUS_SQL, false)?;
        Ok(StoreStats {
            total: by_status.values().sum(),
            by_status,
            by_namespace: count_by("namespace", true)?,
            by_tier: count_by("tier", true)?,
            by_domain: count_by("domain", true)?,
            schema_version: migrate::current_version(&conn).unwrap_or(0),
            size_bytes: self.size_on_disk(),
        })
    }
}

/// Switches to WAL. Changing the journal mode needs a moment of exclusive access, which the
/// busy handler does not cover, so retry briefly when another process holds the file.
fn set_wal(conn: &Connection, label: &str, busy_timeout: Duration) -> Result<(), StoreError> {
    let deadline = std::time::Instant::now() + busy_timeout;
    loop {
        match conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)) {
            Ok(_) => return Ok(()),
            Err(e) => {
                let mapped = map_err(label, e);
                if matches!(mapped, StoreError::Busy { .. }) && std::time::Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                return Err(with_wait(mapped, busy_timeout));
            }
        }
    }
}

/// Fills in how long a busy error waited.
fn with_wait(e: StoreError, waited: Duration) -> StoreError {
    match e {
        StoreError::Busy { path, .. } => StoreError::Busy {
            path,
            waited_ms: u64::try_from(waited.as_millis()).unwrap_or(u64::MAX),
        },
        other => other,
    }
}

/// SQLite says only "unable to open database file"; tell a read-only directory apart by
/// trying to create a file next to the database.
fn readonly_or_open(db: &Path, path: String, message: String) -> StoreError {
    let dir = db.parent().unwrap_or(Path::new("."));
    let probe = dir.join(format!(".subcog-write-probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            StoreError::Open { path, message }
        }
        Err(e) => StoreError::ReadOnly {
            path: dir.display().to_string(),
            message: e.to_string(),
        },
    }
}

fn io_error(path: &str, e: std::io::Error) -> StoreError {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => StoreError::ReadOnly {
            path: path.to_string(),
            message: e.to_string(),
        },
        std::io::ErrorKind::StorageFull => StoreError::DiskFull { path: path.to_string() },
        _ => StoreError::Open {
            path: path.to_string(),
            message: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests;
