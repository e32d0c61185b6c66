//! Git notes: the durable, shareable record of memories and their enrichment.
//!
//! Owns reading and writing the five notes refs (`refs/notes/mem`, `mem-meta`,
//! `mem-summaries`, `mem-edges`, `mem-runs`) through libgit2. Each record gets a note of
//! its own, attached to an *anchor*: a blob whose content names the record
//! (`subcog memory <id>`), so its object id is fixed by the id alone and two machines
//! writing different records never touch the same tree entry. Anchor blobs are also kept
//! under `anchors/` in the notes tree, so `git gc` and `git notes prune` never drop them.
//!
//! Writes are compare-and-swap on the ref (retried when another process moved it), so
//! concurrent writers never lose each other's notes. This module knows nothing of SQLite;
//! the service layer (`capture`, `reindex`, `verify`, `sync`) decides what to write.

pub mod format;
pub mod merge;
mod transport;
mod tree;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use git2::{ErrorCode, ObjectType, Oid, Repository, Signature};
use thiserror::Error;

pub use transport::{fetch, maintain, push};

/// The notes refs subcog writes, in sync order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NotesRef {
    /// `refs/notes/mem`: the memories themselves.
    Memories,
    /// `refs/notes/mem-meta`: tier, activation, retention, supersession.
    Meta,
    /// `refs/notes/mem-summaries`: cluster summaries.
    Summaries,
    /// `refs/notes/mem-edges`: the memory graph.
    Edges,
    /// `refs/notes/mem-runs`: consolidation run logs.
    Runs,
}

impl NotesRef {
    /// Every ref, memories first.
    pub const ALL: [NotesRef; 5] = [
        NotesRef::Memories,
        NotesRef::Meta,
        NotesRef::Summaries,
        NotesRef::Edges,
        NotesRef::Runs,
    ];

    /// The short name (`mem`, `mem-meta`, ...).
    pub fn short(self) -> &'static str {
        match self {
            NotesRef::Memories => "mem",
            NotesRef::Meta => "mem-meta",
            NotesRef::Summaries => "mem-summaries",
            NotesRef::Edges => "mem-edges",
            NotesRef::Runs => "mem-runs",
        }
    }

    /// The full ref name.
    pub fn refname(self) -> String {
        format!("refs/notes/{}", self.short())
    }

    /// Where `sync` keeps the remote's copy of this ref.
    pub fn tracking_refname(self, remote: &str) -> String {
        format!("refs/notes/remotes/{remote}/{}", self.short())
    }
}

/// The object a record's note is attached to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// Object id of the anchor blob.
    pub oid: Oid,
    /// The blob's content.
    pub content: Vec<u8>,
}

impl Anchor {
    /// The anchor of a record of `kind` (`memory`, `summary`, `edge`, `run`) with `id`.
    pub fn new(kind: &str, id: &str) -> Self {
        let content = format!("subcog {kind} {id}\n").into_bytes();
        // Hashing a blob cannot fail for in-memory bytes; the zero id is never used as an
        // anchor by git, so a failure would surface as a mismatch, not a panic.
        let oid = Oid::hash_object(ObjectType::Blob, &content).unwrap_or(Oid::ZERO_SHA1);
        Anchor { oid, content }
    }

    /// The anchor of a memory (shared by its `mem` and `mem-meta` notes).
    pub fn memory(id: &str) -> Self {
        Anchor::new("memory", id)
    }
}

/// A git failure while reading or writing notes.
#[derive(Debug, Error)]
pub enum NotesError {
    /// libgit2 reported an error.
    #[error("git repository {path}: {message}")]
    Git {
        /// The repository.
        path: String,
        /// libgit2's message.
        message: String,
    },
    /// The ref kept moving under concurrent writers.
    #[error("{refname} in {path} kept changing under concurrent writers; gave up after {attempts} attempts")]
    Contended {
        /// The repository.
        path: String,
        /// The ref.
        refname: String,
        /// How often we tried.
        attempts: u32,
    },
    /// The ref's lock file stayed in place for every attempt.
    #[error("{refname} is locked: {lock} exists (remove it if no git process is running)")]
    Locked {
        /// The lock file.
        lock: String,
        /// The ref.
        refname: String,
    },
    /// Fetching or pushing through the `git` command failed.
    #[error("git {action} {remote} failed: {message}")]
    Transport {
        /// `fetch` or `push`.
        action: &'static str,
        /// The remote name or URL.
        remote: String,
        /// git's own message.
        message: String,
    },
}

/// A note that could not be used, reported without stopping the rest.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NoteIssue {
    /// The ref it was found in.
    pub refname: String,
    /// The object the note is attached to.
    pub anchor: String,
    /// What is wrong.
    pub reason: String,
}

/// One change to a notes ref: write `body` as the note of `anchor`, or remove it.
#[derive(Debug, Clone)]
pub struct NoteEdit {
    /// The record's anchor.
    pub anchor: Anchor,
    /// The new note; `None` removes the note.
    pub body: Option<Vec<u8>>,
}

/// A note as stored: the anchor it annotates and its blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoteEntry {
    /// The annotated object.
    pub anchor: Oid,
    /// The note blob.
    pub blob: Oid,
}

/// What a ref update should do, decided against the ref's current tip.
pub(crate) enum Plan {
    /// Leave the ref as it is.
    Unchanged,
    /// Point the ref at an existing commit (a fast-forward).
    FastForward(Oid),
    /// Commit this tree with these parents.
    Commit {
        /// The new tree.
        tree: Oid,
        /// Parents, the current tip first.
        parents: Vec<Oid>,
    },
}

/// Decides a ref update given the ref's current tip.
pub(crate) type PlanFn<'a> = &'a mut dyn FnMut(&Repository, Option<Oid>) -> Result<Plan, git2::Error>;

/// Notes read (anchor, bytes) and the notes that could not be read.
pub type ReadNotes = (Vec<(Oid, Vec<u8>)>, Vec<NoteIssue>);

/// Batches of at least this many notes are written as one pack file.
const PACK_MIN: usize = 64;

/// How often a ref update is retried when another writer moved the ref.
const MAX_ATTEMPTS: u32 = 50;

/// A repository whose notes subcog reads and writes.
pub struct NotesRepo {
    path: PathBuf,
    repo: Mutex<Repository>,
}

impl std::fmt::Debug for NotesRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NotesRepo").field("path", &self.path).finish()
    }
}

/// Trees and commits here only ever reference objects this module has just written or
/// read, so libgit2's existence check of every referenced object (one file lookup per
/// tree entry, per write) is pure cost.
fn relax_object_checks() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_object_creation(false));
}

impl NotesRepo {
    /// Opens the repository at `path` (a work tree or a bare repository).
    pub fn open(path: &Path) -> Result<Self, NotesError> {
        relax_object_checks();
        let repo = Repository::open(path).map_err(|e| git_err(path, e))?;
        Ok(NotesRepo {
            path: path.to_path_buf(),
            repo: Mutex::new(repo),
        })
    }

    /// Opens the bare repository at `path`, creating it when missing.
    pub fn open_or_init_bare(path: &Path) -> Result<Self, NotesError> {
        if path.join("HEAD").exists() {
            return NotesRepo::open(path);
        }
        relax_object_checks();
        let repo = Repository::init_bare(path).map_err(|e| git_err(path, e))?;
        Ok(NotesRepo {
            path: path.to_path_buf(),
            repo: Mutex::new(repo),
        })
    }

    /// The repository's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn lock(&self) -> Result<MutexGuard<'_, Repository>, NotesError> {
        self.repo.lock().map_err(|_| NotesError::Git {
            path: self.path.display().to_string(),
            message: "repository lock poisoned by an earlier panic".into(),
        })
    }

    pub(crate) fn err(&self, e: git2::Error) -> NotesError {
        git_err(&self.path, e)
    }

    /// The commit a ref points at, if the ref exists.
    pub fn tip(&self, refname: &str) -> Result<Option<Oid>, NotesError> {
        let repo = self.lock()?;
        tip_of(&repo, refname).map_err(|e| self.err(e))
    }

    /// Every note under a ref (anchor → note blob); empty when the ref does not exist.
    pub fn entries(&self, refname: &str) -> Result<BTreeMap<Oid, Oid>, NotesError> {
        let repo = self.lock()?;
        entries_at(&repo, refname).map_err(|e| self.err(e))
    }

    /// Reads a blob when it is at most `limit` bytes; `Ok(Err(size))` when it is larger.
    pub fn read_blob(&self, oid: Oid, limit: usize) -> Result<Result<Vec<u8>, usize>, NotesError> {
        let repo = self.lock()?;
        read_limited(&repo, oid, limit).map_err(|e| self.err(e))
    }

    /// Reads every note under a ref, each at most `limit` bytes. Oversized or unreadable
    /// notes are reported as issues; the others are returned.
    pub fn read_all(&self, refname: &str, limit: usize) -> Result<ReadNotes, NotesError> {
        let repo = self.lock()?;
        let entries = entries_at(&repo, refname).map_err(|e| self.err(e))?;
        let mut notes = Vec::with_capacity(entries.len());
        let mut issues = Vec::new();
        for (anchor, blob) in entries {
            match read_limited(&repo, blob, limit) {
                Ok(Ok(bytes)) => notes.push((anchor, bytes)),
                Ok(Err(size)) => issues.push(NoteIssue {
                    refname: refname.to_string(),
                    anchor: anchor.to_string(),
                    reason: format!("note is {size} bytes, over the limit of {limit}"),
                }),
                Err(e) => issues.push(NoteIssue {
                    refname: refname.to_string(),
                    anchor: anchor.to_string(),
                    reason: format!("unreadable: {}", e.message()),
                }),
            }
        }
        Ok((notes, issues))
    }

    /// The note of one anchor under a ref, if any (at most `limit` bytes).
    pub fn read_note(&self, refname: &str, anchor: Oid, limit: usize) -> Result<Option<Vec<u8>>, NotesError> {
        let repo = self.lock()?;
        let found = (|| -> Result<Option<Oid>, git2::Error> {
            let Some(tip) = tip_of(&repo, refname)? else {
                return Ok(None);
            };
            let tree = repo.find_commit(tip)?.tree()?;
            tree::find_note(&tree, &anchor.to_string())
        })()
        .map_err(|e| self.err(e))?;
        match found {
            Some(blob) => match read_limited(&repo, blob, limit).map_err(|e| self.err(e))? {
                Ok(bytes) => Ok(Some(bytes)),
                Err(size) => Err(NotesError::Git {
                    path: self.path.display().to_string(),
                    message: format!("note {anchor} in {refname} is {size} bytes, over the limit of {limit}"),
                }),
            },
            None => Ok(None),
        }
    }

    /// Applies edits to a ref in one commit; returns the new tip (unchanged when the edits
    /// change nothing).
    pub fn write(&self, refname: &str, edits: &[NoteEdit], message: &str) -> Result<Option<Oid>, NotesError> {
        let _span = tracing::debug_span!("notes.write", refname, count = edits.len()).entered();
        let main = self.lock()?;
        if edits.len() < PACK_MIN {
            return self.write_with(&main, refname, edits, message, &mut |_| Ok(()));
        }
        // A large batch writes its objects into one pack file instead of thousands of loose
        // files (creating files dominates otherwise): a separate handle whose in-memory
        // backend collects the objects; the pack is written before the ref moves.
        let batch = Repository::open(&self.path).map_err(|e| self.err(e))?;
        let odb = batch.odb().map_err(|e| self.err(e))?;
        let mempack = odb.add_new_mempack_backend(1000).map_err(|e| self.err(e))?;
        let mut flush = |repo: &Repository| -> Result<(), git2::Error> {
            use std::io::Write;
            let mut buf = git2::Buf::new();
            mempack.dump(repo, &mut buf)?;
            let mut writer = odb.packwriter()?;
            writer
                .write_all(&buf)
                .map_err(|e| git2::Error::from_str(&format!("writing the notes pack: {e}")))?;
            writer.commit()?;
            mempack.reset()
        };
        self.write_with(&batch, refname, edits, message, &mut flush)
    }

    fn write_with(
        &self,
        repo: &Repository,
        refname: &str,
        edits: &[NoteEdit],
        message: &str,
        before_ref: &mut dyn FnMut(&Repository) -> Result<(), git2::Error>,
    ) -> Result<Option<Oid>, NotesError> {
        let (note_edits, anchor_edits) = (|| -> Result<_, git2::Error> {
            let mut notes = BTreeMap::new();
            let mut anchors = BTreeMap::new();
            for e in edits {
                let hex = e.anchor.oid.to_string();
                match &e.body {
                    Some(body) => {
                        notes.insert(hex.clone(), Some(repo.blob(body)?));
                        anchors.insert(hex, Some(repo.blob(&e.anchor.content)?));
                    }
                    None => {
                        notes.insert(hex.clone(), None);
                        anchors.insert(hex, None);
                    }
                }
            }
            Ok((notes, anchors))
        })()
        .map_err(|e| self.err(e))?;
        self.update_ref_with(
            repo,
            refname,
            message,
            &mut |repo, tip| {
                let base = tip.map(|t| repo.find_commit(t).and_then(|c| c.tree())).transpose()?;
                let tree = tree::apply(repo, base.as_ref(), &note_edits, &anchor_edits)?;
                if Some(tree) == base.as_ref().map(|t| t.id()) {
                    return Ok(Plan::Unchanged);
                }
                Ok(Plan::Commit {
                    tree,
                    parents: tip.into_iter().collect(),
                })
            },
            before_ref,
        )
    }

    /// Moves a ref to a commit planned against its current tip, retrying when another
    /// writer moves it first: the plan is recomputed on the new tip, so nothing is lost.
    pub(crate) fn update_ref(
        &self,
        repo: &Repository,
        refname: &str,
        message: &str,
        plan: PlanFn<'_>,
    ) -> Result<Option<Oid>, NotesError> {
        self.update_ref_with(repo, refname, message, plan, &mut |_| Ok(()))
    }

    /// [`NotesRepo::update_ref`] with a step run after the commit is made and before the
    /// ref moves (writing the batch's pack).
    fn update_ref_with(
        &self,
        repo: &Repository,
        refname: &str,
        message: &str,
        plan: PlanFn<'_>,
        before_ref: &mut dyn FnMut(&Repository) -> Result<(), git2::Error>,
    ) -> Result<Option<Oid>, NotesError> {
        let mut locked = false;
        // Held while this process moves the ref: with it, a ref lock is never another
        // subcog's in-flight update, so one left by a killed writer is recognised at once.
        let writer = WriterLock::acquire(repo.commondir(), refname);
        let stale_after = if writer.is_some() { STALE_LOCK_HELD } else { STALE_LOCK };
        let ref_lock = repo.commondir().join(format!("{refname}.lock"));
        if writer.as_ref().is_some_and(|w| w.left_by_predecessor(&ref_lock)) {
            // The last subcog to move this ref died doing so: its lock is garbage now.
            remove_stale_lock(&ref_lock, Duration::ZERO);
        }
        for attempt in 0..MAX_ATTEMPTS {
            let tip = tip_of(repo, refname).map_err(|e| self.err(e))?;
            let commit = match plan(repo, tip).map_err(|e| self.err(e))? {
                Plan::Unchanged => return Ok(tip),
                Plan::FastForward(target) => target,
                Plan::Commit { tree, parents } => {
                    let commit = self.commit_tree(repo, tree, &parents, message)?;
                    before_ref(repo).map_err(|e| self.err(e))?;
                    commit
                }
            };
            // Compare-and-swap under the ref's lock. Creation compares against the zero id:
            // libgit2's "fail if it exists" check runs before the lock is taken, so two
            // creators could both pass it and the second would replace the first's commit.
            if let Some(w) = &writer {
                w.name(Some(refname));
            }
            let moved = repo.reference_matching(refname, commit, true, tip.unwrap_or(Oid::ZERO_SHA1), message);
            if let Some(w) = &writer {
                w.name(None);
            }
            match moved {
                Ok(_) => return Ok(Some(commit)),
                Err(e) if matches!(e.code(), ErrorCode::Modified | ErrorCode::Locked | ErrorCode::Exists) => {
                    locked = e.code() == ErrorCode::Locked;
                    if locked {
                        remove_stale_lock(&repo.commondir().join(format!("{refname}.lock")), stale_after);
                    }
                    tracing::debug!(refname, attempt, "notes ref moved; retrying");
                    backoff(attempt);
                }
                Err(e) => return Err(self.err(e)),
            }
        }
        if locked {
            return Err(NotesError::Locked {
                lock: repo.commondir().join(format!("{refname}.lock")).display().to_string(),
                refname: refname.to_string(),
            });
        }
        Err(NotesError::Contended {
            path: self.path.display().to_string(),
            refname: refname.to_string(),
            attempts: MAX_ATTEMPTS,
        })
    }

    fn commit_tree(&self, repo: &Repository, tree: Oid, parents: &[Oid], message: &str) -> Result<Oid, NotesError> {
        (|| -> Result<Oid, git2::Error> {
            let tree = repo.find_tree(tree)?;
            let parents = parents
                .iter()
                .map(|p| repo.find_commit(*p))
                .collect::<Result<Vec<_>, _>>()?;
            let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
            let sig = signature(repo)?;
            repo.commit(None, &sig, &sig, message, &tree, &parent_refs)
        })()
        .map_err(|e| self.err(e))
    }

    /// Points `refname` at `target` (creating or replacing it); used for tracking refs.
    pub fn set_ref(&self, refname: &str, target: Oid, message: &str) -> Result<(), NotesError> {
        let repo = self.lock()?;
        repo.reference(refname, target, true, message)
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// The URL of a configured remote, if it exists.
    pub fn remote_url(&self, name: &str) -> Result<Option<String>, NotesError> {
        let repo = self.lock()?;
        match repo.find_remote(name) {
            Ok(r) => Ok(r.url().ok().map(str::to_string)),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
            Err(e) if e.class() == git2::ErrorClass::Config => Ok(None),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Adds a remote, or changes its URL when it exists.
    pub fn set_remote(&self, name: &str, url: &str) -> Result<(), NotesError> {
        let repo = self.lock()?;
        let exists = repo.find_remote(name).is_ok();
        let done = if exists {
            repo.remote_set_url(name, url)
        } else {
            repo.remote(name, url).map(|_| ())
        };
        done.map_err(|e| self.err(e))
    }

    /// Adds `spec` to `remote.<name>.fetch` unless present; returns whether it was added.
    pub fn add_fetch_refspec(&self, remote: &str, spec: &str) -> Result<bool, NotesError> {
        let repo = self.lock()?;
        let r = repo.find_remote(remote).map_err(|e| self.err(e))?;
        let present = r
            .fetch_refspecs()
            .map_err(|e| self.err(e))?
            .iter()
            .flatten()
            .any(|s| s == Some(spec));
        if present {
            return Ok(false);
        }
        repo.remote_add_fetch(remote, spec).map_err(|e| self.err(e))?;
        Ok(true)
    }

    /// Whether commit `a` already contains commit `b` (or equals it).
    pub fn contains(&self, a: Oid, b: Oid) -> Result<bool, NotesError> {
        if a == b {
            return Ok(true);
        }
        let repo = self.lock()?;
        repo.graph_descendant_of(a, b).map_err(|e| self.err(e))
    }
}

pub(crate) fn git_err(path: &Path, e: git2::Error) -> NotesError {
    NotesError::Git {
        path: path.display().to_string(),
        message: e.message().to_string(),
    }
}

pub(crate) fn tip_of(repo: &Repository, refname: &str) -> Result<Option<Oid>, git2::Error> {
    match repo.refname_to_id(refname) {
        Ok(oid) => Ok(Some(oid)),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

pub(crate) fn entries_at(repo: &Repository, refname: &str) -> Result<BTreeMap<Oid, Oid>, git2::Error> {
    let Some(tip) = tip_of(repo, refname)? else {
        return Ok(BTreeMap::new());
    };
    let tree = repo.find_commit(tip)?.tree()?;
    tree::list_notes(repo, &tree)
}

pub(crate) fn read_limited(repo: &Repository, oid: Oid, limit: usize) -> Result<Result<Vec<u8>, usize>, git2::Error> {
    let (size, _) = repo.odb()?.read_header(oid)?;
    if size > limit {
        return Ok(Err(size));
    }
    Ok(Ok(repo.find_blob(oid)?.content().to_vec()))
}

/// The repository's configured identity, or subcog's own when none is set.
fn signature(repo: &Repository) -> Result<Signature<'static>, git2::Error> {
    repo.signature()
        .or_else(|_| Signature::now("subcog", "subcog@localhost"))
}

/// How old a ref's lock file must be to count as left by a killed process. A writer holds
/// it for the microseconds of one ref update; a capture killed in that window would
/// otherwise block every later write until someone removed the file by hand.
const STALE_LOCK: Duration = Duration::from_secs(10);

/// The same while this process holds the [`WriterLock`]: no other subcog can be inside a
/// ref update then, so only a plain `git` command (milliseconds) could hold the lock.
const STALE_LOCK_HELD: Duration = Duration::from_secs(2);

/// How long a writer waits for another subcog's ref update before it goes on without the
/// writer lock (the ref's compare-and-swap keeps that safe; only stale-lock detection slows).
const WRITER_WAIT: Duration = Duration::from_secs(30);

/// An advisory lock (`flock`) on `subcog-notes.flock` in the git directory, held by a
/// subcog process while it moves a notes ref. The kernel releases it when the process
/// dies, which a ref's `.lock` file cannot tell. The holder writes the ref's name into the
/// file just before the move and clears it just after, so the next holder that finds a
/// name there knows its predecessor died inside the move, and that a ref lock no younger
/// than the name is that predecessor's.
struct WriterLock<'r> {
    file: std::fs::File,
    /// The ref a killed predecessor was moving, when it is the one this holder moves, and
    /// when it named it.
    orphaned: Option<(&'r str, std::time::SystemTime)>,
}

impl Drop for WriterLock<'_> {
    fn drop(&mut self) {
        if let Err(e) = self.file.set_len(0) {
            tracing::debug!(error = %e, "cannot clear the writer lock");
        }
    }
}

impl<'r> WriterLock<'r> {
    /// Writes the ref about to move (`None`: clears it). Named only around the move
    /// itself, so a name left behind means its writer died inside one.
    fn name(&self, refname: Option<&str>) {
        use std::io::{Seek, Write};
        let mut f = &self.file;
        let done = f
            .set_len(0)
            .and_then(|()| f.seek(std::io::SeekFrom::Start(0)))
            .and_then(|_| match refname {
                Some(r) => f.write_all(format!("{r}\n").as_bytes()),
                None => Ok(()),
            });
        if let Err(e) = done {
            tracing::debug!(error = %e, "cannot update the writer lock");
        }
    }

    /// Whether `lock` is the ref lock a killed predecessor left: it names this ref and the
    /// lock file is no younger than the name (a lock taken later is someone else's).
    fn left_by_predecessor(&self, lock: &Path) -> bool {
        let Some((_, named_at)) = self.orphaned else {
            return false;
        };
        let made = std::fs::metadata(lock).and_then(|m| m.modified()).ok();
        made.is_some_and(|made| made <= named_at + Duration::from_secs(1))
    }

    /// Takes the lock to move `refname`, waiting up to [`WRITER_WAIT`]; `None` when it
    /// cannot be had.
    fn acquire(git_dir: &Path, refname: &'r str) -> Option<WriterLock<'r>> {
        let path = git_dir.join("subcog-notes.flock");
        let file = crate::private::file_options()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| tracing::debug!(path = %path.display(), error = %e, "no writer lock"))
            .ok()?;
        let deadline = std::time::Instant::now() + WRITER_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => {
                    use std::io::Read;
                    let mut left = String::new();
                    let _ = (&file).read_to_string(&mut left);
                    let named_at = file.metadata().and_then(|m| m.modified()).ok();
                    let orphaned = (left.trim() == refname).then_some(refname).zip(named_at);
                    if !left.trim().is_empty() {
                        tracing::warn!(
                            refname = left.trim(),
                            "a subcog process was killed while moving a notes ref"
                        );
                    }
                    let w = WriterLock { file, orphaned };
                    w.name(None);
                    return Some(w);
                }
                Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2 + fastrand::u64(0..8)));
                }
                Err(e) => {
                    tracing::debug!(path = %path.display(), error = %e, "going on without the writer lock");
                    return None;
                }
            }
        }
    }
}

/// Removes `lock` when it has not been touched for `stale_after`.
fn remove_stale_lock(lock: &Path, stale_after: Duration) {
    let age = std::fs::metadata(lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok());
    if age.is_some_and(|age| age >= stale_after) {
        match std::fs::remove_file(lock) {
            Ok(()) => tracing::warn!(lock = %lock.display(), "removed a stale lock file left by a killed writer"),
            Err(e) => tracing::debug!(lock = %lock.display(), error = %e, "could not remove a stale lock"),
        }
    }
}

/// Sleeps a random time that grows with the attempt. Random per call (not per process), so
/// threads of one process that collided do not retry in lockstep and collide again.
fn backoff(attempt: u32) {
    let ceiling = 1u64 << attempt.min(5);
    std::thread::sleep(Duration::from_millis(1 + fastrand::u64(0..=ceiling)));
}

#[cfg(test)]
mod tests;
