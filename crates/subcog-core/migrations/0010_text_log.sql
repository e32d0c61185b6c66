-- Edits and deletions of memories' searchable text, for processes that keep a keyword
-- index in memory (store/sqlite/keywords.rs); new rows are found by their seq, which
-- only grows. Only the last 10,000 entries are kept: a reader that fell further behind
-- rebuilds its index.
CREATE TABLE memories_text_log (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    seq  INTEGER NOT NULL,
    gone INTEGER NOT NULL -- 1: the row was deleted; 0: its text changed
);

CREATE TRIGGER memories_text_log_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_text_log (seq, gone) VALUES (old.seq, 1);
    DELETE FROM memories_text_log WHERE id <= (SELECT max(id) FROM memories_text_log) - 10000;
END;

CREATE TRIGGER memories_text_log_update AFTER UPDATE OF content, summary, tags, context ON memories
WHEN old.content IS NOT new.content OR old.summary IS NOT new.summary
  OR old.tags IS NOT new.tags OR old.context IS NOT new.context
BEGIN
    INSERT INTO memories_text_log (seq, gone) VALUES (new.seq, 0);
    DELETE FROM memories_text_log WHERE id <= (SELECT max(id) FROM memories_text_log) - 10000;
END;
