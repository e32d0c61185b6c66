//! `PgStore`: the [`Store`] on PostgreSQL with pgvector, for a team's shared memory.
//!
//! One database holds many scopes (projects and the user scope) as rows: every table has a
//! `scope` column and every statement binds it as `$1`, so one project never reads
//! another's memories. Ranking matches SQLite's: BM25 computed from the `tsvector` with
//! the same column weights (`search.rs`), cosine similarity through pgvector's HNSW index,
//! and the same time channel, so recall fuses the channels the same way on both backends.
//!
//! Connections come from a small pool (r2d2), use TLS when the server offers it (rustls
//! with the web PKI roots; `sslmode=require` insists on it), carry a statement timeout,
//! and reads are retried once on a dropped connection.

mod enrichment;
#[cfg(test)]
mod keyword_tests;
mod keywords;
mod rows;
mod schema;
mod search;

pub use schema::latest_version;

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use r2d2::{Pool, PooledConnection};
use r2d2_postgres::PostgresConnectionManager;
use tokio_postgres_rustls::MakeRustlsConnect;

use rows::{Sql, Write};

use super::{
    BeforeCommit, BeforeInsertCommit, ConsolidationWrite, EmbeddingCount, InsertOutcome, ListOrder, MemoryFilter,
    PutOutcome, RecordedTransition, Store, StoreError, StoreStats, TermStats, Vectors,
};
use crate::embed::EmbeddingModel;
use crate::model::{ConsolidationResult, Memory, MemoryEdge, MemoryId, MemorySummary, SearchHit, Status, Supersession};

type Manager = PostgresConnectionManager<MakeRustlsConnect>;
type Conn = PooledConnection<Manager>;

/// How a [`PgStore`] connects.
#[derive(Debug, Clone)]
pub struct PgOptions {
    /// Longest a statement may run, in milliseconds (0 = the server's default).
    pub statement_timeout_ms: u64,
    /// Most connections this process keeps open.
    pub pool_size: u32,
    /// How long to wait for a connection.
    pub connect_timeout: Duration,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            statement_timeout_ms: 30_000,
            pool_size: 4,
            // Short: a hook waiting on a database that is down delays the agent's session.
            connect_timeout: Duration::from_secs(5),
        }
    }
}

/// A scope's memories in a PostgreSQL database.
pub struct PgStore {
    pool: Pool<Manager>,
    scope: String,
    label: String,
    /// Models whose HNSW index this process has seen, so a vector write checks once.
    indexed_models: std::sync::Mutex<std::collections::HashSet<String>>,
    /// The keyword index a long-lived process keeps (`keywords.rs`); `None` until
    /// [`Store::prepare_keywords`] builds it.
    keywords: std::sync::Mutex<Option<keywords::Resident>>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").field("location", &self.label).finish()
    }
}

/// The driver's error with its server detail (the `Display` of `postgres::Error` hides it).
pub(crate) fn describe(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text.push_str(": ");
                text.push_str(&s.to_string());
                source = s.source();
            }
            text
        }
    }
}

/// Maps a driver error to a [`StoreError`] by its SQLSTATE.
pub(crate) fn map_err(label: &str, e: &postgres::Error) -> StoreError {
    let code = e.code().map(|c| c.code().to_string()).unwrap_or_default();
    let message = describe(e);
    match code.as_str() {
        "53100" => StoreError::DiskFull { path: label.into() },
        "55P03" | "40P01" | "40001" | "57014" => StoreError::Busy {
            path: label.into(),
            waited_ms: 0,
        },
        "25006" | "42501" => StoreError::ReadOnly {
            path: label.into(),
            message,
        },
        "XX001" | "XX002" => StoreError::Corrupt {
            path: label.into(),
            message,
        },
        _ => StoreError::Backend {
            path: label.into(),
            message,
        },
    }
}

/// `host:port/dbname`: a URL without its user or password, for messages and logs.
pub fn redacted_url(url: &str) -> String {
    let Ok(config) = url.parse::<postgres::Config>() else {
        return "postgres://(unparsable URL)".into();
    };
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".into());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("postgres://{host}:{port}/{}", config.get_dbname().unwrap_or(""))
}

fn tls() -> Result<MakeRustlsConnect, String> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config =
        rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS setup: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

impl PgStore {
    /// Connects to `url`, migrates the schema when needed, and serves `scope`'s memories.
    pub fn open(url: &str, scope: &str, options: &PgOptions) -> Result<Self, StoreError> {
        let label = format!("{} [{scope}]", redacted_url(url));
        let open = |message: String| StoreError::Open {
            path: label.clone(),
            message,
        };
        let mut config: postgres::Config = url
            .parse()
            .map_err(|e: postgres::Error| open(format!("bad database URL: {}", describe(&e))))?;
        config.connect_timeout(options.connect_timeout);
        if config.get_application_name().is_none() {
            config.application_name("subcog");
        }
        // Vector search walks the HNSW index past filtered-out rows (iterative scans) with a
        // candidate list wide enough for recall's limits, in exact distance order.
        let mut opts = config.get_options().unwrap_or("").to_string();
        opts.push_str(" -c hnsw.ef_search=200 -c hnsw.iterative_scan=strict_order");
        if options.statement_timeout_ms > 0 {
            opts.push_str(&format!(" -c statement_timeout={}", options.statement_timeout_ms));
        }
        config.options(opts.trim());
        let manager = PostgresConnectionManager::new(config, tls().map_err(open)?);
        let pool = Pool::builder()
            .max_size(options.pool_size.max(1))
            .min_idle(Some(0))
            .connection_timeout(options.connect_timeout)
            .build_unchecked(manager);
        let store = PgStore {
            pool,
            scope: scope.to_string(),
            label,
            indexed_models: std::sync::Mutex::default(),
            keywords: std::sync::Mutex::default(),
        };
        let mut conn = store.conn()?;
        schema::migrate(&mut conn, &store.label)?;
        Ok(store)
    }

    /// The scope key this store reads and writes.
    pub fn scope(&self) -> &str {
        &self.scope
    }

    fn conn(&self) -> Result<Conn, StoreError> {
        self.pool.get().map_err(|e| StoreError::Open {
            path: self.label.clone(),
            message: format!("cannot connect: {e}"),
        })
    }

    fn err(&self, e: &postgres::Error) -> StoreError {
        map_err(&self.label, e)
    }

    /// Runs a read, once more on a fresh connection when the first one was closed under it
    /// (a server restart, a failover, an idle connection dropped by a proxy).
    fn read<T>(&self, f: impl Fn(&mut Conn) -> Result<T, postgres::Error>) -> Result<T, StoreError> {
        let mut conn = self.conn()?;
        match f(&mut conn) {
            Ok(v) => Ok(v),
            Err(e) if e.is_closed() || conn.is_closed() => {
                tracing::debug!(store = %self.label, error = %describe(&e), "retrying a read on a new connection");
                drop(conn);
                let mut conn = self.conn()?;
                f(&mut conn).map_err(|e| self.err(&e))
            }
            Err(e) => Err(self.err(&e)),
        }
    }

    /// A value of this scope's `subcog_meta`.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row = self.read(|c| {
            c.query_opt(
                "SELECT value FROM subcog_meta WHERE scope = $1 AND key = $2",
                &[&self.scope, &key],
            )
        })?;
        Ok(row.and_then(|r| r.try_get(0).ok()))
    }

    /// Sets a value of this scope's `subcog_meta`.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), StoreError> {
        self.read(|c| {
            c.execute(
                "INSERT INTO subcog_meta (scope, key, value) VALUES ($1, $2, $3)
                 ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value",
                &[&self.scope, &key, &value],
            )
        })?;
        Ok(())
    }

    /// Takes the scope's consolidation lock (a session advisory lock held on its own
    /// connection until the guard drops); `None` when another process holds it.
    pub fn try_lock_runs(&self) -> Result<Option<RunLock>, StoreError> {
        let mut conn = self.conn()?;
        let key = format!("subcog consolidation {}", self.scope);
        let got: bool = conn
            .query_one("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", &[&key])
            .and_then(|r| r.try_get(0))
            .map_err(|e| self.err(&e))?;
        Ok(got.then_some(RunLock { conn, key }))
    }

    fn live_duplicate(&self, c: &mut impl postgres::GenericClient, m: &Memory) -> Result<Option<MemoryId>, StoreError> {
        let row = c
            .query_opt(
                "SELECT id FROM subcog_memories WHERE scope = $1 AND namespace = $2 AND domain = $3
                   AND content_hash = $4 AND status <> 'deleted' AND id <> $5",
                &[
                    &self.scope,
                    &m.namespace.as_str(),
                    &m.domain.as_str(),
                    &m.content_hash,
                    &m.id.to_string(),
                ],
            )
            .map_err(|e| self.err(&e))?;
        Ok(row
            .and_then(|r| r.try_get::<_, String>(0).ok())
            .and_then(|s| s.parse().ok()))
    }

    fn stored(
        &self,
        c: &mut impl postgres::GenericClient,
        id: &MemoryId,
        lock: bool,
    ) -> Result<Option<Memory>, StoreError> {
        let sql = if lock {
            "SELECT doc FROM subcog_memories WHERE scope = $1 AND id = $2 FOR UPDATE"
        } else {
            "SELECT doc FROM subcog_memories WHERE scope = $1 AND id = $2"
        };
        Ok(rows::query_memories(c, &self.label, sql, &[&self.scope, &id.to_string()])?.pop())
    }

    fn insert_in(
        &self,
        tx: &mut postgres::Transaction<'_>,
        m: &Memory,
        vector: Option<(&EmbeddingModel, &[f32])>,
    ) -> Result<InsertOutcome, StoreError> {
        if rows::write_memory(tx, &self.label, &self.scope, m, Write::Insert)? {
            if let Some((model, v)) = vector {
                self.put_vector_in(tx, &m.id, model, v)?;
            }
            return Ok(InsertOutcome::Inserted(m.id));
        }
        // Nothing written: the id or the live content is taken (possibly by a concurrent
        // writer that committed first).
        let exists = tx
            .query_opt(
                "SELECT 1 FROM subcog_memories WHERE scope = $1 AND id = $2",
                &[&self.scope, &m.id.to_string()],
            )
            .map_err(|e| self.err(&e))?
            .is_some();
        if exists {
            return Ok(InsertOutcome::DuplicateId(m.id));
        }
        match self.live_duplicate(tx, m)? {
            Some(existing) => Ok(InsertOutcome::DuplicateContent(existing)),
            None => Err(StoreError::Backend {
                path: self.label.clone(),
                message: format!("memory {} was neither stored nor found", m.id),
            }),
        }
    }

    fn delete_vectors_in(&self, tx: &mut postgres::Transaction<'_>, id: &MemoryId) -> Result<(), StoreError> {
        tx.execute(
            "DELETE FROM subcog_embeddings WHERE scope = $1 AND memory_id = $2",
            &[&self.scope, &id.to_string()],
        )
        .map_err(|e| self.err(&e))?;
        Ok(())
    }

    fn count_by(&self, column: &str, live_only: bool) -> Result<BTreeMap<String, u64>, StoreError> {
        let filter = if live_only { "AND status <> 'deleted'" } else { "" };
        let sql = format!("SELECT {column}, count(*) FROM subcog_memories WHERE scope = $1 {filter} GROUP BY {column}");
        let rows = self.read(|c| c.query(&sql, &[&self.scope]))?;
        Ok(counts(&rows))
    }
}

/// Rows after which a write refreshes the planner's statistics.
const BULK: usize = 100;

impl PgStore {
    /// Refreshes the planner's statistics after a bulk write (until autovacuum gets to it,
    /// the planner believes the new rows do not exist and picks plans that scan a scope
    /// once per match) and vacuums the keyword index, whose postings are then read from the
    /// index alone. Failure (another owner's tables) only costs speed.
    pub(super) fn analyze_after_bulk(&self, rows: usize) {
        if rows < BULK {
            return;
        }
        // VACUUM refuses to run in a multi-statement string: two calls.
        let analyzed = self.conn().ok().map(|mut c| {
            c.batch_execute("VACUUM (ANALYZE) subcog_terms")
                .and_then(|()| c.batch_execute("ANALYZE subcog_memories, subcog_embeddings, subcog_memory_times"))
        });
        if !matches!(analyzed, Some(Ok(()))) {
            tracing::debug!(store = %self.label, "could not refresh planner statistics after a bulk write");
        }
    }
}

/// The consolidation lock of one scope; released when dropped.
pub struct RunLock {
    conn: Conn,
    key: String,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // A failed unlock ends with the connection: the server releases session locks then.
        if self
            .conn
            .execute("SELECT pg_advisory_unlock(hashtextextended($1, 0))", &[&self.key])
            .is_err()
        {
            tracing::warn!("could not release the consolidation lock; it ends with the connection");
        }
    }
}

impl Store for PgStore {
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
        let _span = tracing::debug_span!("store.postgres.insert_many", count = memories.len(), dry_run).entered();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let mut outcomes = Vec::with_capacity(memories.len());
        for (i, m) in memories.iter().enumerate() {
            let vector = vectors.and_then(|v| v.vectors.get(i).map(|x| (v.model, x.as_slice())));
            outcomes.push(self.insert_in(&mut tx, m, vector)?);
        }
        if dry_run {
            tx.rollback().map_err(|e| self.err(&e))?;
        } else {
            before_commit(&outcomes)?;
            tx.commit().map_err(|e| self.err(&e))?;
            drop(conn);
            self.analyze_after_bulk(memories.len());
        }
        Ok(outcomes)
    }

    fn put_records(&self, memories: &[Memory]) -> Result<Vec<PutOutcome>, StoreError> {
        let _span = tracing::debug_span!("store.postgres.put_records", count = memories.len()).entered();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let mut outcomes = Vec::with_capacity(memories.len());
        for m in memories {
            let existing = self.stored(&mut tx, &m.id, true)?;
            if existing.as_ref() == Some(m) || existing.as_ref().is_some_and(|e| e.updated_at > m.updated_at) {
                outcomes.push(PutOutcome::Unchanged);
                continue;
            }
            if m.is_live()
                && let Some(other) = self.live_duplicate(&mut tx, m)?
            {
                outcomes.push(PutOutcome::DuplicateContent(other));
                continue;
            }
            match existing {
                None => {
                    self.insert_in(&mut tx, m, None)?;
                    outcomes.push(PutOutcome::Inserted);
                }
                Some(old) => {
                    // Recall counts written by other processes since the notes were read are kept.
                    let mut merged = m.clone();
                    merged.activation_count = merged.activation_count.max(old.activation_count);
                    merged.last_accessed = merged.last_accessed.max(old.last_accessed);
                    rows::write_memory(&mut tx, &self.label, &self.scope, &merged, Write::Replace)?;
                    if old.content_hash != m.content_hash {
                        self.delete_vectors_in(&mut tx, &m.id)?;
                    }
                    outcomes.push(PutOutcome::Replaced);
                }
            }
        }
        tx.commit().map_err(|e| self.err(&e))?;
        drop(conn);
        self.analyze_after_bulk(memories.len());
        Ok(outcomes)
    }

    fn get(&self, id: &MemoryId) -> Result<Option<Memory>, StoreError> {
        let mut conn = self.conn()?;
        self.stored(&mut *conn, id, false)
    }

    fn get_many(&self, ids: &[MemoryId]) -> Result<Vec<Memory>, StoreError> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        let mut conn = self.conn()?;
        rows::query_memories(
            &mut *conn,
            &self.label,
            "SELECT doc FROM subcog_memories WHERE scope = $1 AND id = ANY($2)",
            &[&self.scope, &ids],
        )
    }

    fn update_then(
        &self,
        memory: &Memory,
        vector: Option<(&EmbeddingModel, &[f32])>,
        before_commit: BeforeCommit<'_>,
    ) -> Result<bool, StoreError> {
        let _span = tracing::debug_span!("store.postgres.update", memory_id = %memory.id).entered();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let Some(old) = self.stored(&mut tx, &memory.id, true)? else {
            return Ok(false);
        };
        if memory.is_live()
            && let Some(existing) = self.live_duplicate(&mut tx, memory)?
        {
            return Err(StoreError::Duplicate { existing });
        }
        let merged = with_editable(&old, memory);
        rows::write_memory(&mut tx, &self.label, &self.scope, &merged, Write::Replace)?;
        if old.content_hash != memory.content_hash {
            // A vector of the old text would keep ranking the memory by what it used to say.
            self.delete_vectors_in(&mut tx, &memory.id)?;
        }
        if let Some((model, v)) = vector {
            self.put_vector_in(&mut tx, &memory.id, model, v)?;
        }
        before_commit()?;
        tx.commit().map_err(|e| self.err(&e))?;
        Ok(true)
    }

    fn delete_hard_then(&self, id: &MemoryId, before_commit: BeforeCommit<'_>) -> Result<bool, StoreError> {
        let _span = tracing::debug_span!("store.postgres.delete_hard", memory_id = %id).entered();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let id = id.to_string();
        for sql in [
            "DELETE FROM subcog_edges WHERE scope = $1 AND (source_id = $2 OR target_id = $2)",
            "DELETE FROM subcog_supersessions WHERE scope = $1 AND (superseder_id = $2 OR superseded_id = $2)",
            "DELETE FROM subcog_embeddings WHERE scope = $1 AND memory_id = $2",
            "DELETE FROM subcog_memory_times WHERE scope = $1 AND memory_id = $2",
        ] {
            tx.execute(sql, &[&self.scope, &id]).map_err(|e| self.err(&e))?;
        }
        let changed = tx
            .execute(
                "DELETE FROM subcog_memories WHERE scope = $1 AND id = $2",
                &[&self.scope, &id],
            )
            .map_err(|e| self.err(&e))?;
        if changed > 0 {
            before_commit()?;
        }
        tx.commit().map_err(|e| self.err(&e))?;
        Ok(changed > 0)
    }

    fn list(&self, filter: &MemoryFilter, order: ListOrder, limit: Option<usize>) -> Result<Vec<Memory>, StoreError> {
        let mut sql = Sql::new(&self.scope);
        let clause = rows::filter_sql(filter, &mut sql);
        let order_by = match order {
            ListOrder::NewestFirst => "m.created_at DESC, m.id DESC",
            ListOrder::OldestFirst => "m.created_at ASC, m.id ASC",
            ListOrder::Retention => {
                "(CASE m.tier WHEN 'hot' THEN 0 WHEN 'warm' THEN 1 WHEN 'cold' THEN 2 ELSE 3 END),
                 m.retention_score DESC, m.created_at DESC, m.id DESC"
            }
        };
        let mut text = format!("SELECT m.doc FROM subcog_memories m WHERE {clause} ORDER BY {order_by}");
        if let Some(limit) = limit {
            let p = sql.bind(i64::try_from(limit).unwrap_or(i64::MAX));
            text.push_str(&format!(" LIMIT {p}"));
        }
        let mut conn = self.conn()?;
        rows::query_memories(&mut *conn, &self.label, &text, &sql.refs())
    }

    fn search_text(&self, terms: &[String], filter: &MemoryFilter, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        self.search_text_impl(terms, filter, limit)
    }

    fn prepare_keywords(&self) -> Result<(), StoreError> {
        self.prepare_keywords_impl()
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
        let dim = i32::try_from(model.dim).unwrap_or(i32::MAX);
        let n = self.read(|c| {
            c.execute(
                "DELETE FROM subcog_embeddings WHERE scope = $1 AND (model_id <> $2 OR dim <> $3)",
                &[&self.scope, &model.id, &dim],
            )
        })?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    fn missing_embeddings(&self, model: &EmbeddingModel, limit: usize) -> Result<Vec<Memory>, StoreError> {
        let dim = i32::try_from(model.dim).unwrap_or(i32::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut conn = self.conn()?;
        rows::query_memories(
            &mut *conn,
            &self.label,
            "SELECT m.doc FROM subcog_memories m WHERE m.scope = $1 AND m.status <> 'deleted' AND NOT EXISTS (
                 SELECT 1 FROM subcog_embeddings e
                  WHERE e.scope = m.scope AND e.memory_id = m.id AND e.model_id = $2 AND e.dim = $3)
             ORDER BY m.seq LIMIT $4",
            &[&self.scope, &model.id, &dim, &limit],
        )
    }

    fn embedding_counts(&self) -> Result<Vec<EmbeddingCount>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT model_id, dim, count(*) FROM subcog_embeddings WHERE scope = $1
                 GROUP BY model_id, dim ORDER BY count(*) DESC, model_id",
                &[&self.scope],
            )
        })?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(EmbeddingCount {
                    model_id: r.try_get(0).ok()?,
                    dim: usize::try_from(r.try_get::<_, i32>(1).ok()?).ok()?,
                    count: u64::try_from(r.try_get::<_, i64>(2).ok()?).ok()?,
                })
            })
            .collect())
    }

    fn touch(&self, ids: &[MemoryId], at: DateTime<Utc>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        let at = serde_json::to_value(crate::timestamp::canonical(at)).unwrap_or(serde_json::Value::Null);
        self.read(|c| {
            c.execute(
                "UPDATE subcog_memories SET doc = jsonb_set(jsonb_set(doc, '{activation_count}',
                     to_jsonb(coalesce((doc->>'activation_count')::bigint, 0) + 1)), '{last_accessed}', $3)
                 WHERE scope = $1 AND id = ANY($2)",
                &[&self.scope, &ids, &at],
            )
        })?;
        Ok(())
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
        let mut conn = self.conn()?;
        self.save_run_in(&mut *conn, result, plan)
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
        let rows = self.read(|c| {
            c.query(
                "SELECT DISTINCT namespace FROM subcog_memories WHERE scope = $1 AND status <> 'deleted' ORDER BY namespace",
                &[&self.scope],
            )
        })?;
        Ok(rows.iter().filter_map(|r| r.try_get(0).ok()).collect())
    }

    fn stats(&self) -> Result<StoreStats, StoreError> {
        let by_status = self.count_by(crate::store::CURRENT_STATUS_SQL, false)?;
        let size: i64 = self
            .read(|c| {
                c.query_one(
                    "SELECT coalesce(sum(pg_column_size(m.*)), 0)::bigint FROM subcog_memories m WHERE m.scope = $1",
                    &[&self.scope],
                )
            })?
            .try_get(0)
            .unwrap_or(0);
        Ok(StoreStats {
            total: by_status.values().sum(),
            by_status,
            by_namespace: self.count_by("namespace", true)?,
            by_tier: self.count_by("tier", true)?,
            by_domain: self.count_by("domain", true)?,
            schema_version: latest_version(),
            size_bytes: u64::try_from(size).unwrap_or(0),
        })
    }

    fn tier_counts(&self, status: Status) -> Result<BTreeMap<String, u64>, StoreError> {
        let rows = self.read(|c| {
            c.query(
                "SELECT tier, count(*) FROM subcog_memories WHERE scope = $1 AND status = $2 GROUP BY tier",
                &[&self.scope, &status.as_str()],
            )
        })?;
        Ok(counts(&rows))
    }

    fn term_stats(&self, terms: &[String], ids: &[MemoryId]) -> Result<TermStats, StoreError> {
        self.term_stats_impl(terms, ids)
    }

    fn purge(&self) -> Result<u64, StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        for table in [
            "subcog_embeddings",
            "subcog_memory_times",
            "subcog_summaries",
            "subcog_edges",
            "subcog_supersessions",
            "subcog_tier_transitions",
            "subcog_runs",
            "subcog_meta",
        ] {
            tx.execute(&format!("DELETE FROM {table} WHERE scope = $1"), &[&self.scope])
                .map_err(|e| self.err(&e))?;
        }
        let n = tx
            .execute("DELETE FROM subcog_memories WHERE scope = $1", &[&self.scope])
            .map_err(|e| self.err(&e))?;
        tx.execute("DELETE FROM subcog_scope_stats WHERE scope = $1", &[&self.scope])
            .map_err(|e| self.err(&e))?;
        tx.commit().map_err(|e| self.err(&e))?;
        Ok(n)
    }

    fn lock_runs(&self) -> Result<Option<super::RunGuard>, StoreError> {
        Ok(self.try_lock_runs()?.map(|lock| Box::new(lock) as super::RunGuard))
    }

    fn ids_with_suffix(&self, suffix: &str, limit: usize) -> Result<Vec<MemoryId>, StoreError> {
        let pattern = format!("%{}", suffix.to_ascii_uppercase().replace(['%', '_', '\\'], ""));
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self.read(|c| {
            c.query(
                "SELECT id FROM subcog_memories WHERE scope = $1 AND id LIKE $2 ORDER BY id LIMIT $3",
                &[&self.scope, &pattern, &limit],
            )
        })?;
        Ok(rows
            .iter()
            .filter_map(|r| r.try_get::<_, String>(0).ok()?.parse().ok())
            .collect())
    }
}

/// `(name, count)` rows as a map.
fn counts(rows: &[postgres::Row]) -> BTreeMap<String, u64> {
    rows.iter()
        .filter_map(|r| {
            Some((
                r.try_get::<_, String>(0).ok()?,
                u64::try_from(r.try_get::<_, i64>(1).ok()?).ok()?,
            ))
        })
        .collect()
}

/// `old` with the fields a user edits taken from `new` (as `Store::update` documents).
fn with_editable(old: &Memory, new: &Memory) -> Memory {
    Memory {
        content: new.content.clone(),
        summary: new.summary.clone(),
        namespace: new.namespace.clone(),
        tags: new.tags.clone(),
        source: new.source.clone(),
        importance: new.importance,
        priority: new.priority,
        updated_at: new.updated_at,
        status: new.status,
        content_hash: new.content_hash.clone(),
        context: new.context.clone(),
        time_refs: new.time_refs.clone(),
        not_superseded_by: new.not_superseded_by.clone(),
        superseded_by: new.superseded_by,
        ..old.clone()
    }
}
