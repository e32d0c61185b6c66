//! The write journal: what a two-part write is about to change, so that a process killed
//! between its parts leaves a record the next command finishes on its own.
//!
//! A write in a scope backed by git puts the memory's note first and commits the index
//! row after it (see `persist`). A kill in between leaves a note the index lacks (or, for a
//! deletion, a row whose note is gone). Before the note is written, the writer records
//! each memory it touches in a small file next to the index, and removes that file once
//! the index has committed. The first command that opens the scope afterwards (a hook, a
//! recall, a `list`) finds the files left behind and brings those memories' rows up to
//! their notes — a few reads, only after a crash; a missing journal directory costs one
//! `stat`.
//!
//! A writer holds an advisory lock (`flock`) on its entry until it removes it; the kernel
//! drops the lock when the process dies. Completion takes each entry's lock first and
//! skips the entries it cannot lock: those are writes still under way, in this process or
//! another. An entry is written under a temporary name and renamed once whole, so a
//! completion never reads half of one.
//!
//! Completion reads notes and rows without the index's write lock, so a live writer may
//! change them meanwhile. Rows go through `put_records`, which never replaces a newer row;
//! a row completion inserted for a note that another process deleted meanwhile is removed
//! again; and the vector and the quarantine note are written only for the versions that
//! took effect.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Result;
use crate::model::{MemoryId, Status};
use crate::notes::Anchor;
use crate::reindex::ScopeReindex;
use crate::service::{EmbedderState, ScopeKind, Subcog};

/// What a write does to a memory's note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// Writes (creates or replaces) the note.
    Put,
    /// Removes the note.
    Delete,
}

/// The mark of a sync's merge: notes arrive for memories nobody named in advance, so
/// completion compares the whole scope (its id is unused).
const MERGE: &str = "merge";

/// The journal directory of one scope.
#[derive(Debug, Clone)]
pub(crate) struct Journal {
    dir: PathBuf,
}

/// An entry written by this process, locked until [`Entry::done`] removes it.
#[derive(Debug)]
pub(crate) struct Entry {
    path: PathBuf,
    _lock: std::fs::File,
}

/// An entry found on disk.
#[derive(Debug)]
pub(crate) struct Pending {
    path: PathBuf,
    ops: Vec<(Op, MemoryId)>,
    /// A sync's merge was under way: the whole scope is compared.
    merge: bool,
    /// Held while the entry is completed, so two completions do not both take it.
    _lock: std::fs::File,
}

const END: &str = "end";
const EXT: &str = "intent";
/// An entry being written, before its rename.
const PARTIAL_EXT: &str = "partial";

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Journal {
    /// The journal kept beside the index at `db_path` (`subcog.db` → `subcog.journal/`).
    pub(crate) fn beside(db_path: &Path) -> Self {
        Journal {
            dir: db_path.with_extension("journal"),
        }
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records that `ops` are about to be written.
    pub(crate) fn begin(&self, data_dir: &Path, ops: &[(Op, MemoryId)]) -> std::io::Result<Entry> {
        self.write_entry(data_dir, ops, false)
    }

    /// Records that a sync is about to merge arriving notes into the scope's refs.
    pub(crate) fn begin_merge(&self, data_dir: &Path) -> std::io::Result<Entry> {
        self.write_entry(data_dir, &[], true)
    }

    fn write_entry(&self, data_dir: &Path, ops: &[(Op, MemoryId)], merge: bool) -> std::io::Result<Entry> {
        if !self.dir.is_dir() {
            crate::private::create_dir_within(data_dir, &self.dir)?;
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let name = format!(
            "{nanos:020}-{}-{}.{EXT}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let path = self.dir.join(&name);
        let mut text = String::new();
        if merge {
            text.push_str(MERGE);
            text.push('\n');
        }
        for (op, id) in ops {
            let word = match op {
                Op::Put => "put",
                Op::Delete => "delete",
            };
            text.push_str(&format!("{word} {id}\n"));
        }
        text.push_str(END);
        text.push('\n');
        // Locked before it has its name, whole before it is renamed to it.
        let partial = path.with_extension(PARTIAL_EXT);
        let mut file = crate::private::file_options()
            .write(true)
            .create_new(true)
            .open(&partial)?;
        file.lock()?;
        file.write_all(text.as_bytes())?;
        std::fs::rename(&partial, &path)?;
        Ok(Entry { path, _lock: file })
    }

    /// Entries left behind by writers that are gone, oldest first, each locked for its
    /// completion. Entries whose writer still holds them are skipped; one a writer died
    /// while writing (before its note) is removed.
    pub(crate) fn pending(&self) -> Vec<Pending> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in dir.flatten() {
            let path = entry.path();
            let Some(ext) = path.extension() else { continue };
            if ext != EXT && ext != PARTIAL_EXT {
                continue;
            }
            let Ok(mut file) = std::fs::File::open(&path) else {
                continue;
            };
            if file.try_lock().is_err() {
                continue;
            }
            if ext == PARTIAL_EXT {
                remove(&path);
                continue;
            }
            let mut text = String::new();
            if std::io::Read::read_to_string(&mut file, &mut text).is_err() {
                continue;
            }
            match parse(&text) {
                Some((ops, merge)) => found.push(Pending {
                    path,
                    ops,
                    merge,
                    _lock: file,
                }),
                None => {
                    tracing::warn!(path = %path.display(), "unreadable journal entry removed");
                    remove(&path);
                }
            }
        }
        found.sort_by(|a, b| a.path.cmp(&b.path));
        found
    }
}

impl Entry {
    /// The write committed: forgets the entry (removed while still locked).
    pub(crate) fn done(self) {
        remove(&self.path);
    }
}

fn remove(path: &Path) {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        // Completion in another process may have finished it first.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => tracing::warn!(path = %path.display(), error = %e, "cannot remove a journal entry"),
    }
}

/// The operations of a finished entry and whether it marks a merge; `None` when it is
/// partial or not an entry.
fn parse(text: &str) -> Option<(Vec<(Op, MemoryId)>, bool)> {
    let mut ops = Vec::new();
    let mut merge = false;
    let mut lines = text.lines();
    for line in lines.by_ref() {
        if line == END {
            return lines.next().is_none().then_some((ops, merge));
        }
        if line == MERGE {
            merge = true;
            continue;
        }
        let (word, id) = line.split_once(' ')?;
        let op = match word {
            "put" => Op::Put,
            "delete" => Op::Delete,
            _ => return None,
        };
        ops.push((op, id.parse().ok()?));
    }
    None
}

/// What completing a scope's journal changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Completed {
    /// Rows written from their notes.
    pub indexed: usize,
    /// Rows removed because their note was deleted.
    pub removed: usize,
}

impl Subcog {
    /// The journal of a scope.
    pub(crate) fn journal(&self, kind: ScopeKind) -> Journal {
        Journal::beside(self.scope_path(kind))
    }

    /// Finishes the writes a killed process left half done in the scopes open in this
    /// process. Opening a scope does this once; a long-lived process (the warm daemon, the
    /// MCP server) calls it per request, at the cost of reading an empty directory.
    pub fn finish_interrupted_writes(&self) {
        for kind in [ScopeKind::Project, ScopeKind::User] {
            if self.store_is_open(kind) {
                self.complete_journal(kind);
            }
        }
    }

    /// Finishes the writes a killed process left half done in `kind`. Never fails the
    /// command that opened the scope: a problem is logged and the entries are kept for the
    /// next one (and `verify` still completes notes without rows).
    pub(crate) fn complete_journal(&self, kind: ScopeKind) {
        let pending = self.journal(kind).pending();
        if pending.is_empty() {
            return;
        }
        let _span = tracing::info_span!("journal.complete", scope = kind.as_str(), entries = pending.len()).entered();
        match self.replay(kind, &pending) {
            Ok(done) => {
                for p in &pending {
                    remove(&p.path);
                }
                if done != Completed::default() {
                    tracing::info!(
                        indexed = done.indexed,
                        removed = done.removed,
                        "finished writes an interrupted process left half done"
                    );
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot finish interrupted writes yet; `subcog verify` will"),
        }
    }

    fn replay(&self, kind: ScopeKind, pending: &[Pending]) -> Result<Completed> {
        let mut done = Completed::default();
        let Some(repo) = self.notes_repo(kind, false)? else {
            return Ok(done);
        };
        let mut deleted: BTreeSet<MemoryId> = BTreeSet::new();
        let mut anchors: BTreeSet<git2::Oid> = BTreeSet::new();
        for (op, id) in pending.iter().flat_map(|p| &p.ops) {
            if *op == Op::Delete {
                deleted.insert(*id);
            }
            anchors.insert(Anchor::memory(&id.to_string()).oid);
        }
        let whole = pending.iter().any(|p| p.merge);
        let snapshot = self.read_notes(&repo, kind, (!whole).then_some(&anchors))?;
        let store = self.store_for_write(kind)?;
        let noted: BTreeSet<MemoryId> = snapshot.memories.iter().map(|m| m.id).collect();
        for id in deleted.difference(&noted) {
            done.removed += usize::from(store.delete_hard(id)?);
        }
        let mut behind = Vec::new();
        let mut missing: BTreeSet<git2::Oid> = BTreeSet::new();
        for note in &snapshot.memories {
            let row = store.get(&note.id)?;
            if row.is_none() {
                missing.insert(Anchor::memory(&note.id.to_string()).oid);
            }
            // Strictly newer: a note whose row differs at the same time is one the row has
            // moved past (a memory held in quarantine while its note was being rewritten).
            let stale = match &row {
                None => true,
                Some(row) => {
                    note.updated_at > row.updated_at
                        && crate::notes::format::memory_note(row) != crate::notes::format::memory_note(note)
                }
            };
            if stale {
                behind.push((note.clone(), row.is_some_and(|r| r.content == note.content)));
            }
        }
        done.indexed = self.complete_from_notes(kind, &repo, behind, &snapshot.with_meta)?;
        // A memory deleted by a live process after the notes were read: its row was
        // inserted again from the stale read, and goes again.
        if !missing.is_empty() {
            let now = self.read_notes(&repo, kind, Some(&missing))?;
            let still: BTreeSet<MemoryId> = now.memories.iter().map(|m| m.id).collect();
            for note in &snapshot.memories {
                let anchor = Anchor::memory(&note.id.to_string()).oid;
                if missing.contains(&anchor) && !still.contains(&note.id) && store.delete_hard(&note.id)? {
                    done.indexed = done.indexed.saturating_sub(1);
                }
            }
        }
        Ok(done)
    }

    /// Writes memories read from notes into the index, as a write that was cut short
    /// would have. Text the index does not hold yet is screened for instructions to the
    /// agent first, as at capture: a sync killed before it screened its arrivals must not
    /// let them through. `known` marks memories whose content the row already has. Returns
    /// how many rows were written.
    pub(crate) fn complete_from_notes(
        &self,
        kind: ScopeKind,
        repo: &crate::notes::NotesRepo,
        memories: Vec<(crate::model::Memory, bool)>,
        with_meta: &BTreeSet<MemoryId>,
    ) -> Result<usize> {
        if memories.is_empty() {
            return Ok(0);
        }
        let mut memories: Vec<(crate::model::Memory, bool)> = memories;
        let held = self.screen_new_texts(&mut memories, true);
        let memories: Vec<crate::model::Memory> = memories.into_iter().map(|(m, _)| m).collect();
        let wrote = memories.clone();
        let mut r = ScopeReindex::default();
        self.index_memories(kind, memories, with_meta, &mut r, &mut |_, _| {})?;
        let took = self.write_back_holds(kind, repo, &wrote, held)?;
        let store = self.store_for_write(kind)?;
        // The interrupted writer had computed the vectors; compute them again so recall by
        // meaning finds these memories (a failure leaves it to `reindex --embeddings`).
        let embed: Vec<(MemoryId, &str)> = wrote
            .iter()
            .filter(|m| m.status != Status::Deleted && took.contains(&m.id))
            .map(|m| (m.id, m.content.as_str()))
            .collect();
        if !embed.is_empty()
            && let EmbedderState::Ready(embedder) = self.embedder_state()
        {
            let texts: Vec<&str> = embed.iter().map(|(_, t)| *t).collect();
            match self.embed_or_take(embedder.as_ref(), &texts) {
                Ok(vectors) => {
                    let items: Vec<_> = embed.iter().map(|(id, _)| *id).zip(vectors).collect();
                    store.put_embeddings(embedder.model(), &items)?;
                }
                Err(e) => tracing::warn!(error = %e, "completed memories left without vectors"),
            }
        }
        Ok(r.inserted + r.replaced)
    }

    /// Screens the memories whose text is new here (`known` false): the rules, then the
    /// learned judgement when `by_meaning`. Returns `(as read, as held)` for each memory
    /// held back; text the index already has is not screened again (a release stands).
    pub(crate) fn screen_new_texts(
        &self,
        memories: &mut [(crate::model::Memory, bool)],
        by_meaning: bool,
    ) -> Vec<(crate::model::Memory, crate::model::Memory)> {
        let mut held: Vec<(crate::model::Memory, crate::model::Memory)> = Vec::new();
        let mut unheld: Vec<(crate::model::Memory, &mut crate::model::Memory)> = Vec::new();
        for (m, known) in memories.iter_mut() {
            if *known {
                continue;
            }
            let read = m.clone();
            if crate::quarantine::hold(m).is_some() {
                held.push((read, m.clone()));
            } else {
                unheld.push((read, m));
            }
        }
        if by_meaning {
            let mut targets: Vec<&mut crate::model::Memory> = unheld.iter_mut().map(|(_, m)| &mut **m).collect();
            let by_meaning = self.hold_by_meaning(&mut targets);
            for ((read, m), h) in unheld.into_iter().zip(by_meaning) {
                if h {
                    held.push((read, m.clone()));
                }
            }
        }
        held
    }

    /// After `wrote` went through `index_memories`: the ids whose version took effect (a
    /// live writer may have moved a row on since the notes were read, and `put_records`
    /// kept its newer row). The held ones among them are written back to their notes as
    /// held, where the note is still the one read.
    pub(crate) fn write_back_holds(
        &self,
        kind: ScopeKind,
        repo: &crate::notes::NotesRepo,
        wrote: &[crate::model::Memory],
        held: Vec<(crate::model::Memory, crate::model::Memory)>,
    ) -> Result<BTreeSet<MemoryId>> {
        let store = self.store_for_write(kind)?;
        let mut took: BTreeSet<MemoryId> = BTreeSet::new();
        for m in wrote {
            let row = store.get(&m.id)?;
            if row.is_some_and(|r| r.content == m.content && r.status == m.status && r.updated_at == m.updated_at) {
                took.insert(m.id);
            }
        }
        let held: Vec<_> = held.into_iter().filter(|(_, m)| took.contains(&m.id)).collect();
        if held.is_empty() {
            return Ok(took);
        }
        // The held version replaces the note only where the note is still the one read.
        let anchors: BTreeSet<git2::Oid> = held
            .iter()
            .map(|(m, _)| Anchor::memory(&m.id.to_string()).oid)
            .collect();
        let tip = self.read_notes(repo, kind, Some(&anchors))?;
        let edits: Vec<_> = held
            .iter()
            .filter(|(read, _)| {
                tip.memories.iter().any(|t| {
                    t.id == read.id && crate::notes::format::memory_note(t) == crate::notes::format::memory_note(read)
                })
            })
            .map(|(_, m)| crate::persist::note_edit(m))
            .collect();
        if !edits.is_empty() {
            repo.write(
                &crate::notes::NotesRef::Memories.refname(),
                &edits,
                &format!("subcog: held {} notes read from git in quarantine", edits.len()),
            )?;
        }
        Ok(took)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: i64) -> MemoryId {
        let at = chrono::DateTime::from_timestamp(1_700_000_000 + n, 0).unwrap_or_default();
        MemoryId::derived(at, &n.to_string())
    }

    /// A live writer's entry is locked and skipped; one whose writer died (its lock
    /// released, the file left) is handed to completion, locked for it.
    #[test]
    fn only_entries_of_writers_that_are_gone_are_pending() {
        let dir = tempfile::tempdir().expect("tempdir");
        let journal = Journal::beside(&dir.path().join("subcog.db"));
        assert!(journal.pending().is_empty(), "no directory, no entries");
        let entry = journal
            .begin(dir.path(), &[(Op::Put, id(1)), (Op::Delete, id(2))])
            .expect("begin");
        assert!(journal.pending().is_empty(), "the writer is alive");
        entry.done();
        assert_eq!(std::fs::read_dir(journal.dir()).expect("dir").count(), 0);
        // A killed writer: the file stays, the kernel drops the lock.
        drop(
            journal
                .begin(dir.path(), &[(Op::Put, id(1)), (Op::Delete, id(2))])
                .expect("begin"),
        );
        let pending = journal.pending();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].ops, vec![(Op::Put, id(1)), (Op::Delete, id(2))]);
        assert!(!pending[0].merge);
        assert!(journal.pending().is_empty(), "taken by the first completion");
        drop(pending);
        drop(journal.begin_merge(dir.path()).expect("merge"));
        let pending = journal.pending();
        assert_eq!(pending.len(), 2);
        assert!(pending.iter().any(|p| p.merge && p.ops.is_empty()));
    }

    #[test]
    fn a_partial_or_unreadable_entry_is_not_trusted() {
        assert_eq!(parse("put 01ARZ3NDEKTSV4RRFFQ69G5FAV\n"), None, "no end line");
        assert_eq!(parse("put x\nend\n"), None, "not an id");
        assert_eq!(parse("remove 01ARZ3NDEKTSV4RRFFQ69G5FAV\nend\n"), None, "unknown word");
        assert_eq!(parse("end\nput x\n"), None, "text after the end");
        assert_eq!(parse("end\n"), Some((Vec::new(), false)));
        assert_eq!(parse("merge\nend\n"), Some((Vec::new(), true)));
        let dir = tempfile::tempdir().expect("tempdir");
        let journal = Journal::beside(&dir.path().join("subcog.db"));
        std::fs::create_dir_all(journal.dir()).expect("dir");
        // Being written by a live writer: locked, left alone.
        let partial = journal.dir().join("1-2-3.partial");
        let writing = std::fs::File::create(&partial).expect("create");
        writing.lock().expect("lock");
        assert!(journal.pending().is_empty());
        assert!(partial.exists(), "a live writer's");
        // Its writer died before the rename (so before its note): removed.
        drop(writing);
        assert!(journal.pending().is_empty());
        assert!(!partial.exists());
        let garbage = journal.dir().join("1-2-4.intent");
        std::fs::write(&garbage, "put ").expect("write");
        assert!(journal.pending().is_empty());
        assert!(!garbage.exists(), "an unreadable entry is removed");
    }
}
