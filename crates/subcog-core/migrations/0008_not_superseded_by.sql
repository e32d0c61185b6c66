-- A user's undo of a supersession: the memories this one must not be marked superseded by
-- (JSON array of ids; NULL for none). Written by `subcog update ID --not-superseded`, read
-- by consolidation so the next run does not redo it; kept in the memory's note too.
ALTER TABLE memories ADD COLUMN not_superseded_by TEXT;
