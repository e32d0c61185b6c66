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

    /// The best `n` rows for `terms` (`expression` in FTS5's syntax): from the kept
    /// ranking when it is of the same query and database state and holds at least as many
    /// rows, else from the resident keyword index when there is one, else FTS5. Fewer
    /// than `n` rows means every match is there.
    fn text_top(&self, expression: &str, terms: &[String], n: usize) -> Result<Arc<Vec<(i64, f64)>>, StoreError> {
        let state = {
            let conn = self.lock()?;
            self.text_state(&conn)?
        };
        if let Ok(kept) = self.text_ranking.lock()
            && let Some(k) = kept.as_ref()
            && k.expression == expression
            && k.state == state
            && (k.asked >= n || k.rows.len() < k.asked)
        {
            return Ok(Arc::clone(&k.rows));
        }
        let rows = match self.keyword_top(terms, n) {
            Ok(Some(ranking)) => ranking.rows,
            Ok(None) => self.fts_top(expression, n)?,
            // The index is a speed-up: a failure (say, a temporary table it cannot write)
            // drops it, and FTS5 answers from now on.
            Err(e) => {
                tracing::warn!(error = %e, "resident keyword index dropped; searching FTS5");
                if let Ok(mut k) = self.keywords.lock() {
                    *k = None;
                }
                self.fts_top(expression, n)?
            }
        };
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

    /// The best `n` rows for `expression` by FTS5's own `bm25()`.
    fn fts_top(&self, expression: &str, n: usize) -> Result<Vec<(i64, f64)>, StoreError> {
        let conn = self.lock()?;
        let _span = tracing::debug_span!("store.sqlite.bm25", limit = n).entered();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT rowid, bm25(memories_fts, {BM25_WEIGHTS}) AS rank
                 FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rank LIMIT ?2"
            ))
            .map_err(|e| self.err(e))?;
        stmt.query_map(rusqlite::params![expression, to_i64(n)], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<(i64, f64)>, _>>()
            .map_err(|e| self.err(e))
    }

    /// Whether a resident keyword index answers this store's keyword searches.
    pub(super) fn has_keyword_index(&self) -> bool {
        self.keywords.lock().is_ok_and(|k| k.is_some())
    }

    /// Runs a ranked search. With `candidates`, the keywords rank alone (the kept ranking,
    /// the resident index or FTS5) and only those rows are joined and filtered; without,
    /// FTS5 filters every match before ranking. Returns the results, best first, and
    /// whether every match was looked at.
    pub(super) fn ranked(
        &self,
        expression: &str,
        terms: &[String],
        filter: &MemoryFilter,
        candidates: Option<usize>,
        limit: usize,
    ) -> Result<(Vec<SearchHit>, bool), StoreError> {
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
            let hits = self
                .query_hits::<f64>(&sql, params)?
                .into_iter()
                .map(|(hit, rank)| SearchHit { score: -rank, ..hit })
                .collect();
            return Ok((hits, true));
        };
        let top = self.text_top(expression, terms, c)?;
        let every_match = top.len() < c;
        if top.is_empty() {
            return Ok((Vec::new(), true));
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
        let hits = self
            .query_hits::<i64>(&sql, params)?
            .into_iter()
            .filter_map(|(hit, at)| {
                let rank = usize::try_from(at).ok().and_then(|i| top.get(i))?.1;
                Some(SearchHit { score: -rank, ..hit })
            })
            .collect();
        Ok((hits, every_match))
    }
}
