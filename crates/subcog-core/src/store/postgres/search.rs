//! The search channels on PostgreSQL, ranked as on SQLite: BM25 over the weighted
//! `tsvector` (FTS5's formula and column weights), cosine similarity through pgvector, and
//! the time channel; plus vectors and the keyword statistics of prompt recall.

use chrono::{DateTime, Utc};
use pgvector::Vector;

use super::PgStore;
use super::keywords::{Resident, order_prefix};
use super::rows::{self, HIT_COLUMNS, MIN_EVENT_CONFIDENCE, Sql};
use crate::embed::EmbeddingModel;
use crate::model::{MemoryId, SearchHit};
use crate::store::{MemoryFilter, StoreError, TermStats};

/// FTS5's BM25 constants (the resident index in `keywords.rs` uses them too).
pub(super) const K1: f64 = 1.2;
pub(super) const B: f64 = 0.75;

/// The stems of query terms, as `to_tsvector` stores them (one term may give several, or none).
pub(super) const STEMS: &str =
    "SELECT DISTINCT t.lexeme AS stem FROM unnest($2::text[]) q, LATERAL unnest(to_tsvector('subcog', q)) t";

/// Postings whose lexeme starts with stem `s.stem`: a range of the terms index in byte
/// order (`COLLATE "C"`), which a LIKE pattern built at run time could not use. Queries
/// put it in a `LATERAL (… OFFSET 0)` so the planner scans the range once per stem instead
/// of every posting of the scope.
const PREFIX_RANGE: &str = r#"t.lexeme >= (s.stem COLLATE "C") AND t.lexeme < ((s.stem || chr(1114111)) COLLATE "C")"#;

impl PgStore {
    pub(super) fn search_text_impl(
        &self,
        terms: &[String],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.postgres.search_text", terms = terms.len(), limit).entered();
        if terms.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        match self.search_resident(terms, filter, limit) {
            Ok(Some(hits)) => return Ok(hits),
            Ok(None) => {}
            Err(e) => {
                // The SQL path answers the same. The index stays: it changes only after
                // a read succeeded, so a dropped connection leaves it consistent.
                tracing::debug!(store = %self.label, error = %e, "resident keyword search failed; searching in SQL");
            }
        }
        // Fast path, as on SQLite: rank alone, then filter the best few; exact whenever
        // enough of them survive the filter, else one query that filters every match.
        let candidates = limit.saturating_mul(3).saturating_add(20);
        let (fast, matched) = self.ranked(terms, filter, Some(candidates), limit)?;
        // `matched` is known only when a row came back; no row may mean the filter removed
        // every candidate, so the full query decides.
        if fast.len() >= limit || matched.is_some_and(|m| m <= candidates) {
            return Ok(fast);
        }
        Ok(self.ranked(terms, filter, None, limit)?.0)
    }

    /// Builds the resident keyword index, or brings it up to date.
    pub(super) fn prepare_keywords_impl(&self) -> Result<(), StoreError> {
        let _span = tracing::debug_span!("store.postgres.prepare_keywords").entered();
        let mut guard = self.keywords.lock().map_err(|_| StoreError::Backend {
            path: self.label.clone(),
            message: "keyword index lock poisoned".into(),
        })?;
        let mut conn = self.conn()?;
        let current = match guard.as_mut() {
            Some(index) => index
                .refresh(&mut *conn, &self.scope, &[])
                .map_err(|e| self.err(&e))?
                .is_some(),
            None => false,
        };
        if !current {
            let index = Resident::build(&mut conn, &self.scope).map_err(|e| self.err(&e))?;
            tracing::debug!(store = %self.label, memories = index.documents(), "resident keyword index built");
            *guard = Some(index);
        }
        Ok(())
    }

    /// The keyword search on the resident index, when this process keeps one: the
    /// server gives the stems, the statistics and what changed; the index ranks; the
    /// server filters the best as the SQL path does (its fast path, else every match).
    fn search_resident(
        &self,
        terms: &[String],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Option<Vec<SearchHit>>, StoreError> {
        let Ok(mut guard) = self.keywords.lock() else {
            return Ok(None);
        };
        let Some(index) = guard.as_mut() else {
            return Ok(None);
        };
        let _span = tracing::debug_span!("store.postgres.search_text_resident", terms = terms.len(), limit).entered();
        let mut conn = self.conn()?;
        let look = match index
            .refresh(&mut *conn, &self.scope, terms)
            .map_err(|e| self.err(&e))?
        {
            Some(look) => look,
            None => {
                *index = Resident::build(&mut conn, &self.scope).map_err(|e| self.err(&e))?;
                match index
                    .refresh(&mut *conn, &self.scope, terms)
                    .map_err(|e| self.err(&e))?
                {
                    Some(look) => look,
                    None => return Ok(None),
                }
            }
        };
        let mut ranked = index.rank(&look);
        let mut found: Vec<(f64, i64, SearchHit)> = Vec::new();
        // As the SQL path: the best `candidates` by score then id, filtered, ordered by score
        // then seq — the answer whenever enough survive or nothing else matched.
        let candidates = limit.saturating_mul(3).saturating_add(20).min(ranked.len());
        let mut ordered = order_prefix(&mut ranked, 0, candidates);
        self.filter_hits(
            &mut conn,
            filter,
            ranked.get(..candidates).unwrap_or_default(),
            &mut found,
        )?;
        // Else, as its exact query: every match filtered. In chunks, each ending where the
        // score drops, so no memory that would tie on score and win on seq is left out.
        let (mut start, mut chunk) = (candidates, candidates.saturating_mul(4).max(64));
        while start < ranked.len() && found.len() < limit {
            let mut end = start.saturating_add(chunk).min(ranked.len());
            loop {
                ordered = order_prefix(&mut ranked, ordered, end + 1);
                if !ties(&ranked, end) {
                    break;
                }
                // Order ahead in doubling steps, not one memory at a time.
                ordered = order_prefix(&mut ranked, ordered, end.saturating_mul(2).saturating_add(1));
                while end < ordered && ties(&ranked, end) {
                    end += 1;
                }
            }
            self.filter_hits(
                &mut conn,
                filter,
                ranked.get(start..end).unwrap_or_default(),
                &mut found,
            )?;
            start = end;
            chunk = chunk.saturating_mul(4);
        }
        found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        found.truncate(limit);
        Ok(Some(found.into_iter().map(|(_, _, h)| h).collect()))
    }

    /// The memories of `slice` that pass `filter`, with their scores and seq.
    fn filter_hits(
        &self,
        conn: &mut postgres::Client,
        filter: &MemoryFilter,
        slice: &[(f64, &str)],
        found: &mut Vec<(f64, i64, SearchHit)>,
    ) -> Result<(), StoreError> {
        if slice.is_empty() {
            return Ok(());
        }
        let scores: std::collections::HashMap<&str, f64> = slice.iter().map(|(s, id)| (*id, *s)).collect();
        let ids: Vec<String> = slice.iter().map(|(_, id)| (*id).to_string()).collect();
        let mut sql = Sql::new(&self.scope);
        let clause = rows::filter_sql(filter, &mut sql);
        let ids_p = sql.bind(ids);
        let text = format!("SELECT {HIT_COLUMNS}, m.seq FROM subcog_memories m WHERE m.id = ANY({ids_p}) AND {clause}");
        for r in conn.query(&text, &sql.refs()).map_err(|e| self.err(&e))? {
            let id: String = r.try_get(0).map_err(|e| self.err(&e))?;
            let seq: i64 = r.try_get(5).map_err(|e| self.err(&e))?;
            let score = scores.get(id.as_str()).copied().unwrap_or(0.0);
            found.push((score, seq, rows::hit_from_row(&self.label, &r, score)?));
        }
        Ok(())
    }

    /// BM25 over the postings of the query's stems: the best `limit` after filtering, and
    /// how many memories matched at all (when any row came back). With `candidates`, only
    /// that many best-scored matches are filtered.
    fn ranked(
        &self,
        terms: &[String],
        filter: &MemoryFilter,
        candidates: Option<usize>,
        limit: usize,
    ) -> Result<(Vec<SearchHit>, Option<usize>), StoreError> {
        let mut sql = Sql::new(&self.scope);
        sql.bind(terms.to_vec());
        let clause = rows::filter_sql(filter, &mut sql);
        let limit_p = sql.bind(i64::try_from(limit).unwrap_or(i64::MAX));
        let cap = match candidates {
            Some(c) => format!("LIMIT {}", sql.bind(i64::try_from(c).unwrap_or(i64::MAX))),
            None => String::new(),
        };
        // Every stem as a prefix (SQLite matches `"term"*`): the postings of each stem are a
        // range of the terms index, carrying their memory's length, so scoring reads them
        // alone. N and avgdl cover the whole scope, as FTS5 counts every row of its table.
        // Memories are looked up by key for the filter (LATERAL … OFFSET 0): right after a
        // bulk write the planner's statistics may say the scope is empty, and the plan it
        // would pick then scans the scope once per match.
        let text = format!(
            "WITH stems AS MATERIALIZED ({STEMS}),
             hits AS MATERIALIZED (
                 SELECT s.stem, t.memory_id, sum(t.f) AS f, max(t.doclen) AS doclen
                   FROM stems s CROSS JOIN LATERAL (
                        SELECT t.memory_id, t.f, t.doclen FROM subcog_terms t
                         WHERE t.scope = $1 AND {PREFIX_RANGE} OFFSET 0) t
                  GROUP BY s.stem, t.memory_id),
             df AS MATERIALIZED (SELECT stem, count(*)::float8 AS n FROM hits GROUP BY stem),
             stats AS MATERIALIZED (SELECT docs::float8 AS n, greatest(total_len::float8 / greatest(docs, 1), 1) AS avgdl
                         FROM subcog_scope_stats WHERE scope = $1),
             scored AS MATERIALIZED (
                 SELECT h.memory_id AS id, sum(greatest(ln((st.n - df.n + 0.5) / (df.n + 0.5)), 1e-6)
                            * h.f * ({K1} + 1) / (h.f + {K1} * (1 - {B} + {B} * h.doclen / st.avgdl))) AS score
                   FROM hits h JOIN df ON df.stem = h.stem CROSS JOIN stats st
                  GROUP BY h.memory_id),
             best AS MATERIALIZED (SELECT id, score FROM scored ORDER BY score DESC, id {cap})
             SELECT {HIT_COLUMNS}, s.score, (SELECT count(*) FROM scored) FROM best s
              CROSS JOIN LATERAL (SELECT * FROM subcog_memories m WHERE m.scope = $1 AND m.id = s.id AND {clause} OFFSET 0) m
              ORDER BY s.score DESC, m.seq LIMIT {limit_p}"
        );
        let found = self.read(|c| c.query(&text, &sql.refs()))?;
        let matched = found
            .first()
            .and_then(|r| r.try_get::<_, i64>(6).ok())
            .and_then(|n| usize::try_from(n).ok());
        let hits = found
            .iter()
            .map(|r| {
                let score: f64 = r.try_get(5).map_err(|e| self.err(&e))?;
                rows::hit_from_row(&self.label, r, score)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((hits, matched))
    }

    pub(super) fn term_stats_impl(&self, terms: &[String], ids: &[MemoryId]) -> Result<TermStats, StoreError> {
        let _span = tracing::debug_span!("store.postgres.term_stats", terms = terms.len()).entered();
        let docs: i64 = self
            .read(|c| {
                c.query_one(
                    "SELECT count(*) FROM subcog_memories WHERE scope = $1 AND status <> 'deleted'",
                    &[&self.scope],
                )
            })?
            .try_get(0)
            .map_err(|e| self.err(&e))?;
        let mut out = TermStats {
            docs: u64::try_from(docs).unwrap_or(0),
            ..Default::default()
        };
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        for (i, term) in terms.iter().enumerate() {
            // A term matches a memory when one of its stems is a prefix of a stored lexeme.
            let query = format!(
                "WITH stems AS MATERIALIZED (SELECT DISTINCT t.lexeme AS stem FROM unnest(to_tsvector('subcog', $2::text)) t)
                 SELECT DISTINCT t.memory_id, t.memory_id = ANY($3)
                   FROM stems s CROSS JOIN LATERAL (
                        SELECT t.memory_id FROM subcog_terms t WHERE t.scope = $1 AND {PREFIX_RANGE} OFFSET 0) t"
            );
            let found = self.read(|c| c.query(&query, &[&self.scope, term, &ids]))?;
            out.df.push(u64::try_from(found.len()).unwrap_or(u64::MAX));
            if i >= 64 {
                continue;
            }
            for r in &found {
                if r.try_get::<_, bool>(1).unwrap_or(false)
                    && let Some(id) = r.try_get::<_, String>(0).ok().and_then(|s| s.parse::<MemoryId>().ok())
                {
                    *out.present.entry(id).or_default() |= 1u64 << i;
                }
            }
        }
        Ok(out)
    }

    /// Creates the HNSW index of a model the first time one of its vectors is stored.
    fn ensure_vector_index(
        &self,
        c: &mut impl postgres::GenericClient,
        model: &EmbeddingModel,
    ) -> Result<(), StoreError> {
        let name = index_name(model);
        let seen = |set: &std::collections::HashSet<String>| set.contains(&name);
        if self.indexed_models.lock().map(|set| seen(&set)).unwrap_or(false) {
            return Ok(());
        }
        let exists = c
            .query_opt("SELECT 1 FROM pg_class WHERE relname = $1", &[&name])
            .map_err(|e| self.err(&e))?
            .is_some();
        if exists {
            // Remembered only once committed: an index created in a transaction that rolls
            // back must be created again.
            if let Ok(mut set) = self.indexed_models.lock() {
                set.insert(name);
            }
        } else {
            let sql = format!(
                "CREATE INDEX IF NOT EXISTS {name} ON subcog_embeddings USING hnsw ((embedding::vector({dim})) vector_cosine_ops)
                 WHERE model_id = {model_id} AND dim = {dim}",
                dim = model.dim,
                model_id = literal(&model.id)
            );
            c.batch_execute(&sql).map_err(|e| self.err(&e))?;
        }
        Ok(())
    }

    pub(super) fn put_vector_in(
        &self,
        c: &mut impl postgres::GenericClient,
        id: &MemoryId,
        model: &EmbeddingModel,
        vector: &[f32],
    ) -> Result<(), StoreError> {
        crate::store::check_dimension(&self.label, model, vector)?;
        self.ensure_vector_index(c, model)?;
        let dim = i32::try_from(model.dim).unwrap_or(i32::MAX);
        c.execute(
            "INSERT INTO subcog_embeddings (scope, memory_id, model_id, dim, embedding) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (scope, memory_id, model_id) DO UPDATE SET dim = excluded.dim, embedding = excluded.embedding",
            &[
                &self.scope,
                &id.to_string(),
                &model.id,
                &dim,
                &Vector::from(vector.to_vec()),
            ],
        )
        .map_err(|e| self.err(&e))?;
        Ok(())
    }

    pub(super) fn put_embeddings_impl(
        &self,
        model: &EmbeddingModel,
        items: &[(MemoryId, Vec<f32>)],
    ) -> Result<usize, StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let ids: Vec<String> = items.iter().map(|(id, _)| id.to_string()).collect();
        let present: std::collections::HashSet<String> = tx
            .query(
                "SELECT id FROM subcog_memories WHERE scope = $1 AND id = ANY($2)",
                &[&self.scope, &ids],
            )
            .map_err(|e| self.err(&e))?
            .iter()
            .filter_map(|r| r.try_get(0).ok())
            .collect();
        let mut stored = 0;
        for (id, vector) in items {
            if present.contains(&id.to_string()) {
                self.put_vector_in(&mut tx, id, model, vector)?;
                stored += 1;
            }
        }
        tx.commit().map_err(|e| self.err(&e))?;
        drop(conn);
        self.analyze_after_bulk(stored);
        Ok(stored)
    }

    pub(super) fn vectors_impl(&self, model: &EmbeddingModel) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        let dim = i32::try_from(model.dim).unwrap_or(i32::MAX);
        let found = self.read(|c| {
            c.query(
                "SELECT memory_id, embedding FROM subcog_embeddings WHERE scope = $1 AND model_id = $2 AND dim = $3",
                &[&self.scope, &model.id, &dim],
            )
        })?;
        Ok(keyed_vectors(&found))
    }

    pub(super) fn vectors_of_impl(
        &self,
        model: &EmbeddingModel,
        ids: &[MemoryId],
    ) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let dim = i32::try_from(model.dim).unwrap_or(i32::MAX);
        let wanted: Vec<String> = ids.iter().map(ToString::to_string).collect();
        let found = self.read(|c| {
            c.query(
                "SELECT memory_id, embedding FROM subcog_embeddings \
                 WHERE scope = $1 AND model_id = $2 AND dim = $3 AND memory_id = ANY($4)",
                &[&self.scope, &model.id, &dim, &wanted],
            )
        })?;
        Ok(keyed_vectors(&found))
    }

    pub(super) fn search_vector_impl(
        &self,
        model: &EmbeddingModel,
        query: &[f32],
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.postgres.search_vector", limit).entered();
        if limit == 0 || query.len() != model.dim {
            return Ok(Vec::new());
        }
        let mut sql = Sql::new(&self.scope);
        let q = sql.bind(Vector::from(query.to_vec()));
        let clause = rows::filter_sql(filter, &mut sql);
        let limit_p = sql.bind(i64::try_from(limit).unwrap_or(i64::MAX));
        // The expression and predicate match the model's partial HNSW index, so the planner
        // can walk it; iterative scans keep walking while the filter removes rows.
        let text = format!(
            "SELECT {HIT_COLUMNS}, e.embedding::vector({dim}) <=> {q}::vector({dim}) AS distance
               FROM subcog_embeddings e JOIN subcog_memories m ON m.scope = e.scope AND m.id = e.memory_id
              WHERE e.scope = $1 AND e.model_id = {model_id} AND e.dim = {dim} AND {clause}
              ORDER BY distance, m.seq LIMIT {limit_p}",
            dim = model.dim,
            model_id = literal(&model.id)
        );
        // hnsw.ef_search and hnsw.iterative_scan are set for every connection (see `open`).
        let found = self.read(|c| c.query(&text, &sql.refs()))?;
        found
            .iter()
            .map(|r| {
                let distance: f64 = r.try_get(5).map_err(|e| self.err(&e))?;
                rows::hit_from_row(&self.label, r, 1.0 - distance)
            })
            .collect()
    }

    pub(super) fn search_time_impl(
        &self,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        filter: &MemoryFilter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let _span = tracing::debug_span!("store.postgres.search_time", limit).entered();
        if limit == 0 || end <= start {
            return Ok(Vec::new());
        }
        let mid = start + (end - start) / 2;
        let days = (end - start).num_seconds() as f64 / 86_400.0;
        let half_days = (days / 2.0).max(1e-6);
        let (first, last) = rows::day_span(start, end);
        let mut sql = Sql::new(&self.scope);
        let (mid_p, start_p, end_p) = (sql.bind(mid), sql.bind(start), sql.bind(end));
        let (last_p, first_p, span_p) = (sql.bind(last), sql.bind(first), sql.bind((days * 2.0).max(1.0)));
        let clause = rows::filter_sql(filter, &mut sql);
        let limit_p = sql.bind(i64::try_from(limit).unwrap_or(i64::MAX));
        // Distances in days, as SQLite's julianday arithmetic: a capture instant, or the
        // middle of a dated reference's days.
        let text = format!(
            "WITH hits(memory_id, distance) AS (
                 SELECT id, abs(extract(epoch FROM created_at - {mid_p}::timestamptz)) / 86400.0 FROM subcog_memories
                  WHERE scope = $1 AND created_at >= {start_p} AND created_at < {end_p}
                 UNION ALL
                 SELECT memory_id, abs(((start_date - DATE '1970-01-01') + (end_date - DATE '1970-01-01')) / 2.0 + 0.5
                                       - extract(epoch FROM {mid_p}::timestamptz) / 86400.0)
                   FROM subcog_memory_times
                  WHERE scope = $1 AND start_date <= {last_p} AND end_date >= {first_p} AND confidence >= {MIN_EVENT_CONFIDENCE}
                    AND (end_date - start_date) + 1 <= {span_p}::float8
             ),
             best AS (SELECT memory_id, min(distance)::float8 AS distance FROM hits GROUP BY memory_id)
             SELECT {HIT_COLUMNS}, best.distance FROM best JOIN subcog_memories m ON m.scope = $1 AND m.id = best.memory_id
              WHERE {clause}
              ORDER BY best.distance, m.seq LIMIT {limit_p}"
        );
        let found = self.read(|c| c.query(&text, &sql.refs()))?;
        found
            .iter()
            .map(|r| {
                let distance: f64 = r.try_get(5).map_err(|e| self.err(&e))?;
                rows::hit_from_row(&self.label, r, (1.0 - distance / half_days).clamp(0.0, 1.0))
            })
            .collect()
    }
}

/// A SQL string literal (model ids are inlined so the planner can match the partial index).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The HNSW index name of a model: stable, short, and a valid identifier.
fn index_name(model: &EmbeddingModel) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{}\u{0}{}", model.id, model.dim).as_bytes());
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("subcog_embeddings_hnsw_{hex}")
}

/// Whether the memory at `at` ties on score with the one before it.
fn ties(ranked: &[(f64, &str)], at: usize) -> bool {
    at > 0 && at < ranked.len() && ranked.get(at).map(|r| r.0) == ranked.get(at - 1).map(|r| r.0)
}

/// `(memory_id, embedding)` rows as keyed vectors; rows that do not read are skipped.
fn keyed_vectors(rows: &[postgres::Row]) -> Vec<(MemoryId, Vec<f32>)> {
    rows.iter()
        .filter_map(|r| {
            let id = r.try_get::<_, String>(0).ok()?.parse().ok()?;
            let v: Vector = r.try_get(1).ok()?;
            Some((id, v.to_vec()))
        })
        .collect()
}
