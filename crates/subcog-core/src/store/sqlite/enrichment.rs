//! Consolidation output in SQLite: enrichment columns, summaries, edges, supersessions,
//! tier transitions and run records, written in one transaction per run.

use chrono::{DateTime, Utc};
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, TransactionBehavior, params, params_from_iter};

use super::{SqliteStore, rows};
use crate::embed::{EmbeddingModel, from_bytes};
use crate::model::{ConsolidationResult, MemoryEdge, MemoryId, MemorySummary, Supersession, TierTransition};
use crate::store::{BeforeCommit, ConsolidationWrite, RecordedTransition, StoreError};
use crate::timestamp;

impl SqliteStore {
    fn json_err(&self, what: &str, e: serde_json::Error) -> StoreError {
        StoreError::Backend {
            path: self.label.clone(),
            message: format!("{what}: {e}"),
        }
    }

    pub(super) fn vectors_impl(&self, model: &EmbeddingModel) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT memory_id, vector FROM memory_embeddings WHERE model_id = ?1 AND dim = ?2")
            .map_err(|e| self.err(e))?;
        let mut rows = stmt
            .query(params![model.id, model.dim as i64])
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let id: String = row.get(0).map_err(|e| self.err(e))?;
            let bytes: Vec<u8> = row.get(1).map_err(|e| self.err(e))?;
            if let (Ok(id), Some(v)) = (id.parse::<MemoryId>(), from_bytes(&bytes)) {
                out.push((id, v));
            }
        }
        Ok(out)
    }

    pub(super) fn vectors_of_impl(
        &self,
        model: &EmbeddingModel,
        ids: &[MemoryId],
    ) -> Result<Vec<(MemoryId, Vec<f32>)>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT vector FROM memory_embeddings WHERE memory_id = ?1 AND model_id = ?2 AND dim = ?3")
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for id in ids {
            let bytes: Option<Vec<u8>> = stmt
                .query_row(params![id.to_string(), model.id, model.dim as i64], |r| r.get(0))
                .optional()
                .map_err(|e| self.err(e))?;
            if let Some(v) = bytes.as_deref().and_then(from_bytes) {
                out.push((*id, v));
            }
        }
        Ok(out)
    }

    pub(super) fn apply_consolidation_impl(
        &self,
        w: &ConsolidationWrite,
        result: &ConsolidationResult,
        before_commit: BeforeCommit<'_>,
    ) -> Result<usize, StoreError> {
        let _span = tracing::debug_span!("store.sqlite.apply_consolidation", run_id = %result.run_id).entered();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let e = |e| self.err(e);
        for m in &w.enrichment {
            tx.execute(
                "UPDATE memories SET tier = ?1, retention_score = ?2, retention_recency = ?3,
                   retention_activation = ?4, retention_importance = ?5, retention_penalty = ?6,
                   superseded_by = ?7, cluster_id = ?8 WHERE id = ?9",
                params![
                    m.tier.as_str(),
                    f64::from(m.retention.overall),
                    f64::from(m.retention.recency),
                    f64::from(m.retention.activation),
                    f64::from(m.retention.importance),
                    f64::from(m.retention.supersession_penalty),
                    m.superseded_by.map(|s| s.to_string()),
                    m.cluster_id,
                    m.id.to_string(),
                ],
            )
            .map_err(e)?;
        }
        let mut edits = 0;
        for (m, expected) in &w.edits {
            let old_hash: Option<String> = tx
                .query_row(
                    "SELECT content_hash FROM memories WHERE id = ?1",
                    [m.id.to_string()],
                    |r| r.get(0),
                )
                .optional()
                .map_err(e)?;
            let (sets, mut values): (Vec<String>, Vec<Value>) = rows::COLUMNS
                .iter()
                .zip(rows::to_values(m))
                .filter(|(c, _)| rows::EDITABLE.contains(c))
                .map(|(c, v)| (format!("{c} = ?"), v))
                .unzip();
            values.push(Value::Text(m.id.to_string()));
            values.push(Value::Text(timestamp::to_storage(*expected)));
            let changed = tx
                .execute(
                    &format!(
                        "UPDATE memories SET {} WHERE id = ? AND updated_at = ?",
                        sets.join(", ")
                    ),
                    params_from_iter(values),
                )
                .map_err(e)?;
            edits += changed;
            // A vector of the old text would rank the memory by what it used to say.
            if changed > 0 && old_hash.as_deref() != Some(m.content_hash.as_str()) {
                tx.execute("DELETE FROM memory_embeddings WHERE memory_id = ?1", [m.id.to_string()])
                    .map_err(e)?;
            }
        }
        for s in &w.summaries {
            let record = serde_json::to_string(s).map_err(|x| self.json_err("summary", x))?;
            tx.execute(
                "INSERT INTO memory_summaries (id, cluster_id, namespace, record, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(id) DO UPDATE SET cluster_id = excluded.cluster_id, namespace = excluded.namespace,
                   record = excluded.record, updated_at = excluded.updated_at",
                params![s.id, s.cluster_id, s.namespace, record, timestamp::to_storage(s.updated_at)],
            )
            .map_err(e)?;
        }
        for id in &w.removed_summaries {
            tx.execute("DELETE FROM memory_summaries WHERE id = ?1", [id])
                .map_err(e)?;
        }
        for source in &w.edge_sources {
            tx.execute("DELETE FROM edges WHERE source_id = ?1", [source])
                .map_err(e)?;
        }
        for edge in &w.edges {
            tx.execute(
                "INSERT OR REPLACE INTO edges (source_id, target_id, edge_type, weight, reason, run_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    edge.source_id,
                    edge.target_id,
                    edge.edge_type.as_str(),
                    f64::from(edge.weight),
                    edge.reason,
                    edge.run_id
                ],
            )
            .map_err(e)?;
        }
        for id in &w.supersession_scope {
            tx.execute("DELETE FROM supersessions WHERE superseded_id = ?1", [id])
                .map_err(e)?;
        }
        for s in &w.supersessions {
            tx.execute(
                "INSERT OR REPLACE INTO supersessions
                   (superseder_id, superseded_id, kind, confidence, reason, method, run_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    s.superseder_id,
                    s.superseded_id,
                    s.kind.as_str(),
                    f64::from(s.confidence),
                    s.reason,
                    s.method,
                    result.run_id
                ],
            )
            .map_err(e)?;
        }
        let at = timestamp::to_storage(result.completed_at.unwrap_or(result.started_at));
        for t in &w.transitions {
            tx.execute(
                "INSERT INTO tier_transitions (run_id, memory_id, from_tier, to_tier, reason, retention_score, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    result.run_id,
                    t.memory_id,
                    t.from_tier.as_str(),
                    t.to_tier.as_str(),
                    t.reason,
                    f64::from(t.retention_score),
                    at
                ],
            )
            .map_err(e)?;
        }
        self.save_run_in(&tx, result, None)?;
        before_commit()?;
        tx.commit().map_err(e)?;
        Ok(edits)
    }

    fn save_run_in(
        &self,
        conn: &rusqlite::Connection,
        r: &ConsolidationResult,
        plan: Option<&str>,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_string(r).map_err(|x| self.json_err("run", x))?;
        conn.execute(
            "INSERT INTO consolidation_runs (run_id, started_at, completed_at, phase, dry_run, result, plan)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(run_id) DO UPDATE SET completed_at = excluded.completed_at, phase = excluded.phase,
               result = excluded.result, plan = excluded.plan",
            params![
                r.run_id,
                timestamp::to_storage(r.started_at),
                r.completed_at.map(timestamp::to_storage),
                r.phase.as_str(),
                r.dry_run,
                json,
                plan
            ],
        )
        .map_err(|e| self.err(e))?;
        Ok(())
    }

    pub(super) fn save_run_impl(&self, r: &ConsolidationResult, plan: Option<&str>) -> Result<(), StoreError> {
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        self.save_run_in(&tx, r, plan)?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn parse_run(&self, json: &str) -> Result<ConsolidationResult, StoreError> {
        serde_json::from_str(json).map_err(|x| self.json_err("run record", x))
    }

    pub(super) fn runs_impl(&self, limit: usize) -> Result<Vec<ConsolidationResult>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT result FROM consolidation_runs ORDER BY started_at DESC, run_id DESC LIMIT ?1")
            .map_err(|e| self.err(e))?;
        let jsons: Vec<String> = stmt
            .query_map([limit.min(i64::MAX as usize) as i64], |r| r.get(0))
            .map_err(|e| self.err(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(e))?;
        jsons.iter().map(|j| self.parse_run(j)).collect()
    }

    pub(super) fn unfinished_run_impl(&self) -> Result<Option<(ConsolidationResult, String)>, StoreError> {
        let conn = self.lock()?;
        let found: Option<(String, String)> = conn
            .query_row(
                "SELECT result, plan FROM consolidation_runs
                 WHERE completed_at IS NULL AND plan IS NOT NULL ORDER BY started_at DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        drop(conn);
        match found {
            Some((result, plan)) => Ok(Some((self.parse_run(&result)?, plan))),
            None => Ok(None),
        }
    }

    pub(super) fn summaries_impl(&self) -> Result<Vec<MemorySummary>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached("SELECT record FROM memory_summaries ORDER BY updated_at DESC, id")
            .map_err(|e| self.err(e))?;
        let jsons: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.err(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(e))?;
        jsons
            .iter()
            .map(|j| serde_json::from_str(j).map_err(|x| self.json_err("summary record", x)))
            .collect()
    }

    pub(super) fn edges_impl(&self, node: Option<&str>) -> Result<Vec<MemoryEdge>, StoreError> {
        let conn = self.lock()?;
        let sql = match node {
            Some(_) => {
                "SELECT source_id, target_id, edge_type, weight, reason, run_id FROM edges
                 WHERE source_id = ?1 OR target_id = ?1 ORDER BY edge_type, source_id, target_id"
            }
            None => {
                "SELECT source_id, target_id, edge_type, weight, reason, run_id FROM edges
                 ORDER BY source_id, edge_type, target_id"
            }
        };
        let mut stmt = conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let params: Vec<Value> = node.map(|n| Value::Text(n.to_string())).into_iter().collect();
        let mut rows = stmt.query(params_from_iter(params)).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let kind: String = r.get(2).map_err(|e| self.err(e))?;
            let Ok(edge_type) = kind.parse() else { continue };
            out.push(MemoryEdge {
                source_id: r.get(0).map_err(|e| self.err(e))?,
                target_id: r.get(1).map_err(|e| self.err(e))?,
                edge_type,
                weight: r.get::<_, f64>(3).map_err(|e| self.err(e))? as f32,
                reason: r.get(4).map_err(|e| self.err(e))?,
                run_id: r.get(5).map_err(|e| self.err(e))?,
            });
        }
        Ok(out)
    }

    pub(super) fn supersessions_impl(&self) -> Result<Vec<Supersession>, StoreError> {
        let conn = self.lock()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT superseder_id, superseded_id, kind, confidence, reason, method FROM supersessions
                 ORDER BY superseded_id",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let kind: String = r.get(2).map_err(|e| self.err(e))?;
            let Ok(kind) = kind.parse() else { continue };
            out.push(Supersession {
                superseder_id: r.get(0).map_err(|e| self.err(e))?,
                superseded_id: r.get(1).map_err(|e| self.err(e))?,
                kind,
                confidence: r.get::<_, f64>(3).map_err(|e| self.err(e))? as f32,
                reason: r.get(4).map_err(|e| self.err(e))?,
                method: r.get(5).map_err(|e| self.err(e))?,
            });
        }
        Ok(out)
    }

    /// Tier changes, newest first: every memory's, or one memory's (by its index).
    pub(super) fn transitions_impl(
        &self,
        memory_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<RecordedTransition>, StoreError> {
        let conn = self.lock()?;
        let limit = limit.min(i64::MAX as usize) as i64;
        let mut stmt = conn
            .prepare_cached(if memory_id.is_some() {
                "SELECT memory_id, from_tier, to_tier, reason, retention_score, run_id, at FROM tier_transitions
                 WHERE memory_id = ?2 ORDER BY seq DESC LIMIT ?1"
            } else {
                "SELECT memory_id, from_tier, to_tier, reason, retention_score, run_id, at FROM tier_transitions
                 ORDER BY seq DESC LIMIT ?1"
            })
            .map_err(|e| self.err(e))?;
        let mut rows = match memory_id {
            Some(id) => stmt.query(rusqlite::params![limit, id]),
            None => stmt.query([limit]),
        }
        .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let from: String = r.get(1).map_err(|e| self.err(e))?;
            let to: String = r.get(2).map_err(|e| self.err(e))?;
            let at: String = r.get(6).map_err(|e| self.err(e))?;
            let (Ok(from_tier), Ok(to_tier), Some(at)) = (from.parse(), to.parse(), timestamp::from_storage(&at))
            else {
                continue;
            };
            out.push(RecordedTransition {
                transition: TierTransition {
                    memory_id: r.get(0).map_err(|e| self.err(e))?,
                    from_tier,
                    to_tier,
                    reason: r.get(3).map_err(|e| self.err(e))?,
                    retention_score: r.get::<_, f64>(4).map_err(|e| self.err(e))? as f32,
                },
                run_id: r.get(5).map_err(|e| self.err(e))?,
                at: at as DateTime<Utc>,
            });
        }
        Ok(out)
    }
}
