//! The PostgreSQL schema: versioned migrations applied once per database, under an
//! advisory lock so that several processes opening a fresh database do not race.
//!
//! Every table carries `scope` (the project key, or `user`): one database holds many
//! projects, and every query names its scope. Tables are prefixed `subcog_` so the
//! database can be shared with other applications.

use postgres::Client;

use crate::store::StoreError;

/// Key of the advisory lock taken while migrating (any constant unique to subcog).
const MIGRATION_LOCK: i64 = 0x5375_6263_6f67_0001;

/// The migrations, in order; the version of each is its position + 1.
const MIGRATIONS: &[(&str, &str)] = &[
    ("memories", MIGRATION_1),
    ("keyword index", MIGRATION_2),
    ("keyword change log", MIGRATION_3),
];

/// The highest schema version this build knows.
pub fn latest_version() -> u32 {
    u32::try_from(MIGRATIONS.len()).unwrap_or(u32::MAX)
}

const MIGRATION_1: &str = r#"
-- Text search: the snowball English stemmer without a stopword list (queries drop their
-- own stopwords), close to SQLite's porter tokenizer.
CREATE TEXT SEARCH DICTIONARY subcog_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION subcog (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION subcog
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH subcog_stem;

-- One row per memory. `doc` is the whole memory (the model's JSON form); the columns
-- beside it are copies that queries filter, order and rank on.
CREATE TABLE subcog_memories (
    scope           TEXT NOT NULL,
    id              TEXT NOT NULL,
    seq             BIGSERIAL NOT NULL,
    doc             JSONB NOT NULL,
    namespace       TEXT NOT NULL,
    domain          TEXT NOT NULL,
    status          TEXT NOT NULL,
    tier            TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    content_hash    TEXT NOT NULL,
    retention_score DOUBLE PRECISION NOT NULL,
    superseded_by   TEXT,
    tags            TEXT[] NOT NULL,
    -- content (A), summary (B), tags (C), context (D): weighted as SQLite's BM25 columns.
    tsv             TSVECTOR NOT NULL,
    -- Tokens in the four columns: BM25's document length.
    doclen          INTEGER NOT NULL,
    PRIMARY KEY (scope, id)
);
-- One live memory per content, namespace and domain: concurrent duplicates conflict here.
CREATE UNIQUE INDEX subcog_memories_live_content
    ON subcog_memories (scope, namespace, domain, content_hash) WHERE status <> 'deleted';
CREATE INDEX subcog_memories_tsv ON subcog_memories USING GIN (tsv);
CREATE INDEX subcog_memories_created ON subcog_memories (scope, created_at);
CREATE INDEX subcog_memories_seq ON subcog_memories (scope, seq);
CREATE INDEX subcog_memories_context_order ON subcog_memories (scope, namespace, tier, retention_score DESC);

-- Dated references of each memory (from `doc.time_refs`), for event time.
CREATE TABLE subcog_memory_times (
    scope      TEXT NOT NULL,
    memory_id  TEXT NOT NULL,
    start_date DATE NOT NULL,
    end_date   DATE NOT NULL,
    confidence DOUBLE PRECISION NOT NULL
);
CREATE INDEX subcog_memory_times_memory ON subcog_memory_times (scope, memory_id);
CREATE INDEX subcog_memory_times_start ON subcog_memory_times (scope, start_date, end_date);

-- Vectors of any model; an HNSW index per model is created when its first vector arrives.
CREATE TABLE subcog_embeddings (
    scope     TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    model_id  TEXT NOT NULL,
    dim       INTEGER NOT NULL,
    embedding VECTOR NOT NULL,
    PRIMARY KEY (scope, memory_id, model_id)
);

CREATE TABLE subcog_summaries (
    scope      TEXT NOT NULL,
    id         TEXT NOT NULL,
    cluster_id TEXT NOT NULL,
    namespace  TEXT NOT NULL,
    record     JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope, id)
);

CREATE TABLE subcog_edges (
    scope     TEXT NOT NULL,
    source_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    edge_type TEXT NOT NULL,
    weight    DOUBLE PRECISION NOT NULL,
    reason    TEXT NOT NULL,
    run_id    TEXT NOT NULL,
    PRIMARY KEY (scope, source_id, target_id, edge_type)
);
CREATE INDEX subcog_edges_target ON subcog_edges (scope, target_id);

CREATE TABLE subcog_supersessions (
    scope         TEXT NOT NULL,
    superseder_id TEXT NOT NULL,
    superseded_id TEXT NOT NULL,
    kind          TEXT NOT NULL,
    confidence    DOUBLE PRECISION NOT NULL,
    reason        TEXT NOT NULL,
    method        TEXT NOT NULL,
    run_id        TEXT NOT NULL,
    PRIMARY KEY (scope, superseder_id, superseded_id)
);

CREATE TABLE subcog_tier_transitions (
    seq             BIGSERIAL PRIMARY KEY,
    scope           TEXT NOT NULL,
    run_id          TEXT NOT NULL,
    memory_id       TEXT NOT NULL,
    from_tier       TEXT NOT NULL,
    to_tier         TEXT NOT NULL,
    reason          TEXT NOT NULL,
    retention_score DOUBLE PRECISION NOT NULL,
    at              TIMESTAMPTZ NOT NULL
);
CREATE INDEX subcog_tier_transitions_scope ON subcog_tier_transitions (scope, seq);

CREATE TABLE subcog_runs (
    scope        TEXT NOT NULL,
    run_id       TEXT NOT NULL,
    started_at   TIMESTAMPTZ NOT NULL,
    completed_at TIMESTAMPTZ,
    phase        TEXT NOT NULL,
    dry_run      BOOLEAN NOT NULL,
    result       JSONB NOT NULL,
    plan         TEXT,
    PRIMARY KEY (scope, run_id)
);

CREATE TABLE subcog_meta (
    scope TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (scope, key)
);
"#;

const MIGRATION_2: &str = r#"
-- The keyword channel's inverted index: one row per memory and lexeme with its weighted
-- frequency (content 1.0, summary 0.6, tags 0.4, context 0.6), so BM25 reads only the
-- postings of the query's stems (a prefix range of the primary key) instead of unnesting
-- every candidate's tsvector. Kept in step with `tsv` by triggers.
CREATE TABLE subcog_terms (
    scope     TEXT NOT NULL,
    lexeme    TEXT COLLATE "C" NOT NULL,
    memory_id TEXT NOT NULL,
    f         DOUBLE PRECISION NOT NULL,
    -- The memory's length (a copy of subcog_memories.doclen), so scoring reads postings only.
    doclen    INTEGER NOT NULL,
    -- Covering: a query's postings are read from the index alone (once vacuumed).
    PRIMARY KEY (scope, lexeme, memory_id) INCLUDE (f, doclen)
);
CREATE INDEX subcog_terms_memory ON subcog_terms (scope, memory_id);

-- BM25's N and average document length per scope (every row, as FTS5 counts them).
CREATE TABLE subcog_scope_stats (
    scope     TEXT PRIMARY KEY,
    docs      BIGINT NOT NULL,
    total_len BIGINT NOT NULL
);

CREATE FUNCTION subcog_index_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM subcog_terms WHERE scope = OLD.scope AND memory_id = OLD.id;
        UPDATE subcog_scope_stats SET docs = docs - 1, total_len = total_len - OLD.doclen WHERE scope = OLD.scope;
    END IF;
    INSERT INTO subcog_terms (scope, lexeme, memory_id, f, doclen)
        SELECT NEW.scope, l.lexeme, NEW.id,
               sum(CASE w WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.6 WHEN 'C' THEN 0.4 ELSE 0.6 END), NEW.doclen
          FROM unnest(NEW.tsv) l, unnest(l.weights) w
         GROUP BY l.lexeme;
    INSERT INTO subcog_scope_stats (scope, docs, total_len) VALUES (NEW.scope, 1, NEW.doclen)
        ON CONFLICT (scope) DO UPDATE SET docs = subcog_scope_stats.docs + 1,
            total_len = subcog_scope_stats.total_len + excluded.total_len;
    RETURN NULL;
END
$fn$;

-- Deletes are handled per statement, so removing a whole scope is one join, not a trigger
-- call per memory.
CREATE FUNCTION subcog_unindex_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM subcog_terms t USING gone g WHERE t.scope = g.scope AND t.memory_id = g.id;
    UPDATE subcog_scope_stats s SET docs = s.docs - g.n, total_len = s.total_len - g.len
      FROM (SELECT scope, count(*) AS n, sum(doclen) AS len FROM gone GROUP BY scope) g
     WHERE s.scope = g.scope;
    RETURN NULL;
END
$fn$;

CREATE TRIGGER subcog_memories_terms AFTER INSERT OR UPDATE OF tsv, doclen ON subcog_memories
    FOR EACH ROW EXECUTE FUNCTION subcog_index_terms();
CREATE TRIGGER subcog_memories_unterms AFTER DELETE ON subcog_memories
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION subcog_unindex_terms();

INSERT INTO subcog_terms (scope, lexeme, memory_id, f, doclen)
    SELECT m.scope, l.lexeme, m.id, sum(CASE w WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.6 WHEN 'C' THEN 0.4 ELSE 0.6 END), m.doclen
      FROM subcog_memories m, unnest(m.tsv) l, unnest(l.weights) w
     GROUP BY m.scope, l.lexeme, m.id, m.doclen;
INSERT INTO subcog_scope_stats (scope, docs, total_len)
    SELECT scope, count(*), sum(doclen) FROM subcog_memories GROUP BY scope;
"#;

const MIGRATION_3: &str = r#"
-- Which memories' postings changed, for processes that keep the keyword index in memory
-- (`keywords.rs`): every insert, text update and delete of a memory logs its id with the
-- writing transaction's id. A reader re-reads what was logged at or after the oldest
-- transaction still running when it last looked, so a transaction that commits late is
-- not missed. Readers trim entries older than an hour; one that looked longer ago rebuilds.
CREATE TABLE subcog_terms_log (
    scope     TEXT NOT NULL,
    xid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
    memory_id TEXT NOT NULL,
    logged_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX subcog_terms_log_xid ON subcog_terms_log (scope, xid);

CREATE OR REPLACE FUNCTION subcog_index_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM subcog_terms WHERE scope = OLD.scope AND memory_id = OLD.id;
        UPDATE subcog_scope_stats SET docs = docs - 1, total_len = total_len - OLD.doclen WHERE scope = OLD.scope;
    END IF;
    INSERT INTO subcog_terms (scope, lexeme, memory_id, f, doclen)
        SELECT NEW.scope, l.lexeme, NEW.id,
               sum(CASE w WHEN 'A' THEN 1.0 WHEN 'B' THEN 0.6 WHEN 'C' THEN 0.4 ELSE 0.6 END), NEW.doclen
          FROM unnest(NEW.tsv) l, unnest(l.weights) w
         GROUP BY l.lexeme;
    INSERT INTO subcog_scope_stats (scope, docs, total_len) VALUES (NEW.scope, 1, NEW.doclen)
        ON CONFLICT (scope) DO UPDATE SET docs = subcog_scope_stats.docs + 1,
            total_len = subcog_scope_stats.total_len + excluded.total_len;
    INSERT INTO subcog_terms_log (scope, memory_id) VALUES (NEW.scope, NEW.id);
    RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION subcog_unindex_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    DELETE FROM subcog_terms t USING gone g WHERE t.scope = g.scope AND t.memory_id = g.id;
    UPDATE subcog_scope_stats s SET docs = s.docs - g.n, total_len = s.total_len - g.len
      FROM (SELECT scope, count(*) AS n, sum(doclen) AS len FROM gone GROUP BY scope) g
     WHERE s.scope = g.scope;
    INSERT INTO subcog_terms_log (scope, memory_id) SELECT scope, id FROM gone;
    RETURN NULL;
END
$fn$;
"#;

/// The schema version the database records (0 when subcog never migrated it).
fn current_version(client: &mut Client, label: &str) -> Result<u32, StoreError> {
    let open = |e: postgres::Error| StoreError::Open {
        path: label.to_string(),
        message: super::describe(&e),
    };
    let exists: bool = client
        .query_one("SELECT to_regclass('subcog_migrations') IS NOT NULL", &[])
        .and_then(|r| r.try_get(0))
        .map_err(open)?;
    if !exists {
        return Ok(0);
    }
    let version: i32 = client
        .query_one("SELECT coalesce(max(version), 0) FROM subcog_migrations", &[])
        .and_then(|r| r.try_get(0))
        .map_err(open)?;
    Ok(u32::try_from(version).unwrap_or(0))
}

/// Brings the database to the latest schema; `label` names it in errors. A database that
/// is current costs one round trip; migrating takes an advisory lock so that processes
/// opening a fresh database at once apply each migration once.
pub(super) fn migrate(client: &mut Client, label: &str) -> Result<u32, StoreError> {
    let too_new = |found: u32| StoreError::TooNew {
        path: label.to_string(),
        found,
        supported: latest_version(),
    };
    match current_version(client, label)? {
        v if v == latest_version() => return Ok(v),
        v if v > latest_version() => return Err(too_new(v)),
        _ => {}
    }
    let open = |message: String| StoreError::Open {
        path: label.to_string(),
        message,
    };
    // pgvector first, with an error that says what is missing.
    if let Err(e) = client.batch_execute("CREATE EXTENSION IF NOT EXISTS vector") {
        let text = super::describe(&e);
        let message = if text.contains("control file") || text.contains("not available") {
            "the PostgreSQL server has no pgvector extension (`vector`): install pgvector on the server \
             (https://github.com/pgvector/pgvector) and retry"
                .to_string()
        } else if text.contains("permission denied") {
            "the `vector` extension is not enabled in this database and this user may not create it: \
             ask an administrator to run CREATE EXTENSION vector"
                .to_string()
        } else {
            format!("cannot enable the pgvector extension: {text}")
        };
        return Err(open(message));
    }
    let mut tx = client.transaction().map_err(|e| open(super::describe(&e)))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(|e| open(super::describe(&e)))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS subcog_migrations (
             version    INTEGER PRIMARY KEY,
             label      TEXT NOT NULL,
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .map_err(|e| open(super::describe(&e)))?;
    // Re-read under the lock: another process may have migrated meanwhile.
    let current: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM subcog_migrations", &[])
        .and_then(|r| r.try_get(0))
        .map_err(|e| open(super::describe(&e)))?;
    let current = u32::try_from(current).unwrap_or(0);
    if current > latest_version() {
        return Err(too_new(current));
    }
    for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let version = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.batch_execute(sql)
            .map_err(|e| open(format!("migration {version} ({name}): {}", super::describe(&e))))?;
        tx.execute(
            "INSERT INTO subcog_migrations (version, label) VALUES ($1, $2)",
            &[&version, name],
        )
        .map_err(|e| open(super::describe(&e)))?;
    }
    tx.commit().map_err(|e| open(super::describe(&e)))?;
    Ok(latest_version())
}
