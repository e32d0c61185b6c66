//! Checking that the index and the git notes agree, and repairing them when they do not.
//!
//! Notes are the durable record and the index the working copy; they drift when a write
//! was interrupted between the two, when memories were captured before the project was a
//! git repository (or with `storage.git_notes` off), or when notes arrive by plain
//! `git fetch`. `verify` lists every difference and every unusable note; `--repair` makes
//! both sides whole (the newer version of a record wins) and never deletes a memory.
//!
//! A note without its index row is completed by `verify` itself, without `--repair`: a
//! write killed between the note's commit and the index's leaves exactly that (the
//! scope's journal normally has the next command finish it first), and the note is the
//! record. It is indexed under the index's write lock, which every writer holds while it
//! writes its note, so a capture still in flight is never overtaken, and screened for
//! instructions to the agent like anything that arrives from outside.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::error::Result;
use crate::model::{Memory, MemoryId, Status};
use crate::notes::format::memory_note;
use crate::notes::{NoteIssue, NotesRef};
use crate::persist::note_edit;
use crate::service::{ScopeKind, Subcog};
use crate::store::{ListOrder, MemoryFilter};

/// What verifying one scope found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScopeVerify {
    /// The scope.
    pub scope: String,
    /// The notes repository (empty when the scope has none yet).
    pub repository: String,
    /// Memory notes read.
    pub notes: usize,
    /// Memories in the index (every status).
    pub indexed: usize,
    /// Ids with a note but no index row (before `--repair`).
    pub notes_only: Vec<String>,
    /// Ids with a note but no index row that `verify` indexed from the note without
    /// `--repair` (an interrupted capture, notes from a plain `git fetch`).
    pub completed: Vec<String>,
    /// Ids with an index row but no note.
    pub index_only: Vec<String>,
    /// Ids whose note and row disagree.
    pub differ: Vec<String>,
    /// Notes whose content another live memory holds: `(note id, index id)`; informational.
    pub duplicates: Vec<(String, String)>,
    /// Notes that could not be used.
    pub invalid: Vec<NoteIssue>,
    /// What `--repair` did.
    pub repaired: Option<Repaired>,
}

/// What `verify --repair` changed in one scope.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Repaired {
    /// Memories written to the index from their notes.
    pub indexed: usize,
    /// Notes written from index rows.
    pub noted: usize,
    /// Meta notes refreshed.
    pub meta: usize,
}

/// What `subcog verify` found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VerifyReport {
    /// Each scope that has notes or could have them.
    pub scopes: Vec<ScopeVerify>,
}

impl VerifyReport {
    /// Differences and unusable notes found (before any repair).
    pub fn problems(&self) -> usize {
        self.scopes
            .iter()
            .map(|s| s.notes_only.len() + s.index_only.len() + s.differ.len() + s.invalid.len())
            .sum()
    }
}

impl Subcog {
    /// Compares each scope's index with its notes; with `repair`, brings both up to date.
    pub fn verify(&self, repair: bool) -> Result<VerifyReport> {
        let _span = tracing::info_span!("verify", repair).entered();
        let mut report = VerifyReport::default();
        for scope in [ScopeKind::Project, ScopeKind::User] {
            if repair {
                self.check_integrity(scope)?;
            }
            let store = self.store_for_read(scope)?;
            let indexed: Vec<Memory> = match &store {
                Some(s) => s.list(
                    &MemoryFilter {
                        statuses: Status::ALL.to_vec(),
                        ..Default::default()
                    },
                    ListOrder::OldestFirst,
                    None,
                )?,
                None => Vec::new(),
            };
            // The user's notes repository is created by the first user capture; an index
            // from before then still deserves notes.
            let create = repair && !indexed.is_empty();
            let Some(repo) = self.notes_repo(scope, create)? else {
                if !indexed.is_empty() && self.config.storage.git_notes && scope == ScopeKind::User {
                    report.scopes.push(ScopeVerify {
                        scope: scope.as_str().into(),
                        indexed: indexed.len(),
                        index_only: indexed.iter().map(|m| m.id.to_string()).collect(),
                        ..Default::default()
                    });
                }
                continue;
            };
            let snapshot = self.read_notes(&repo, scope, None)?;
            // Ids whose note is unreadable (damaged, or from a newer subcog) keep their note.
            let unreadable: BTreeSet<String> = snapshot.issues.iter().map(|i| i.anchor.clone()).collect();
            let mut v = ScopeVerify {
                scope: scope.as_str().into(),
                repository: repo.path().display().to_string(),
                notes: snapshot.memories.len(),
                indexed: indexed.len(),
                invalid: snapshot.issues.clone(),
                ..Default::default()
            };
            let by_id: BTreeMap<MemoryId, &Memory> = indexed.iter().map(|m| (m.id, m)).collect();
            let live_content: BTreeMap<(String, String, String), MemoryId> = indexed
                .iter()
                .filter(|m| m.is_live())
                .map(|m| {
                    (
                        (m.namespace.to_string(), m.domain.to_string(), m.content_hash.clone()),
                        m.id,
                    )
                })
                .collect();
            let noted: BTreeSet<MemoryId> = snapshot.memories.iter().map(|m| m.id).collect();
            let mut to_index = Vec::new();
            let mut to_note = Vec::new();
            for note in &snapshot.memories {
                match by_id.get(&note.id) {
                    None => {
                        let key = (
                            note.namespace.to_string(),
                            note.domain.to_string(),
                            note.content_hash.clone(),
                        );
                        match live_content.get(&key) {
                            Some(other) if note.is_live() => {
                                v.duplicates.push((note.id.to_string(), other.to_string()));
                            }
                            _ => {
                                v.notes_only.push(note.id.to_string());
                                to_index.push((note.clone(), false));
                            }
                        }
                    }
                    Some(row) if memory_note(row) != memory_note(note) => {
                        v.differ.push(note.id.to_string());
                        if row.updated_at > note.updated_at {
                            to_note.push((*row).clone());
                        } else {
                            // Text the index has is not screened again (a release stands).
                            to_index.push((note.clone(), row.content == note.content));
                        }
                    }
                    Some(_) => {}
                }
            }
            for m in &indexed {
                if !noted.contains(&m.id) {
                    v.index_only.push(m.id.to_string());
                    let anchor = crate::notes::Anchor::memory(&m.id.to_string()).oid.to_string();
                    if !unreadable.contains(&anchor) {
                        to_note.push(m.clone());
                    }
                }
            }
            if !repair && !v.notes_only.is_empty() {
                let only: BTreeSet<&String> = v.notes_only.iter().collect();
                // Screened like any arrival: the notes may come from a sync that was killed
                // before it screened them, or from a plain `git fetch`.
                let complete: Vec<(Memory, bool)> = to_index
                    .iter()
                    .filter(|(m, _)| only.contains(&m.id.to_string()))
                    .cloned()
                    .collect();
                self.complete_from_notes(scope, &repo, complete, &snapshot.with_meta)?;
                tracing::info!(
                    scope = scope.as_str(),
                    count = v.notes_only.len(),
                    "indexed notes that had no index row"
                );
                v.completed = std::mem::take(&mut v.notes_only);
            }
            if repair {
                let mut repaired = Repaired::default();
                if !to_note.is_empty() {
                    let edits: Vec<_> = to_note.iter().map(note_edit).collect();
                    repo.write(
                        &NotesRef::Memories.refname(),
                        &edits,
                        &format!("subcog: verify --repair wrote {} notes", edits.len()),
                    )?;
                    repaired.noted = edits.len();
                }
                if !to_index.is_empty() {
                    // Screened like any arrival, as without --repair.
                    repaired.indexed = self.complete_from_notes(scope, &repo, to_index, &snapshot.with_meta)?;
                }
                repaired.meta = self.flush_meta(scope)?;
                v.repaired = Some(repaired);
            }
            report.scopes.push(v);
        }
        Ok(report)
    }
}
