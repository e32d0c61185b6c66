-- Event time: the time references resolved from each memory's content (JSON array of
-- {text, start, end, granularity, confidence}). NULL means "not resolved yet": rows from
-- before this version are resolved by the store when it opens.
ALTER TABLE memories ADD COLUMN time_refs TEXT;
CREATE INDEX memories_time_refs_pending ON memories(seq) WHERE time_refs IS NULL;

-- One row per dated reference, kept in step with `memories.time_refs` by triggers, so
-- recall can find memories by when things happened, not only when they were captured.
CREATE TABLE memory_times (
    memory_id   TEXT NOT NULL,
    start_date  TEXT NOT NULL,  -- YYYY-MM-DD, inclusive
    end_date    TEXT NOT NULL,  -- YYYY-MM-DD, inclusive
    granularity TEXT NOT NULL,
    confidence  REAL NOT NULL
);
CREATE INDEX memory_times_memory ON memory_times(memory_id);
CREATE INDEX memory_times_start ON memory_times(start_date, end_date);

CREATE TRIGGER memories_times_insert AFTER INSERT ON memories WHEN new.time_refs IS NOT NULL BEGIN
    INSERT INTO memory_times (memory_id, start_date, end_date, granularity, confidence)
        SELECT new.id, json_extract(value, '$.start'), json_extract(value, '$.end'),
               json_extract(value, '$.granularity'), json_extract(value, '$.confidence')
        FROM json_each(new.time_refs)
        WHERE json_extract(value, '$.start') IS NOT NULL AND json_extract(value, '$.end') IS NOT NULL;
END;

CREATE TRIGGER memories_times_update AFTER UPDATE OF time_refs ON memories BEGIN
    DELETE FROM memory_times WHERE memory_id = old.id;
    INSERT INTO memory_times (memory_id, start_date, end_date, granularity, confidence)
        SELECT new.id, json_extract(value, '$.start'), json_extract(value, '$.end'),
               json_extract(value, '$.granularity'), json_extract(value, '$.confidence')
        FROM json_each(COALESCE(new.time_refs, '[]'))
        WHERE json_extract(value, '$.start') IS NOT NULL AND json_extract(value, '$.end') IS NOT NULL;
END;

CREATE TRIGGER memories_times_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memory_times WHERE memory_id = old.id;
END;
