//! Stage 7, persist: a saved plan applied to the notes and the index.
//!
//! Order: promoted copies (idempotent inserts into the user scope), then one index
//! transaction whose last step, before it commits, writes the notes (`mem` for rule edits,
//! `mem-meta`, `mem-summaries`, `mem-edges`, and the run log in `mem-runs`). Every step can
//! be repeated: notes with the same content make no commit, and rule edits only apply to
//! rows still at the version the plan saw.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ScopePlan, StageProgress};
use crate::error::{Error, Result};
use crate::model::{ConsolidationResult, MemoryEdge, Phase};
use crate::notes::format::{MetaRecord, record_note};
use crate::notes::{Anchor, NoteEdit, NotesError, NotesRef};
use crate::persist::note_edit;
use crate::service::{EmbedderState, ScopeKind, Subcog};
use crate::store::{InsertOutcome, StoreError};

/// The edges leaving one node, as kept in `refs/notes/mem-edges`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgesRecord {
    /// The node.
    pub source_id: String,
    /// Its outgoing edges.
    pub edges: Vec<MemoryEdge>,
}

/// Format tags of the consolidation notes.
pub const SUMMARY_FORMAT: &str = "summary/1";
/// Edges of one node.
pub const EDGES_FORMAT: &str = "edges/1";
/// A run log.
pub const RUN_FORMAT: &str = "run/1";

impl Subcog {
    /// Applies a plan and returns the completed run result.
    pub(crate) fn apply_plan(
        &self,
        scope: ScopeKind,
        mut plan: ScopePlan,
        progress: StageProgress<'_>,
    ) -> Result<ConsolidationResult> {
        let _span = tracing::info_span!("consolidation.persist", run_id = %plan.result.run_id).entered();
        progress(Phase::Persist, 0, 1);
        let store = self.store_for_write(scope)?;

        for copy in &plan.promotions {
            let outcome = self.persist_insert(ScopeKind::User, std::slice::from_ref(copy), None, false)?;
            if let Some(InsertOutcome::DuplicateContent(existing)) = outcome.first() {
                // The user already holds this pattern: link to theirs.
                for e in plan
                    .write
                    .edges
                    .iter_mut()
                    .filter(|e| e.target_id == copy.id.to_string())
                {
                    e.target_id = existing.to_string();
                }
            }
        }

        // Rule edits only apply to rows still at the version the plan saw (or already
        // applied, when finishing an interrupted run).
        let mut kept = Vec::new();
        let mut content_changed = false;
        for (m, expected) in std::mem::take(&mut plan.write.edits) {
            if let Some(row) = store.get(&m.id)?
                && (row.updated_at == expected || row.updated_at == m.updated_at)
            {
                content_changed |= row.content_hash != m.content_hash;
                kept.push((m, expected));
            }
        }
        plan.write.edits = kept;
        // A plan finished after a crash may name memories deleted since: leave them out.
        let mut gone = std::collections::BTreeSet::new();
        for m in &plan.write.enrichment {
            if store.get(&m.id)?.is_none() {
                gone.insert(m.id.to_string());
            }
        }
        for e in &plan.write.edges {
            for node in [&e.source_id, &e.target_id] {
                if let Ok(id) = node.parse::<crate::model::MemoryId>()
                    && !gone.contains(node)
                    && self.find(&id)?.is_none()
                {
                    gone.insert(node.clone());
                }
            }
        }
        if !gone.is_empty() {
            plan.write.enrichment.retain(|m| !gone.contains(&m.id.to_string()));
            plan.write
                .edges
                .retain(|e| !gone.contains(&e.source_id) && !gone.contains(&e.target_id));
            plan.write
                .supersessions
                .retain(|s| !gone.contains(&s.superseder_id) && !gone.contains(&s.superseded_id));
        }

        let mut result = plan.result.clone();
        result.phase = Phase::Completed;
        result.completed_at = Some(crate::timestamp::canonical(self.clock.now()).max(result.started_at));
        let completed = result.completed_at.unwrap_or(result.started_at);

        let mut note_writes: Vec<(NotesRef, Vec<NoteEdit>)> = Vec::new();
        let repo = self.notes_repo(scope, true)?;
        if repo.is_some() {
            let mem: Vec<NoteEdit> = plan.write.edits.iter().map(|(m, _)| note_edit(m)).collect();
            let mut meta = Vec::new();
            for m in &plan.write.enrichment {
                // Recall counts are the index's own, current ones.
                let Some(mut row) = store.get(&m.id)? else { continue };
                row.tier = m.tier;
                row.retention = m.retention;
                row.superseded_by = m.superseded_by;
                row.cluster_id.clone_from(&m.cluster_id);
                if let Some(record) = MetaRecord::of(&row) {
                    meta.push(NoteEdit {
                        anchor: Anchor::memory(&m.id.to_string()),
                        body: Some(record.render().into_bytes()),
                    });
                }
            }
            let mut summaries: Vec<NoteEdit> = plan
                .write
                .summaries
                .iter()
                .map(|s| NoteEdit {
                    anchor: Anchor::new("summary", &s.id),
                    body: Some(record_note(SUMMARY_FORMAT, None, s).into_bytes()),
                })
                .collect();
            summaries.extend(plan.write.removed_summaries.iter().map(|id| NoteEdit {
                anchor: Anchor::new("summary", id),
                body: None,
            }));
            let mut by_source: BTreeMap<&str, Vec<MemoryEdge>> = BTreeMap::new();
            for e in &plan.write.edges {
                by_source.entry(e.source_id.as_str()).or_default().push(e.clone());
            }
            let edges: Vec<NoteEdit> = plan
                .write
                .edge_sources
                .iter()
                .map(|source| NoteEdit {
                    anchor: Anchor::new("edges", source),
                    body: by_source.get(source.as_str()).map(|edges| {
                        let record = EdgesRecord {
                            source_id: source.clone(),
                            edges: edges.clone(),
                        };
                        record_note(EDGES_FORMAT, Some(completed), &record).into_bytes()
                    }),
                })
                .collect();
            let run = vec![NoteEdit {
                anchor: Anchor::new("run", &result.run_id),
                body: Some(record_note(RUN_FORMAT, Some(completed), &result).into_bytes()),
            }];
            note_writes = vec![
                (NotesRef::Memories, mem),
                (NotesRef::Meta, meta),
                (NotesRef::Summaries, summaries),
                (NotesRef::Edges, edges),
                (NotesRef::Runs, run),
            ];
        }
        let mut failure: Option<NotesError> = None;
        let message = format!("subcog: consolidation {}", result.run_id);
        let applied = store.apply_consolidation(&plan.write, &result, &mut || {
            let Some(repo) = &repo else { return Ok(()) };
            for (r, edits) in &note_writes {
                if edits.is_empty() {
                    continue;
                }
                if let Err(e) = repo.write(&r.refname(), edits, &message) {
                    let reason = e.to_string();
                    failure = Some(e);
                    return Err(StoreError::Aborted { reason });
                }
            }
            Ok(())
        });
        match applied {
            Ok(n) => tracing::info!(edits = n, "consolidation applied"),
            Err(e) => {
                return Err(match failure {
                    Some(notes) => notes.into(),
                    None => Error::from(e),
                });
            }
        }
        // Recall counts of every memory are flushed with the run (never on each recall).
        if let Err(e) = self.flush_meta(scope) {
            tracing::warn!(error = %e, "recall counts not flushed to notes");
        }
        if content_changed
            && matches!(self.embedder_state(), EmbedderState::Ready(_))
            && let Err(e) = self.reindex_embeddings(false, &mut |_, _| {})
        {
            tracing::warn!(error = %e, "edited memories not re-embedded; run `subcog reindex --embeddings`");
        }
        progress(Phase::Persist, 1, 1);
        Ok(result)
    }
}
