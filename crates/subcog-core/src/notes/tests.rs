//! Notes trees against real repositories: fanout, foreign layouts, concurrent writers,
//! and merges.

use std::collections::BTreeSet;
use std::sync::Arc;

use git2::Repository;

use super::*;

fn repo() -> (tempfile::TempDir, NotesRepo) {
    let dir = tempfile::tempdir().expect("tempdir");
    Repository::init(dir.path()).expect("init");
    let notes = NotesRepo::open(dir.path()).expect("open");
    (dir, notes)
}

fn edit(id: &str, body: &str) -> NoteEdit {
    NoteEdit {
        anchor: Anchor::memory(id),
        body: Some(body.as_bytes().to_vec()),
    }
}

const MEM: &str = "refs/notes/mem";

fn limits() -> merge::MergeLimits {
    merge::MergeLimits {
        note_bytes: 1 << 20,
        max_content: 1 << 20,
        horizon: chrono::Utc::now() + chrono::Duration::days(1),
    }
}

#[test]
fn notes_are_written_with_one_level_of_fanout_and_read_back() {
    let (dir, notes) = repo();
    let edits: Vec<NoteEdit> = (0..300)
        .map(|i| edit(&format!("id{i}"), &format!("body {i}")))
        .collect();
    notes.write(MEM, &edits, "batch").expect("write");
    let entries = notes.entries(MEM).expect("entries");
    assert_eq!(entries.len(), 300);
    let anchor = Anchor::memory("id7").oid;
    assert_eq!(
        notes.read_note(MEM, anchor, 100).expect("read"),
        Some(b"body 7".to_vec())
    );
    // One commit for the batch; paths are `ab/cdef…`; anchors are kept reachable.
    let repo = Repository::open(dir.path()).expect("open");
    let tree = repo
        .revparse_single("refs/notes/mem^{tree}")
        .expect("tree")
        .peel_to_tree()
        .expect("tree");
    let hex = anchor.to_string();
    let path = format!("{}/{}", &hex[..2], &hex[2..]);
    assert!(tree.get_path(std::path::Path::new(&path)).is_ok());
    assert!(tree.get_path(std::path::Path::new(&format!("anchors/{path}"))).is_ok());
    assert!(repo.find_blob(anchor).is_ok());
}

#[test]
fn rewriting_and_removing_a_note_leaves_one_copy() {
    let (_dir, notes) = repo();
    notes.write(MEM, &[edit("a", "one")], "1").expect("write");
    notes.write(MEM, &[edit("a", "two")], "2").expect("write");
    let anchor = Anchor::memory("a").oid;
    assert_eq!(notes.entries(MEM).expect("entries").len(), 1);
    assert_eq!(notes.read_note(MEM, anchor, 10).expect("read"), Some(b"two".to_vec()));
    let same = notes.tip(MEM).expect("tip");
    assert_eq!(
        notes.write(MEM, &[edit("a", "two")], "noop").expect("write"),
        same,
        "no empty commits"
    );
    notes
        .write(
            MEM,
            &[NoteEdit {
                anchor: Anchor::memory("a"),
                body: None,
            }],
            "rm",
        )
        .expect("remove");
    assert!(notes.entries(MEM).expect("entries").is_empty());
}

#[test]
fn notes_written_flat_by_git_are_replaced_not_duplicated() {
    let (dir, notes) = repo();
    let repo = Repository::open(dir.path()).expect("open");
    let anchor = Anchor::memory("legacy");
    repo.blob(&anchor.content).expect("blob");
    let sig = git2::Signature::now("t", "t@example.com").expect("sig");
    // libgit2's own note writer puts notes flat at the root, like small `git notes` trees.
    repo.note(&sig, &sig, Some(MEM), anchor.oid, "old", false)
        .expect("note");
    notes.write(MEM, &[edit("legacy", "new")], "rewrite").expect("write");
    let entries = notes.entries(MEM).expect("entries");
    assert_eq!(entries.len(), 1);
    assert_eq!(
        notes.read_note(MEM, anchor.oid, 10).expect("read"),
        Some(b"new".to_vec())
    );
    let via_git = repo.find_note(Some(MEM), anchor.oid).expect("git finds it");
    assert_eq!(via_git.message().ok(), Some("new"));
}

#[test]
fn oversized_notes_are_reported_not_read() {
    let (_dir, notes) = repo();
    notes
        .write(MEM, &[edit("small", "ok"), edit("big", &"x".repeat(5000))], "w")
        .expect("write");
    let (read, issues) = notes.read_all(MEM, 100).expect("read");
    assert_eq!(read.len(), 1);
    assert_eq!(issues.len(), 1);
    assert!(issues[0].reason.contains("5000 bytes"), "{:?}", issues[0]);
}

#[test]
fn concurrent_writers_in_separate_handles_lose_nothing() {
    let (dir, _notes) = repo();
    let path = Arc::new(dir.path().to_path_buf());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                let notes = NotesRepo::open(&path).expect("open");
                for i in 0..25 {
                    notes
                        .write(MEM, &[edit(&format!("t{t}-{i}"), "x")], "w")
                        .expect("write");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread");
    }
    let notes = NotesRepo::open(&path).expect("open");
    assert_eq!(notes.entries(MEM).expect("entries").len(), 100);
}

/// The first write creates the ref. libgit2 checks that a ref is absent before it takes
/// the ref's lock, so two creators that both saw no ref could each "create" it and the
/// second would silently replace the first; the creation must compare under the lock.
#[test]
fn writers_racing_to_create_the_ref_lose_nothing() {
    const WRITERS: usize = 6;
    for round in 0..60 {
        let (dir, _notes) = repo();
        let path = Arc::new(dir.path().to_path_buf());
        let start = Arc::new(std::sync::Barrier::new(WRITERS));
        let threads: Vec<_> = (0..WRITERS)
            .map(|t| {
                let (path, start) = (path.clone(), start.clone());
                std::thread::spawn(move || {
                    let notes = NotesRepo::open(&path).expect("open");
                    start.wait();
                    notes
                        .write(MEM, &[edit(&format!("first-{t}"), "x")], "w")
                        .expect("write");
                })
            })
            .collect();
        for t in threads {
            t.join().expect("thread");
        }
        let notes = NotesRepo::open(&path).expect("open");
        assert_eq!(notes.entries(MEM).expect("entries").len(), WRITERS, "round {round}");
    }
}

fn memory_note_for(id: &str, content: &str, updated: &str) -> String {
    format!(
        "+++\nsubcog = \"memory/1\"\nid = \"{id}\"\nnamespace = \"decisions\"\ndomain = \"project\"\nstatus = \"active\"\npriority = \"normal\"\nsummary = \"s\"\ncreated_by = \"t\"\ncreated_at = \"2024-01-01T00:00:00.000000Z\"\nupdated_at = \"{updated}\"\n+++\n\n{content}\n"
    )
}

#[test]
fn merges_union_records_and_keep_the_newer_version() {
    let (_dir, notes) = repo();
    let shared = "01HAAAAAAAAAAAAAAAAAAAAAAA";
    let (ours, theirs) = ("01HBBBBBBBBBBBBBBBBBBBBBBB", "01HCCCCCCCCCCCCCCCCCCCCCCC");
    let old = "2024-01-01T00:00:00.000000Z";
    let new = "2024-02-01T00:00:00.000000Z";
    notes
        .write(
            MEM,
            &[
                edit(shared, &memory_note_for(shared, "base", old)),
                edit(ours, &memory_note_for(ours, "ours", old)),
            ],
            "local",
        )
        .expect("local");
    let base = notes.tip(MEM).expect("tip").expect("some");
    // The "remote" starts from the same base and diverges.
    let tracking = NotesRef::Memories.tracking_refname("origin");
    notes.set_ref(&tracking, base, "base").expect("set");
    notes
        .write(
            &tracking,
            &[
                edit(shared, &memory_note_for(shared, "theirs, newer", new)),
                edit(theirs, &memory_note_for(theirs, "theirs", old)),
            ],
            "remote",
        )
        .expect("remote");
    let remote_tip = notes.tip(&tracking).expect("tip").expect("some");
    notes
        .write(
            MEM,
            &[edit(
                shared,
                &memory_note_for(shared, "ours, older", "2024-01-15T00:00:00.000000Z"),
            )],
            "l2",
        )
        .expect("local edit");

    let stats = notes
        .merge_tracking(NotesRef::Memories, "origin", &limits())
        .expect("merge");
    assert_eq!((stats.added, stats.updated), (1, 1), "{stats:?}");
    let entries = notes.entries(MEM).expect("entries");
    let ids: BTreeSet<_> = entries.keys().copied().collect();
    assert_eq!(ids.len(), 3);
    let merged = notes
        .read_note(MEM, Anchor::memory(shared).oid, 1 << 20)
        .expect("read")
        .expect("note");
    assert!(String::from_utf8_lossy(&merged).contains("theirs, newer"));
    // A merge commit: both histories kept; merging again changes nothing.
    let tip = notes.tip(MEM).expect("tip").expect("some");
    assert!(notes.contains(tip, remote_tip).expect("contains"));
    let again = notes
        .merge_tracking(NotesRef::Memories, "origin", &limits())
        .expect("merge");
    assert!(!again.changed);
}

/// A lock left by a writer killed inside a ref update would block every later write: one
/// untouched for two seconds (while subcog's own writer lock is held) is removed; a fresh
/// one is waited on and reported.
#[test]
fn a_stale_ref_lock_is_removed_and_a_fresh_one_is_reported() {
    let (dir, notes) = repo();
    notes.write(MEM, &[edit("first", "x")], "w").expect("write");
    let lock = dir.path().join(".git/refs/notes/mem.lock");
    std::fs::write(&lock, "").expect("lock");
    let err = notes.write(MEM, &[edit("second", "x")], "w").expect_err("locked");
    assert!(matches!(err, NotesError::Locked { .. }), "{err}");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .and_then(|f| f.set_modified(old))
        .expect("age the lock");
    notes
        .write(MEM, &[edit("second", "x")], "w")
        .expect("written past the stale lock");
    assert!(!lock.exists());
    assert_eq!(notes.entries(MEM).expect("entries").len(), 2);
    // With the writer lock held, no other subcog can own a ref lock: one a few seconds
    // old is a killed writer's and goes at once, not after ten seconds.
    std::fs::write(&lock, "").expect("lock");
    let recent = std::time::SystemTime::now() - std::time::Duration::from_secs(3);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .and_then(|f| f.set_modified(recent))
        .expect("age the lock");
    notes
        .write(MEM, &[edit("third", "x")], "w")
        .expect("written past a lock left by a killed writer");
    assert_eq!(notes.entries(MEM).expect("entries").len(), 3);
}

/// A subcog killed while moving a ref leaves the ref's lock and its name in the writer
/// lock file (which the kernel unlocked). The next writer removes that lock at once,
/// instead of waiting for it to age; a fresh lock nobody recorded is still respected.
#[test]
fn a_lock_left_by_a_killed_subcog_is_removed_at_once() {
    let (dir, notes) = repo();
    notes.write(MEM, &[edit("first", "x")], "w").expect("write");
    let lock = dir.path().join(".git/refs/notes/mem.lock");
    std::fs::write(&lock, "").expect("lock");
    std::fs::write(dir.path().join(".git/subcog-notes.flock"), format!("{MEM}\n")).expect("record");
    notes
        .write(MEM, &[edit("second", "x")], "w")
        .expect("written past the killed writer's lock");
    assert!(!lock.exists());
    let record = std::fs::read_to_string(dir.path().join(".git/subcog-notes.flock")).expect("read");
    assert_eq!(record, "", "a finished writer leaves no name behind");
    std::fs::write(&lock, "").expect("lock");
    let err = notes.write(MEM, &[edit("third", "x")], "w").expect_err("locked");
    assert!(matches!(err, NotesError::Locked { .. }), "{err}");
}
