//! Persisting memories: the index row and the git note as one step.
//!
//! In a scope backed by git (a project inside a repository, or the user's notes
//! repository) every write to the index also writes the memory's note, inside the index
//! transaction: if the note cannot be written the row is rolled back and the caller gets
//! the error. Outside git the index alone is the store. The note is written before the
//! index commits, so a crash in between leaves a note the index lacks — which the scope's
//! journal (see `journal`) has the next command complete — never an index row without its
//! durable record.

use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::journal::{Entry, Journal, Op};
use crate::model::{Memory, MemoryId};
use crate::notes::format::{MetaRecord, memory_note};
use crate::notes::{Anchor, NoteEdit, NotesError, NotesRef, NotesRepo};
use crate::service::{ScopeKind, Subcog};
use crate::store::{InsertOutcome, StoreError, Vectors};

/// The note step of a store write: writes `edits` (one per memory in `ops`) to the
/// memories ref.
type NoteStep<'a> = dyn FnMut(&NotesRepo, &[NoteEdit], &[(Op, MemoryId)], &str) -> Result<(), StoreError> + 'a;

/// Runs a store write whose `before_commit` step writes notes, returning the notes error
/// itself (not the store's "rolled back" wrapper) when that step failed. The step first
/// records the memories it is about to write in the scope's journal, and the record is
/// dropped once the store has committed: a kill in between leaves it for the next command.
fn with_notes<T>(
    journal: &Journal,
    data_dir: &Path,
    write: impl FnOnce(&mut NoteStep<'_>) -> Result<T, StoreError>,
) -> Result<T> {
    let mut failure: Option<NotesError> = None;
    let mut entries: Vec<Entry> = Vec::new();
    let mut step =
        |repo: &NotesRepo, edits: &[NoteEdit], ops: &[(Op, MemoryId)], message: &str| -> Result<(), StoreError> {
            match journal.begin(data_dir, ops) {
                Ok(entry) => entries.push(entry),
                // Without it a kill here is still found by `verify`; the write goes on.
                Err(e) => tracing::warn!(dir = %journal.dir().display(), error = %e, "cannot write the journal"),
            }
            repo.write(&NotesRef::Memories.refname(), edits, message)
                .map(|_| ())
                .map_err(|e| {
                    let reason = e.to_string();
                    failure = Some(e);
                    StoreError::Aborted { reason }
                })
        };
    let outcome = write(&mut step);
    // A failed note write changed nothing; any other failure may have followed the note,
    // so its entry stays for completion to look at.
    if outcome.is_ok() || failure.is_some() {
        for entry in entries {
            entry.done();
        }
    }
    match outcome {
        Ok(v) => Ok(v),
        Err(e) => match failure {
            Some(notes) => Err(notes.into()),
            None => Err(e.into()),
        },
    }
}

/// The edit that writes a memory's note.
pub(crate) fn note_edit(m: &Memory) -> NoteEdit {
    NoteEdit {
        anchor: Anchor::memory(&m.id.to_string()),
        body: Some(memory_note(m).into_bytes()),
    }
}

impl Subcog {
    /// Inserts memories into a scope's index and writes the notes of those inserted, all
    /// or nothing. With `dry_run` nothing is written anywhere.
    pub fn persist_insert(
        &self,
        scope: ScopeKind,
        memories: &[Memory],
        vectors: Option<Vectors<'_>>,
        dry_run: bool,
    ) -> Result<Vec<InsertOutcome>> {
        let store = self.store_for_write(scope)?;
        let repo = if dry_run { None } else { self.notes_repo(scope, true)? };
        let Some(repo) = repo else {
            return Ok(store.insert_many(memories, vectors, dry_run)?);
        };
        with_notes(&self.journal(scope), &self.location().data_dir, |write_notes| {
            store.insert_many_then(memories, vectors, dry_run, &mut |outcomes| {
                let inserted: Vec<&Memory> = memories
                    .iter()
                    .zip(outcomes)
                    .filter(|(_, o)| matches!(o, InsertOutcome::Inserted(_)))
                    .map(|(m, _)| m)
                    .collect();
                let edits: Vec<NoteEdit> = inserted.iter().map(|m| note_edit(m)).collect();
                let ops: Vec<(Op, MemoryId)> = inserted.iter().map(|m| (Op::Put, m.id)).collect();
                if edits.is_empty() {
                    return Ok(());
                }
                let message = match edits.len() {
                    1 => format!("subcog: capture {}", memories_id(memories, outcomes)),
                    n => format!("subcog: import {n} memories"),
                };
                write_notes(&repo, &edits, &ops, &message)
            })
        })
    }

    /// Writes the user-editable fields of a memory to the index and its note together.
    pub(crate) fn persist_update(
        &self,
        scope: ScopeKind,
        m: &Memory,
        vector: Option<(&crate::embed::EmbeddingModel, &[f32])>,
    ) -> Result<bool> {
        let store = self.store_for_write(scope)?;
        let Some(repo) = self.notes_repo(scope, true)? else {
            return Ok(store.update(m, vector)?);
        };
        with_notes(&self.journal(scope), &self.location().data_dir, |write_notes| {
            store.update_then(m, vector, &mut || {
                write_notes(
                    &repo,
                    &[note_edit(m)],
                    &[(Op::Put, m.id)],
                    &format!("subcog: update {}", m.id),
                )
            })
        })
    }

    /// Removes a memory from the index and drops its notes (memory and meta).
    pub(crate) fn persist_delete_hard(&self, scope: ScopeKind, id: &MemoryId) -> Result<bool> {
        let store = self.store_for_write(scope)?;
        let Some(repo) = self.notes_repo(scope, true)? else {
            return Ok(store.delete_hard(id)?);
        };
        let remove = NoteEdit {
            anchor: Anchor::memory(&id.to_string()),
            body: None,
        };
        let deleted = with_notes(&self.journal(scope), &self.location().data_dir, |write_notes| {
            store.delete_hard_then(id, &mut || {
                write_notes(
                    &repo,
                    std::slice::from_ref(&remove),
                    &[(Op::Delete, *id)],
                    &format!("subcog: delete {id}"),
                )
            })
        })?;
        if deleted {
            // The meta note is derived data; failing to drop it leaves a harmless orphan.
            if let Err(e) = repo.write(&NotesRef::Meta.refname(), &[remove], &format!("subcog: delete {id}")) {
                tracing::warn!(error = %e, memory_id = %id, "meta note left behind");
            }
        }
        Ok(deleted)
    }

    /// Writes the enrichment (activation, tier, retention, supersession) of every memory of
    /// a scope whose meta note is missing or stale, in one commit; returns how many notes
    /// were written.
    pub fn flush_meta(&self, scope: ScopeKind) -> Result<usize> {
        let _span = tracing::info_span!("notes.flush_meta", scope = scope.as_str()).entered();
        let (Some(store), Some(repo)) = (self.store_for_read(scope)?, self.notes_repo(scope, false)?) else {
            return Ok(0);
        };
        let refname = NotesRef::Meta.refname();
        let existing = repo.entries(&refname)?;
        let filter = crate::store::MemoryFilter {
            statuses: crate::model::Status::ALL.to_vec(),
            ..Default::default()
        };
        let mut edits = Vec::new();
        for m in store.list(&filter, crate::store::ListOrder::OldestFirst, None)? {
            let Some(record) = MetaRecord::of(&m) else { continue };
            let anchor = Anchor::memory(&m.id.to_string());
            let body = record.render().into_bytes();
            let blob = git2::Oid::hash_object(git2::ObjectType::Blob, &body).ok();
            if blob.is_some() && existing.get(&anchor.oid).copied() == blob {
                continue;
            }
            edits.push(NoteEdit {
                anchor,
                body: Some(body),
            });
        }
        if !edits.is_empty() {
            repo.write(
                &refname,
                &edits,
                &format!("subcog: flush metadata of {} memories", edits.len()),
            )?;
        }
        Ok(edits.len())
    }

    /// The git repository holding a scope's notes: the project's repository (when the
    /// project is one and `storage.git_notes` is on) or the user's notes repository
    /// (created on first write when `create`).
    pub fn notes_repo(&self, scope: ScopeKind, create: bool) -> Result<Option<Arc<NotesRepo>>> {
        if !self.config.storage.git_notes {
            return Ok(None);
        }
        let cell = self.notes_cell(scope);
        if let Some(repo) = cell.get() {
            return Ok(Some(repo.clone()));
        }
        let opened = match scope {
            ScopeKind::Project => {
                let root = &self.location.project_root;
                if !root.join(".git").exists() {
                    return Ok(None);
                }
                NotesRepo::open(root)?
            }
            ScopeKind::User => {
                let path = &self.location.user_notes;
                if create {
                    if let Some(parent) = path.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| Error::Io {
                            context: format!("cannot create {}", parent.display()),
                            source: e,
                        })?;
                    }
                    NotesRepo::open_or_init_bare(path)?
                } else if path.join("HEAD").exists() {
                    NotesRepo::open(path)?
                } else {
                    return Ok(None);
                }
            }
        };
        Ok(Some(cell.get_or_init(|| Arc::new(opened)).clone()))
    }

    /// Largest note subcog reads: room for the content limit plus context and metadata.
    pub(crate) fn note_limit(&self) -> usize {
        self.config
            .capture
            .max_content_bytes
            .saturating_mul(2)
            .saturating_add(64 * 1024)
    }
}

fn memories_id(memories: &[Memory], outcomes: &[InsertOutcome]) -> String {
    memories
        .iter()
        .zip(outcomes)
        .find(|(_, o)| matches!(o, InsertOutcome::Inserted(_)))
        .map(|(m, _)| m.id.to_string())
        .unwrap_or_default()
}
