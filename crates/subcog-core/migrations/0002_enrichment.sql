-- Enrichment written by consolidation (seed 000): tier, retention with its factors,
-- activation, supersession and clusters, plus the graph and run-log tables.
ALTER TABLE memories ADD COLUMN tier TEXT NOT NULL DEFAULT 'hot';
ALTER TABLE memories ADD COLUMN retention_score REAL NOT NULL DEFAULT 1.0;
ALTER TABLE memories ADD COLUMN retention_recency REAL NOT NULL DEFAULT 1.0;
ALTER TABLE memories ADD COLUMN retention_activation REAL NOT NULL DEFAULT 0.0;
ALTER TABLE memories ADD COLUMN retention_importance REAL NOT NULL DEFAULT 0.0;
ALTER TABLE memories ADD COLUMN retention_penalty REAL NOT NULL DEFAULT 0.0;
ALTER TABLE memories ADD COLUMN activation_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memories ADD COLUMN last_accessed TEXT;
ALTER TABLE memories ADD COLUMN superseded_by TEXT;
ALTER TABLE memories ADD COLUMN cluster_id TEXT;

CREATE INDEX memories_tier ON memories(tier);
CREATE INDEX memories_cluster ON memories(cluster_id) WHERE cluster_id IS NOT NULL;

CREATE TABLE cluster_summaries (
    cluster_id   TEXT PRIMARY KEY,
    title        TEXT NOT NULL,
    summary      TEXT NOT NULL,
    key_insights TEXT,            -- JSON array
    member_count INTEGER,
    created_at   TEXT NOT NULL
);

CREATE TABLE memory_edges (
    id          INTEGER PRIMARY KEY,
    source_id   TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    edge_type   TEXT NOT NULL,
    target_hint TEXT,
    target_id   TEXT,             -- resolved target, when found
    confidence  REAL
);
CREATE INDEX memory_edges_source ON memory_edges(source_id);
CREATE INDEX memory_edges_target ON memory_edges(target_id);

CREATE TABLE supersessions (
    superseder_id TEXT NOT NULL,
    superseded_id TEXT NOT NULL,
    kind          TEXT NOT NULL,  -- 'full' or 'partial'
    detected_at   TEXT NOT NULL,
    PRIMARY KEY (superseder_id, superseded_id)
);

CREATE TABLE consolidation_runs (
    run_id       TEXT PRIMARY KEY,
    started_at   TEXT NOT NULL,
    completed_at TEXT,
    phase        TEXT NOT NULL,
    result       TEXT NOT NULL    -- JSON ConsolidationResult
);
