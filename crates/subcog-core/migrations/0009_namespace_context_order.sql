-- The session context takes its candidates per namespace (a global list in context order
-- can be one namespace for hundreds of rows); this index lets each namespace's query
-- seek to its rows and read them in context order instead of walking every memory.
CREATE INDEX memories_namespace_context_order ON memories (
    namespace,
    (CASE tier WHEN 'hot' THEN 0 WHEN 'warm' THEN 1 WHEN 'cold' THEN 2 ELSE 3 END),
    retention_score DESC,
    created_at DESC,
    id DESC
);
