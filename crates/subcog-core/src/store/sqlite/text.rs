//! Keyword search on SQLite: FTS5's BM25 over content, summary, tags and context.
//!
//! Scoring is the cost: FTS5 computes BM25 for every row that matches any query term (about
//! 2 µs a row), whatever the LIMIT. A recall asks twice with the same terms (its filter,
//! then the relaxed filter that finds superseded memories to stand in), so the last ranking
//! is kept, keyed by the database's state as this connection sees it (`PRAGMA data_version`
//! moves when another connection commits, `total_changes` when this one writes): the second
//! look reuses it instead of scoring every match again.

use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::{BM25_WEIGHTS, SqliteStore, rows};
use crate::model::SearchHit;
use crate::store::{MemoryFilter, StoreError};

/// The best rows of one full-text query, FTS5 alone (no filter): `(seq, rank)`, best
/// (lowest rank) first.
#[derive(Debug)]
pub(super) struct TextRanking {
    expression: String,
    state: (i64, u64),
    /// How many rows were asked for; fewer rows mean every match is here.
    asked: usize,
    rows: Arc<Vec<(i64, f64)>>,
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl SqliteStore {
    /// The database's state as this connection sees it: any commit, here or elsewhere,
    /// changes it.
    fn text_state(&self, conn: &Connection) -> Result<(i64, u64), StoreError> {
        let version: i64 = conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        Ok((version, conn.total_changes()))
    }

    /// The best `n` rows for `expression`, FTS5 alone, from the kept ranking when it is
    /// of the same query and database state and holds at least as many rows.
    fn text_top(&self, expression: &str, n: usize) -> Result<Arc<Vec<(i64, f64)>>, StoreError> {
        let conn = self.lock()?;
        let state = self.text_state(&conn)?;
        if let Ok(kept) = self.text_ranking.lock()
            && let Some(k) = kept.as_ref()
            && k.expression == expression
            && k.state == state
            && (k.asked >= n || k.rows.len() < k.asked)
        {
            return Ok(Arc::clone(&k.rows));
        }
        let _span = tracing::debug_span!("store.sqlite.bm25", limit = n).entered();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT rowid, bm25(memories_fts, {BM25_WEIGHTS}) AS rank
                 FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rank LIMIT ?2"
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params![expression, to_i64(n)], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<(i64, f64)>, _>>()
            .map_err(|e| self.err(e))?;
        let rows = Arc::new(rows);
        if let Ok(mut kept) = self.text_ranking.lock() {
            *kept = Some(TextRanking {
                expression: expression.to_string(),
                state,
                asked: n,
                rows: Arc::clone(&rows),
            });
        }
        Ok(rows)
    }

    /// Runs a ranked search. With `candidates`, FTS ranks alone (or the kept ranking
    /// answers) and only those rows are joined and filtered; without, every match is
    /// filtered before ranking. Returns the results, best first.
    pub(super) fn ranked(
        &self,
        expression: &str,
        filter: &MemoryFilter,
        candidates: Option<usize>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let (clause, filter_params) = rows::filter_sql(filter);
        let Some(c) = candidates else {
            let sql = format!(
                "SELECT {cols}, r.rank FROM (
                     SELECT rowid AS seq, bm25(memories_fts, {BM25_WEIGHTS}) AS rank
                     FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank
                 ) r JOIN memories m ON m.seq = r.seq
                 WHERE {clause}
                 ORDER BY r.rank LIMIT ?",
                cols = rows::HIT_COLUMNS
            );
            let mut params = vec![Value::Text(expression.to_string())];
            params.extend(filter_params);
            params.push(Value::Integer(to_i64(limit)));
            return Ok(self
                .query_hits::<f64>(&sql, params)?
                .into_iter()
                .map(|(hit, rank)| SearchHit { score: -rank, ..hit })
                .collect());
        };
        let top = self.text_top(expression, c)?;
        if top.is_empty() {
            return Ok(Vec::new());
        }
        // The candidates in rank order go in as one JSON array; `j.key` is the position.
        // CROSS JOIN keeps the array the outer loop: one primary-key lookup per candidate
        // (the planner otherwise may walk memories by a filter index and scan the array).
        let seqs = serde_json::to_string(&top.iter().map(|(seq, _)| *seq).collect::<Vec<_>>()).map_err(|e| {
            StoreError::Backend {
                path: self.label.clone(),
                message: e.to_string(),
            }
        })?;
        let sql = format!(
            "SELECT {cols}, j.key FROM json_each(?) j CROSS JOIN memories m ON m.seq = j.value
             WHERE {clause}
             ORDER BY j.key LIMIT ?",
            cols = rows::HIT_COLUMNS
        );
        let mut params = vec![Value::Text(seqs)];
        params.extend(filter_params);
        params.push(Value::Integer(to_i64(limit)));
        Ok(self
            .query_hits::<i64>(&sql, params)?
            .into_iter()
            .filter_map(|(hit, at)| {
                let rank = usize::try_from(at).ok().and_then(|i| top.get(i))?.1;
                Some(SearchHit { score: -rank, ..hit })
            })
            .collect())
    }
}
