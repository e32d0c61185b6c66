-- Change counters kept by triggers, so a reader can tell in one lookup whether something
-- it cached is stale, whichever process wrote. 'embeddings' moves on every insert, replace
-- (REPLACE inserts a new row) and delete of a vector, cascades from memories included.
CREATE TABLE change_counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO change_counters (name, value) VALUES ('embeddings', 0);

CREATE TRIGGER memory_embeddings_count_insert AFTER INSERT ON memory_embeddings BEGIN
    UPDATE change_counters SET value = value + 1 WHERE name = 'embeddings';
END;
CREATE TRIGGER memory_embeddings_count_update AFTER UPDATE ON memory_embeddings BEGIN
    UPDATE change_counters SET value = value + 1 WHERE name = 'embeddings';
END;
CREATE TRIGGER memory_embeddings_count_delete AFTER DELETE ON memory_embeddings BEGIN
    UPDATE change_counters SET value = value + 1 WHERE name = 'embeddings';
END;
