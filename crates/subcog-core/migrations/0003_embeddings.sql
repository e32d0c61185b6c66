-- Embedding vectors, one per memory, with the model and dimension that produced them so
-- vectors of different models are never compared. `seq` only grows (AUTOINCREMENT), so
-- (count, max(seq)) changes whenever any vector is added, replaced or removed: readers use
-- it to know when a cached index is stale.
CREATE TABLE memory_embeddings (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id TEXT NOT NULL UNIQUE REFERENCES memories(id) ON DELETE CASCADE,
    model_id  TEXT NOT NULL,
    dim       INTEGER NOT NULL CHECK (dim > 0),
    vector    BLOB NOT NULL CHECK (length(vector) = dim * 4)  -- little-endian f32
);
CREATE INDEX memory_embeddings_model ON memory_embeddings(model_id, dim);
