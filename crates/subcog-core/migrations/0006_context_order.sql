-- The session context reads memories HOT first, by retention score: an index in that
-- order lets SQLite stop after the few hundred rows a budget can hold instead of sorting
-- every memory. The second index counts live memories per tier without reading rows.
CREATE INDEX memories_context_order ON memories (
    (CASE tier WHEN 'hot' THEN 0 WHEN 'warm' THEN 1 WHEN 'cold' THEN 2 ELSE 3 END),
    retention_score DESC,
    created_at DESC,
    id DESC
);
CREATE INDEX memories_status_tier ON memories (status, tier);
