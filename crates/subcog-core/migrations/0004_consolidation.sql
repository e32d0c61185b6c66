-- Consolidation output as seeds 002/003 describe it. The tables of 0002 were placeholders
-- never written to; they are replaced by shapes that carry weights, reasons and runs.
DROP TABLE cluster_summaries;
DROP TABLE memory_edges;
DROP TABLE supersessions;
DROP TABLE consolidation_runs;

-- One row per cluster summary; `record` is the JSON MemorySummary.
CREATE TABLE memory_summaries (
    id         TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    namespace  TEXT NOT NULL,
    record     TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- The memory graph; nodes are memory ids or summary ids.
CREATE TABLE edges (
    source_id TEXT NOT NULL,
    target_id TEXT NOT NULL,
    edge_type TEXT NOT NULL,
    weight    REAL NOT NULL,
    reason    TEXT NOT NULL,
    run_id    TEXT NOT NULL,
    PRIMARY KEY (source_id, target_id, edge_type)
);
CREATE INDEX edges_target ON edges(target_id);

CREATE TABLE supersessions (
    superseder_id TEXT NOT NULL,
    superseded_id TEXT NOT NULL,
    kind          TEXT NOT NULL,   -- 'full' or 'partial'
    confidence    REAL NOT NULL,
    reason        TEXT NOT NULL,
    method        TEXT NOT NULL,   -- 'heuristic' or a model
    run_id        TEXT NOT NULL,
    PRIMARY KEY (superseder_id, superseded_id)
);
CREATE INDEX supersessions_superseded ON supersessions(superseded_id);

CREATE TABLE tier_transitions (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id          TEXT NOT NULL,
    memory_id       TEXT NOT NULL,
    from_tier       TEXT NOT NULL,
    to_tier         TEXT NOT NULL,
    reason          TEXT NOT NULL,
    retention_score REAL NOT NULL,
    at              TEXT NOT NULL
);
CREATE INDEX tier_transitions_memory ON tier_transitions(memory_id);

-- A run's result (JSON ConsolidationResult) and, until it completes, its plan (JSON), so a
-- crashed run is finished from the same plan.
CREATE TABLE consolidation_runs (
    run_id       TEXT PRIMARY KEY,
    started_at   TEXT NOT NULL,
    completed_at TEXT,
    phase        TEXT NOT NULL,
    dry_run      INTEGER NOT NULL DEFAULT 0,
    result       TEXT NOT NULL,
    plan         TEXT
);
