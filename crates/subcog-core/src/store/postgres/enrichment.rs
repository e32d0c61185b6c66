//! Consolidation output on PostgreSQL: a run's writes in one transaction, runs, summaries,
//! edges, supersessions and tier transitions, all scoped.

use postgres::GenericClient;

use super::PgStore;
use super::rows::{self, Write};
use crate::model::{ConsolidationResult, MemoryEdge, MemorySummary, Supersession, TierTransition};
use crate::store::{BeforeCommit, ConsolidationWrite, RecordedTransition, StoreError};

impl PgStore {
    fn json_err(&self, what: &str, e: serde_json::Error) -> StoreError {
        StoreError::Backend {
            path: self.label.clone(),
            message: format!("{what}: {e}"),
        }
    }

    pub(super) fn apply_consolidation_impl(
        &self,
        w: &ConsolidationWrite,
        result: &ConsolidationResult,
        before_commit: BeforeCommit<'_>,
    ) -> Result<usize, StoreError> {
        let _span = tracing::debug_span!("store.postgres.apply_consolidation", run_id = %result.run_id).entered();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(|e| self.err(&e))?;
        let scope = self.scope.as_str();
        for m in &w.enrichment {
            let Some(mut stored) = self.stored(&mut tx, &m.id, true)? else {
                continue;
            };
            stored.tier = m.tier;
            stored.retention = m.retention;
            stored.superseded_by = m.superseded_by;
            stored.cluster_id = m.cluster_id.clone();
            rows::write_memory(&mut tx, &self.label, scope, &stored, Write::Replace)?;
        }
        let mut edits = 0;
        for (m, expected) in &w.edits {
            // A memory edited since the run was planned is left alone.
            let Some(old) = self.stored(&mut tx, &m.id, true)? else {
                continue;
            };
            if old.updated_at != *expected {
                continue;
            }
            let merged = super::with_editable(&old, m);
            rows::write_memory(&mut tx, &self.label, scope, &merged, Write::Replace)?;
            edits += 1;
            if old.content_hash != m.content_hash {
                self.delete_vectors_in(&mut tx, &m.id)?;
            }
        }
        for s in &w.summaries {
            let record = serde_json::to_value(s).map_err(|x| self.json_err("summary", x))?;
            tx.execute(
                "INSERT INTO subcog_summaries (scope, id, cluster_id, namespace, record, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (scope, id) DO UPDATE SET cluster_id = excluded.cluster_id,
                   namespace = excluded.namespace, record = excluded.record, updated_at = excluded.updated_at",
                &[&scope, &s.id, &s.cluster_id, &s.namespace, &record, &s.updated_at],
            )
            .map_err(|e| self.err(&e))?;
        }
        for id in &w.removed_summaries {
            tx.execute(
                "DELETE FROM subcog_summaries WHERE scope = $1 AND id = $2",
                &[&scope, id],
            )
            .map_err(|e| self.err(&e))?;
        }
        for source in &w.edge_sources {
            tx.execute(
                "DELETE FROM subcog_edges WHERE scope = $1 AND source_id = $2",
                &[&scope, source],
            )
            .map_err(|e| self.err(&e))?;
        }
        for edge in &w.edges {
            tx.execute(
                "INSERT INTO subcog_edges (scope, source_id, target_id, edge_type, weight, reason, run_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (scope, source_id, target_id, edge_type) DO UPDATE SET weight = excluded.weight,
                   reason = excluded.reason, run_id = excluded.run_id",
                &[
                    &scope,
                    &edge.source_id,
                    &edge.target_id,
                    &edge.edge_type.as_str(),
                    &f64::from(edge.weight),
                    &edge.reason,
                    &edge.run_id,
                ],
            )
            .map_err(|e| self.err(&e))?;
        }
        for id in &w.supersession_scope {
            tx.execute(
                "DELETE FROM subcog_supersessions WHERE scope = $1 AND superseded_id = $2",
                &[&scope, id],
            )
            .map_err(|e| self.err(&e))?;
        }
        for s in &w.supersessions {
            tx.execute(
                "INSERT INTO subcog_supersessions (scope, superseder_id, superseded_id, kind, confidence, reason, method, run_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (scope, superseder_id, superseded_id) DO UPDATE SET kind = excluded.kind,
                   confidence = excluded.confidence, reason = excluded.reason, method = excluded.method,
                   run_id = excluded.run_id",
                &[
                    &scope,
                    &s.superseder_id,
                    &s.superseded_id,
                    &s.kind.as_str(),
                    &f64::from(s.confidence),
                    &s.reason,
                    &s.method,
                    &result.run_id,
                ],
            )
            .map_err(|e| self.err(&e))?;
        }
        let at = result.completed_at.unwrap_or(result.started_at);
        for t in &w.transitions {
            tx.execute(
                "INSERT INTO subcog_tier_transitions (scope, run_id, memory_id, from_tier, to_tier, reason, retention_score, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &scope,
                    &result.run_id,
                    &t.memory_id,
                    &t.from_tier.as_str(),
                    &t.to_tier.as_str(),
                    &t.reason,
                    &f64::from(t.retention_score),
                    &at,
                ],
            )
            .map_err(|e| self.err(&e))?;
        }
        self.save_run_in(&mut tx, result, None)?;
        before_commit()?;
        tx.commit().map_err(|e| self.err(&e))?;
        Ok(edits)
    }

    pub(super) fn save_run_in(
        &self,
        c: &mut impl GenericClient,
        r: &ConsolidationResult,
        plan: Option<&str>,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_value(r).map_err(|x| self.json_err("run", x))?;
        c.execute(
            "INSERT INTO subcog_runs (scope, run_id, started_at, completed_at, phase, dry_run, result, plan)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (scope, run_id) DO UPDATE SET completed_at = excluded.completed_at, phase = excluded.phase,
               result = excluded.result, plan = excluded.plan",
            &[
                &self.scope,
                &r.run_id,
                &r.started_at,
                &r.completed_at,
                &r.phase.as_str(),
                &r.dry_run,
                &json,
                &plan,
            ],
        )
        .map_err(|e| self.err(&e))?;
        Ok(())
    }

    fn parse_run(&self, json: serde_json::Value) -> Result<ConsolidationResult, StoreError> {
        serde_json::from_value(json).map_err(|x| self.json_err("run record", x))
    }

    pub(super) fn runs_impl(&self, limit: usize) -> Result<Vec<ConsolidationResult>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let found = self.read(|c| {
            c.query(
                "SELECT result FROM subcog_runs WHERE scope = $1 ORDER BY started_at DESC, run_id DESC LIMIT $2",
                &[&self.scope, &limit],
            )
        })?;
        found
            .into_iter()
            .map(|r| self.parse_run(r.try_get(0).map_err(|e| self.err(&e))?))
            .collect()
    }

    pub(super) fn unfinished_run_impl(&self) -> Result<Option<(ConsolidationResult, String)>, StoreError> {
        let found = self.read(|c| {
            c.query_opt(
                "SELECT result, plan FROM subcog_runs WHERE scope = $1 AND completed_at IS NULL AND plan IS NOT NULL
                 ORDER BY started_at DESC LIMIT 1",
                &[&self.scope],
            )
        })?;
        match found {
            Some(r) => {
                let result = self.parse_run(r.try_get(0).map_err(|e| self.err(&e))?)?;
                let plan: String = r.try_get(1).map_err(|e| self.err(&e))?;
                Ok(Some((result, plan)))
            }
            None => Ok(None),
        }
    }

    pub(super) fn summaries_impl(&self) -> Result<Vec<MemorySummary>, StoreError> {
        let found = self.read(|c| {
            c.query(
                "SELECT record FROM subcog_summaries WHERE scope = $1 ORDER BY updated_at DESC, id",
                &[&self.scope],
            )
        })?;
        found
            .into_iter()
            .map(|r| {
                let json: serde_json::Value = r.try_get(0).map_err(|e| self.err(&e))?;
                serde_json::from_value(json).map_err(|x| self.json_err("summary record", x))
            })
            .collect()
    }

    pub(super) fn edges_impl(&self, node: Option<&str>) -> Result<Vec<MemoryEdge>, StoreError> {
        let found = match node {
            Some(n) => self.read(|c| {
                c.query(
                    "SELECT source_id, target_id, edge_type, weight, reason, run_id FROM subcog_edges
                     WHERE scope = $1 AND (source_id = $2 OR target_id = $2) ORDER BY edge_type, source_id, target_id",
                    &[&self.scope, &n],
                )
            })?,
            None => self.read(|c| {
                c.query(
                    "SELECT source_id, target_id, edge_type, weight, reason, run_id FROM subcog_edges
                     WHERE scope = $1 ORDER BY source_id, edge_type, target_id",
                    &[&self.scope],
                )
            })?,
        };
        let mut out = Vec::new();
        for r in &found {
            let kind: String = r.try_get(2).map_err(|e| self.err(&e))?;
            let Ok(edge_type) = kind.parse() else { continue };
            out.push(MemoryEdge {
                source_id: r.try_get(0).map_err(|e| self.err(&e))?,
                target_id: r.try_get(1).map_err(|e| self.err(&e))?,
                edge_type,
                weight: r.try_get::<_, f64>(3).map_err(|e| self.err(&e))? as f32,
                reason: r.try_get(4).map_err(|e| self.err(&e))?,
                run_id: r.try_get(5).map_err(|e| self.err(&e))?,
            });
        }
        Ok(out)
    }

    pub(super) fn supersessions_impl(&self) -> Result<Vec<Supersession>, StoreError> {
        let found = self.read(|c| {
            c.query(
                "SELECT superseder_id, superseded_id, kind, confidence, reason, method FROM subcog_supersessions
                 WHERE scope = $1 ORDER BY superseded_id",
                &[&self.scope],
            )
        })?;
        let mut out = Vec::new();
        for r in &found {
            let kind: String = r.try_get(2).map_err(|e| self.err(&e))?;
            let Ok(kind) = kind.parse() else { continue };
            out.push(Supersession {
                superseder_id: r.try_get(0).map_err(|e| self.err(&e))?,
                superseded_id: r.try_get(1).map_err(|e| self.err(&e))?,
                kind,
                confidence: r.try_get::<_, f64>(3).map_err(|e| self.err(&e))? as f32,
                reason: r.try_get(4).map_err(|e| self.err(&e))?,
                method: r.try_get(5).map_err(|e| self.err(&e))?,
            });
        }
        Ok(out)
    }

    /// Tier changes, newest first: every memory's, or one memory's.
    pub(super) fn transitions_impl(
        &self,
        memory_id: Option<&str>,
        limit: usize,
    ) -> Result<Vec<RecordedTransition>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let found = self.read(|c| match memory_id {
            Some(id) => c.query(
                "SELECT memory_id, from_tier, to_tier, reason, retention_score, run_id, at FROM subcog_tier_transitions
                 WHERE scope = $1 AND memory_id = $3 ORDER BY seq DESC LIMIT $2",
                &[&self.scope, &limit, &id],
            ),
            None => c.query(
                "SELECT memory_id, from_tier, to_tier, reason, retention_score, run_id, at FROM subcog_tier_transitions
                 WHERE scope = $1 ORDER BY seq DESC LIMIT $2",
                &[&self.scope, &limit],
            ),
        })?;
        let mut out = Vec::new();
        for r in &found {
            let from: String = r.try_get(1).map_err(|e| self.err(&e))?;
            let to: String = r.try_get(2).map_err(|e| self.err(&e))?;
            let (Ok(from_tier), Ok(to_tier)) = (from.parse(), to.parse()) else {
                continue;
            };
            out.push(RecordedTransition {
                transition: TierTransition {
                    memory_id: r.try_get(0).map_err(|e| self.err(&e))?,
                    from_tier,
                    to_tier,
                    reason: r.try_get(3).map_err(|e| self.err(&e))?,
                    retention_score: r.try_get::<_, f64>(4).map_err(|e| self.err(&e))? as f32,
                },
                run_id: r.try_get(5).map_err(|e| self.err(&e))?,
                at: r.try_get(6).map_err(|e| self.err(&e))?,
            });
        }
        Ok(out)
    }
}
