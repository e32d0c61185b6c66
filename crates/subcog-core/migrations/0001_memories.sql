-- Core memory table, tag index and the FTS5 full-text index, kept in sync by triggers.
CREATE TABLE memories (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT, -- stable rowid for the FTS index
    id           TEXT NOT NULL UNIQUE,              -- ULID
    content      TEXT NOT NULL,
    summary      TEXT NOT NULL,
    namespace    TEXT NOT NULL,
    domain       TEXT NOT NULL,
    tags         TEXT NOT NULL DEFAULT '[]',        -- JSON array of strings
    source       TEXT,
    importance   REAL,
    priority     TEXT NOT NULL DEFAULT 'normal',
    created_by   TEXT NOT NULL,
    created_at   TEXT NOT NULL,                     -- UTC, fixed width, microseconds
    updated_at   TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'active',
    content_hash TEXT NOT NULL,
    context      TEXT                               -- surrounding text, searched at low weight
);

CREATE INDEX memories_created_at ON memories(created_at);
CREATE INDEX memories_namespace ON memories(namespace, created_at);
-- Duplicate protection: one live memory per content in a namespace and domain.
CREATE UNIQUE INDEX memories_live_content
    ON memories(namespace, domain, content_hash) WHERE status <> 'deleted';

CREATE TABLE memory_tags (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    tag       TEXT NOT NULL,
    PRIMARY KEY (tag, memory_id)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, summary, tags, context,
    content = 'memories', content_rowid = 'seq',
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

CREATE TRIGGER memories_after_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content, summary, tags, context)
        VALUES (new.seq, new.content, new.summary, new.tags, new.context);
    INSERT INTO memory_tags(memory_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;

CREATE TRIGGER memories_after_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, summary, tags, context)
        VALUES ('delete', old.seq, old.content, old.summary, old.tags, old.context);
    DELETE FROM memory_tags WHERE memory_id = old.id;
END;

CREATE TRIGGER memories_after_update_text AFTER UPDATE OF content, summary, tags, context ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content, summary, tags, context)
        VALUES ('delete', old.seq, old.content, old.summary, old.tags, old.context);
    INSERT INTO memories_fts(rowid, content, summary, tags, context)
        VALUES (new.seq, new.content, new.summary, new.tags, new.context);
    DELETE FROM memory_tags WHERE memory_id = old.id;
    INSERT INTO memory_tags(memory_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;

CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
