//! Vectors in the SQLite store: storage in `memory_embeddings`, a cached flat index per
//! model, filtered nearest-neighbour search, and the time channel.
//!
//! The cache is rebuilt when the table's change counter (kept by triggers) moves, which
//! catches writes by this process and by any other.

use chrono::{DateTime, Utc};
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, TransactionBehavior, params_from_iter};
use std::collections::HashSet;

use super::{SqliteStore, rows};
use crate::embed::{EmbeddingModel, from_bytes, to_bytes};
use crate::model::{Memory, MemoryId, SearchHit};
use crate::store::{EmbeddingCount, MemoryFilter, StoreError};
use crate::timestamp;
use crate::vector::{FlatIndex, VectorIndex};

/// One unfiltered search: the query, how many were asked for, the hits.
type KeptSearch = (Vec<f32>, usize, Vec<(i64, f32)>);

/// A loaded index and what it was loaded from.
pub(crate) struct VectorCache {
    model: EmbeddingModel,
    fingerprint: i64,
    index: FlatIndex,
    /// The last unfiltered search (query, k asked, hits): a recall's second look (the
    /// relaxed filter that finds superseded memories) asks again with the same vector.
    last: Option<KeptSearch>,
}

impl SqliteStore {
    /// Stores one vector inside an open transaction.
    pub(super) fn put_vector_in(
        &self,
        tx: &rusqlite::Connection,
        id: &MemoryId,
        model: &EmbeddingModel,
        vector: &[f32],
    ) -> Result<(), StoreError> {
        crate::store::check_dimension(&self.label, model, vector)?;
        tx.execute(
            "INSERT OR REPLACE INTO memory_embeddings (memory_id, model_id, dim, vector) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![id.to_string(), model.id, model.dim as i64, to_bytes(vector)],
        )
        .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The embeddings change counter (triggers bump it on every insert, replace and
    /// delete, whichever process writes): one indexed lookup instead of a table scan.
    fn fingerprint(&self) -> Result<i64, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT value FROM change_counters WHERE name = 'embeddings'")
            .map_err(|e| self.err(e))?;
        stmt.query_row([], |r| r.get(0)).map_err(|e| self.err(e))
    }

    fn load_index(&self, model: &EmbeddingModel) -> Result<FlatIndex, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.load_vectors", model = %model.id).entered();
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT m.seq, e.vector FROM memory_embeddings e JOIN memories m ON m.id = e.memory_id
                 WHERE e.model_id = ?1 AND e.dim = ?2",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = stmt
            .query(rusqlite::params![model.id, model.dim as i64])
            .map_err(|e| self.err(e))?;
        let mut index = FlatIndex::new(model.dim);
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let seq: i64 = row.get(0).map_err(|e| self.err(e))?;
            let bytes = row.get_ref(1).and_then(|v| Ok(v.as_blob()?)).map_err(|e| self.err(e))?;
            if let Some(v) = from_bytes(bytes) {
                index.push(seq, &v);
            }
        }
        Ok(index)
    }

    /// The best `k` of every vector for `query`, from the last search when it was the same
    /// query on the same index and asked for at least as many.
    fn unfiltered_top(&self, model: &EmbeddingModel, query: &[f32], k: usize) -> Result<Vec<(i64, f32)>, StoreError> {
        self.with_cache(model, |c| {
            if let Some((q, asked, hits)) = &c.last
                && q.as_slice() == query
                && (*asked >= k || hits.len() < *asked)
            {
                return hits.iter().take(k).copied().collect();
            }
            let hits = c.index.search(query, None, k);
            c.last = Some((query.to_vec(), k, hits.clone()));
            hits
        })
    }

    /// Runs `f` over an up-to-date index of `model`.
    fn with_index<T>(&self, model: &EmbeddingModel, f: impl FnOnce(&FlatIndex) -> T) -> Result<T, StoreError> {
        self.with_cache(model, |c| f(&c.index))
    }

    /// Runs `f` over the up-to-date cache of `model`'s index.
    fn with_cache<T>(&self, model: &EmbeddingModel, f: impl FnOnce(&mut VectorCache) -> T) -> Result<T, StoreError> {
        let fingerprint = self.fingerprint()?;
        let mut cache = self.vectors.lock().map_err(|_| StoreError::Backend {
            path: self.label.clone(),
            message: "vector cache lock poisoned".into(),
        })?;
        let fresh = cache
            .as_ref()
            .is_some_and(|c| c.model == *model && c.fingerprint == fingerprint);
        if !fresh {
            *cache = Some(VectorCache {
                model: model.clone(),
                fingerprint,
                index: self.load_index(model)?,
                last: None,
            });
        }
        match cache.as_mut() {
            Some(c) => Ok(f(c)),
            None => Ok(f(&mut VectorCache {
                model: model.clone(),
                fingerprint,
                index: FlatIndex::new(model.dim),
                last: None,
            })),
        }
    }

    /// Loads the index of the model with the most vectors, unless it is loaded already.
    pub(super) fn prepare_vectors_impl(&self) -> Result<(), StoreError> {
        let model = {
            let conn = self.lock()?;
            let mut stmt = conn
                .prepare_cached(
                    "SELECT model_id, dim FROM memory_embeddings GROUP BY model_id, dim
                     ORDER BY count(*) DESC LIMIT 1",
                )
                .map_err(|e| self.err(e))?;
            stmt.query_row([], |r| {
                Ok(EmbeddingModel {
                    id: r.get(0)?,
                    dim: usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                })
            })
            .optional()
            .map_err(|e| self.err(e))?
        };
        match model {
            Some(model) if model.dim > 0 => self.with_index(&model, |_| ()),
            _ => Ok(()),
        }
    }

    /// The hits among `seqs` that pass the filter, keyed by seq.
    fn fetch_filtered(&self, seqs: &[i64], filter: &MemoryFilter) -> Result<Vec<(i64, SearchHit)>, StoreError> {
        if seqs.is_empty() {
            return Ok(Vec::new());
        }
        let (clause, filter_params) = rows::filter_sql(filter);
        let sql = format!(
            "SELECT {}, m.seq FROM memories m WHERE m.seq IN ({}) AND {clause}",
            rows::HIT_COLUMNS,
            vec!["?"; seqs.len()].join(", ")
        );
        let mut params: Vec<Value> = seqs.iter().map(|s| Value::Integer(*s)).collect();
        params.extend(filter_params);
        Ok(self
            .query_hits::<i64>(&sql, params)?
            .into_iter()
            .map(|(hit, seq)| (seq, hit))
            .collect())
    }

    fn allowed_seqs(&self, filter: &MemoryFilter) -> Result<HashSet<i64>, StoreError> {
        let (clause, params) = rows::filter_sql(filter);
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached(&format!("SELECT m.seq FROM memories m WHERE {clause}"))
            .map_err(|e| self.err(e))?;
        let seqs = stmt
            .query_map(params_from_iter(params), |r| r.get::<_, i64>(0))
            .map_err(|e| self.err(e))?
            .collect::<Result<HashSet<_>, _>>()
            .map_err(|e| self.err(e))?;
        Ok(seqs)
    }

    /// Orders fetched hits by the index's scores.
    fn in_score_order(hits: &[(i64, f32)], fetched: Vec<(i64, SearchHit)>, limit: usize) -> Vec<SearchHit> {
        let mut by_seq: std::collections::HashMap<i64, SearchHit> = fetched.into_iter().collect();
        hits.iter()
            .filter_map(|(seq, score)| {
                by_seq.remove(seq).map(|hit| SearchHit {
                    score: f64::from(*score),
                    ..hit
                })
            })
            .take(limit)
            .collect()
    }

    pub(super) fn search_vector_impl(
        &self,
        model: &EmbeddingModel,
        query: &[f32],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.search_vector", limit).entered();
        if limit == 0 || query.len() != model.dim {
            return Ok(Vec::new());
        }
        // Fast path as for text: a few candidates, filtered; exact fallback when too few pass.
        let candidates = limit.saturating_mul(3).saturating_add(20);
        let hits = self.unfiltered_top(model, query, candidates)?;
        let seqs: Vec<i64> = hits.iter().map(|h| h.0).collect();
        let fast = Self::in_score_order(&hits, self.fetch_filtered(&seqs, filter)?, limit);
        if fast.len() >= limit || hits.len() < candidates {
            return Ok(fast);
        }
        let allowed = self.allowed_seqs(filter)?;
        let hits = self.with_index(model, |idx| idx.search(query, Some(&allowed), limit))?;
        let seqs: Vec<i64> = hits.iter().map(|h| h.0).collect();
        Ok(Self::in_score_order(&hits, self.fetch_filtered(&seqs, filter)?, limit))
    }

    pub(super) fn search_time_impl(
        &self,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.search_time", limit).entered();
        if limit == 0 || end <= start {
            return Ok(Vec::new());
        }
        let (clause, filter_params) = rows::filter_sql(filter);
        // A memory is in the period when it was captured in it or when a dated reference
        // in its content overlaps it; references much wider than the period ("this year"
        // for a question about one week) do not count. Closeness is to the period's middle.
        let sql = format!(
            "WITH hits(memory_id, distance) AS (
                 SELECT id, abs(julianday(created_at) - julianday(?1)) FROM memories
                  WHERE created_at >= ?2 AND created_at < ?3
                 UNION ALL
                 SELECT memory_id, abs((julianday(start_date) + julianday(end_date)) / 2 + 0.5 - julianday(?1))
                   FROM memory_times
                  WHERE start_date <= ?4 AND end_date >= ?5 AND confidence >= {min}
                    AND julianday(end_date) - julianday(start_date) + 1 <= ?6
             ),
             best AS (SELECT memory_id, MIN(distance) AS distance FROM hits GROUP BY memory_id)
             SELECT {cols}, best.distance FROM best JOIN memories m ON m.id = best.memory_id
              WHERE {clause}
              ORDER BY best.distance, m.seq LIMIT ?",
            min = rows::MIN_EVENT_CONFIDENCE,
            cols = rows::HIT_COLUMNS
        );
        let mid = start + (end - start) / 2;
        let days = (end - start).num_seconds() as f64 / 86_400.0;
        let half_days = (days / 2.0).max(1e-6);
        let (first, last) = rows::day_span(start, end);
        let mut params = vec![
            Value::Text(timestamp::to_storage(mid)),
            Value::Text(timestamp::to_storage(start)),
            Value::Text(timestamp::to_storage(end)),
            Value::Text(last),
            Value::Text(first),
            Value::Real((days * 2.0).max(1.0)),
        ];
        params.extend(filter_params);
        params.push(Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
        Ok(self
            .query_hits::<f64>(&sql, params)?
            .into_iter()
            .map(|(hit, distance)| SearchHit {
                score: (1.0 - distance / half_days).clamp(0.0, 1.0),
                ..hit
            })
            .collect())
    }

    pub(super) fn put_embeddings_impl(
        &self,
        model: &EmbeddingModel,
        items: &[(MemoryId, Vec<f32>)],
    ) -> Result<usize, StoreError> {
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let mut stored = 0;
        for (id, vector) in items {
            let exists = tx
                .query_row("SELECT 1 FROM memories WHERE id = ?1", [id.to_string()], |_| Ok(()))
                .optional()
                .map_err(|e| self.err(e))?
                .is_some();
            if exists {
                self.put_vector_in(&tx, id, model, vector)?;
                stored += 1;
            }
        }
        tx.commit().map_err(|e| self.err(e))?;
        Ok(stored)
    }

    pub(super) fn drop_other_embeddings_impl(&self, model: &EmbeddingModel) -> Result<usize, StoreError> {
        let conn = self.lock()?;
        conn.execute(
            "DELETE FROM memory_embeddings WHERE model_id <> ?1 OR dim <> ?2",
            rusqlite::params![model.id, model.dim as i64],
        )
        .map_err(|e| self.err(e))
    }

    pub(super) fn missing_embeddings_impl(
        &self,
        model: &EmbeddingModel,
        limit: usize,
    ) -> Result<Vec<Memory>, StoreError> {
        let sql = format!(
            "SELECT {} FROM memories m WHERE m.status <> 'deleted' AND NOT EXISTS (
                 SELECT 1 FROM memory_embeddings e WHERE e.memory_id = m.id AND e.model_id = ? AND e.dim = ?)
             ORDER BY m.seq LIMIT ?",
            rows::select_list("m")
        );
        self.query_memories(
            &sql,
            vec![
                Value::Text(model.id.clone()),
                Value::Integer(model.dim as i64),
                Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX)),
            ],
        )
    }

    pub(super) fn embedding_counts_impl(&self) -> Result<Vec<EmbeddingCount>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT model_id, dim, count(*) FROM memory_embeddings GROUP BY model_id, dim ORDER BY model_id",
            )
            .map_err(|e| self.err(e))?;
        let counts = stmt
            .query_map([], |r| {
                Ok(EmbeddingCount {
                    model_id: r.get(0)?,
                    dim: usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                    count: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                })
            })
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e))?;
        Ok(counts)
    }

    pub(super) fn touch_impl(&self, ids: &[MemoryId], at: DateTime<Utc>) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        let _span = tracing::debug_span!("recall.increment_activation", count = ids.len()).entered();
        let mut conn = self.lock()?;
        // Activation is a ranking hint written on every recall: skip the fsync (WAL with
        // synchronous=NORMAL stays consistent; a power cut may lose the last few counts).
        conn.execute_batch("PRAGMA synchronous = NORMAL")
            .map_err(|e| self.err(e))?;
        let result = self.touch_in(&mut conn, ids, at);
        conn.execute_batch("PRAGMA synchronous = FULL")
            .map_err(|e| self.err(e))?;
        result
    }

    fn touch_in(&self, conn: &mut rusqlite::Connection, ids: &[MemoryId], at: DateTime<Utc>) -> Result<(), StoreError> {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let sql = format!(
            "UPDATE memories SET activation_count = min(activation_count, 9223372036854775806) + 1, last_accessed = ? WHERE id IN ({})",
            vec!["?"; ids.len()].join(", ")
        );
        let mut params = vec![Value::Text(timestamp::to_storage(at))];
        params.extend(ids.iter().map(|id| Value::Text(id.to_string())));
        tx.execute(&sql, params_from_iter(params)).map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }
}
