//! Git notes as the durable record: reindex, verify, history rewrites, bad notes, and
//! failed note writes. Real repositories in temp dirs, real `git`.

use crate::common::{TestEnv, git};

fn export_sorted(env: &TestEnv) -> Vec<serde_json::Value> {
    let out = env.run(&["export"]).ok();
    let mut rows: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("jsonl"))
        .collect();
    rows.sort_by_key(|r| r["id"].as_str().unwrap_or_default().to_string());
    rows
}

fn note_count(env: &TestEnv) -> usize {
    env.git(&["notes", "--ref=mem", "list"]).ok().stdout.lines().count()
}

fn drop_index(env: &TestEnv) {
    std::fs::remove_dir_all(env.data.join("projects")).expect("remove the index");
}

#[test]
fn reindex_restores_every_field_after_the_database_is_deleted() {
    let env = TestEnv::new();
    let a = env
        .run(&[
            "capture",
            "--json",
            "-n",
            "decisions",
            "--tag",
            "db",
            "--tag",
            "postgres",
            "--summary",
            "PostgreSQL it is",
            "--source",
            "ADR-7",
            "--importance",
            "0.8",
            "--priority",
            "critical",
            "Use PostgreSQL for the main store.\n\n+++\nIt has ACID guarantees.",
        ])
        .ok()
        .json()["id"]
        .as_str()
        .expect("id")
        .to_string();
    let b = env.capture("learnings", "The CI cache key must include the lockfile hash");
    env.capture("blockers", "Release blocked on the arm64 runner");
    env.run(&["update", &b, "--add-tag", "ci"]).ok();
    env.run(&["delete", &a]).ok(); // soft: status travels in the note
    env.run(&["recall", "lockfile"]).ok(); // activation, flushed by verify --repair
    env.run(&["verify", "--repair"]).ok();
    assert_eq!(note_count(&env), 3);
    let before = export_sorted(&env);
    assert_eq!(before.len(), 3);
    assert_eq!(
        before.iter().find(|r| r["id"] == b.as_str()).expect("b")["activation_count"],
        1
    );

    drop_index(&env);
    let out = env.run(&["reindex", "--json"]).ok().json();
    assert_eq!(out["notes"]["scopes"][0]["inserted"], 3, "{out}");
    assert_eq!(export_sorted(&env), before);
    env.run(&["verify"]).ok();
}

#[test]
fn every_capture_gets_its_own_note_on_its_own_anchor() {
    let env = TestEnv::new();
    git(&env.project, &["commit", "-q", "--allow-empty", "-m", "first"]).ok();
    let ids: Vec<String> = (0..5)
        .map(|i| env.capture("learnings", &format!("Learning number {i} about caches")))
        .collect();
    let listed = env.git(&["notes", "--ref=mem", "list"]).ok().stdout;
    assert_eq!(listed.lines().count(), 5);
    // Nothing is attached to HEAD, and each note names its memory.
    let head = env.git(&["rev-parse", "HEAD"]).ok().stdout.trim().to_string();
    assert!(!listed.contains(&head));
    for line in listed.lines() {
        let object = line.split_whitespace().nth(1).expect("annotated object");
        let body = env.git(&["notes", "--ref=mem", "show", object]).ok().stdout;
        assert!(body.starts_with("+++\nsubcog = \"memory/1\"\n"), "{body}");
        assert!(ids.iter().any(|id| body.contains(&format!("id = \"{id}\""))), "{body}");
        let anchor = env.git(&["cat-file", "-p", object]).ok().stdout;
        assert!(anchor.starts_with("subcog memory "), "{anchor}");
    }
    env.git(&["fsck", "--no-progress"]).ok();
}

#[test]
fn history_rewrites_and_gc_lose_no_memory() {
    let env = TestEnv::new();
    std::fs::write(env.project.join("a.txt"), "one\n").expect("write");
    env.git(&["add", "a.txt"]).ok();
    env.git(&["commit", "-q", "-m", "one"]).ok();
    let mut ids = vec![env.capture("decisions", "Keep the API versioned under /v1")];
    std::fs::write(env.project.join("a.txt"), "two\n").expect("write");
    env.git(&["commit", "-q", "-am", "two"]).ok();
    ids.push(env.capture("learnings", "Amending rewrites the commit id"));
    env.git(&["commit", "-q", "--amend", "-m", "two, amended"]).ok();
    // A rebase of a feature branch onto a moved main.
    env.git(&["checkout", "-q", "-b", "feature", "HEAD~1"]).ok();
    std::fs::write(env.project.join("b.txt"), "feature\n").expect("write");
    env.git(&["add", "b.txt"]).ok();
    env.git(&["commit", "-q", "-m", "feature"]).ok();
    ids.push(env.capture("patterns", "Rebase feature branches before merging"));
    env.git(&["rebase", "-q", "main"]).ok();
    env.git(&["reflog", "expire", "--expire=now", "--all"]).ok();
    env.git(&["gc", "-q", "--prune=now", "--aggressive"]).ok();
    // Even pruning notes of missing objects keeps them: the anchors are reachable.
    env.git(&["notes", "--ref=mem", "prune"]).ok();
    env.git(&["fsck", "--no-progress", "--no-dangling"]).ok();

    drop_index(&env);
    env.run(&["reindex"]).ok();
    let listed = env.run(&["list", "--json"]).ok().json();
    let found: Vec<&str> = listed
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    for id in &ids {
        assert!(found.contains(&id.as_str()), "{id} lost: {found:?}");
    }
}

#[test]
fn bad_notes_are_reported_by_verify_and_skipped_by_reindex() {
    let env = TestEnv::new();
    let good = env.capture("decisions", "Use ULIDs for memory ids");
    env.capture("learnings", "Notes merge record by record");
    // A note on some other object, not in subcog's format.
    std::fs::write(env.project.join("stray.txt"), "some object\n").expect("write");
    let stray_oid = env
        .git(&["hash-object", "-w", "stray.txt"])
        .ok()
        .stdout
        .trim()
        .to_string();
    env.git(&[
        "notes",
        "--ref=mem",
        "add",
        "-m",
        "this is not a subcog note",
        &stray_oid,
    ])
    .ok();
    assert_eq!(note_count(&env), 3);

    let verify = env.run(&["verify"]);
    assert_eq!(verify.code, 1, "{}{}", verify.stdout, verify.stderr);
    assert!(verify.stdout.contains(&stray_oid), "{}", verify.stdout);
    assert!(verify.stdout.contains("opening +++"), "{}", verify.stdout);
    let json = env.run(&["verify", "--json"]).json();
    assert_eq!(json["problems"], 1);
    assert_eq!(json["scopes"][0]["invalid"][0]["anchor"], stray_oid.as_str());

    drop_index(&env);
    let reindex = env.run(&["reindex"]).ok();
    assert!(
        reindex.stderr.contains(&format!("skipped note {stray_oid}")),
        "{}",
        reindex.stderr
    );
    let listed = env.run(&["list", "--json"]).ok().json();
    assert_eq!(listed.as_array().expect("array").len(), 2);
    env.run(&["get", &good]).ok();
}

#[test]
fn a_failed_note_write_fails_the_capture_and_keeps_no_row() {
    let env = TestEnv::new();
    env.capture("decisions", "First memory, note written");
    // A stale lock on the notes ref: every write attempt fails.
    let lock = env.project.join(".git/refs/notes/mem.lock");
    std::fs::write(&lock, "").expect("lock");
    let out = env.run(&["capture", "-n", "decisions", "Second memory, note cannot be written"]);
    assert_eq!(out.code, 4, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("refs/notes/mem"), "{}", out.stderr);
    let listed = env.run(&["list", "--json"]).ok().json();
    assert_eq!(listed.as_array().expect("array").len(), 1, "the row was rolled back");
    std::fs::remove_file(&lock).expect("unlock");
    env.capture("decisions", "Second memory, note cannot be written");
    assert_eq!(note_count(&env), 2);
    env.run(&["verify"]).ok();
}

#[test]
fn failed_note_writes_roll_back_updates_and_deletes() {
    let env = TestEnv::new();
    let id = env.capture("decisions", "Keep this exact text");
    // A live writer's lock on the notes ref, taken again before each command (one left
    // untouched for seconds is a killed writer's and would be removed).
    let lock = env.project.join(".git/refs/notes/mem.lock");
    let hold = || std::fs::write(&lock, "").expect("lock");
    hold();
    env.run(&["update", &id, "--content", "Changed text"]).fails_with(4);
    hold();
    env.run(&["delete", &id]).fails_with(4);
    hold();
    env.run(&["delete", &id, "--hard", "--yes"]).fails_with(4);
    std::fs::remove_file(&lock).expect("unlock");
    let m = env.run(&["get", &id, "--json"]).ok().json();
    assert_eq!(m["content"], "Keep this exact text");
    assert_eq!(m["status"], "active");
    env.run(&["verify"]).ok();
}

#[test]
fn recalls_do_not_write_notes_until_a_flush() {
    let env = TestEnv::new();
    env.capture("learnings", "Recall counts are flushed in batches");
    let before = env.git(&["rev-parse", "refs/notes/mem"]).ok().stdout;
    for _ in 0..3 {
        env.run(&["recall", "recall counts batches"]).ok();
    }
    assert_eq!(env.git(&["rev-parse", "refs/notes/mem"]).ok().stdout, before);
    assert_ne!(env.git(&["rev-parse", "-q", "--verify", "refs/notes/mem-meta"]).code, 0);
    env.run(&["verify", "--repair"]).ok();
    let meta = env.git(&["notes", "--ref=mem-meta", "list"]).ok().stdout;
    let object = meta.split_whitespace().nth(1).expect("meta note").to_string();
    let body = env.git(&["notes", "--ref=mem-meta", "show", &object]).ok().stdout;
    assert!(body.contains("activation_count = 3"), "{body}");
}

#[test]
fn update_and_delete_reach_the_notes() {
    let env = TestEnv::new();
    let id = env.capture("decisions", "Use MySQL for storage");
    env.run(&["update", &id, "--content", "Use PostgreSQL for storage"])
        .ok();
    let object = env.git(&["notes", "--ref=mem", "list"]).ok().stdout;
    let object = object.split_whitespace().nth(1).expect("object").to_string();
    let body = env.git(&["notes", "--ref=mem", "show", &object]).ok().stdout;
    assert!(body.contains("Use PostgreSQL for storage"), "{body}");
    env.run(&["delete", &id]).ok();
    let body = env.git(&["notes", "--ref=mem", "show", &object]).ok().stdout;
    assert!(body.contains("status = \"deleted\""), "{body}");
    env.run(&["delete", &id, "--hard", "--yes"]).ok();
    assert_eq!(note_count(&env), 0);
    // The history still has every version.
    let log = env.git(&["log", "--format=%s", "refs/notes/mem"]).ok().stdout;
    assert_eq!(log.lines().count(), 4, "{log}");
}

#[test]
fn outside_git_the_index_alone_is_the_store() {
    let env = TestEnv::without_git();
    env.capture("decisions", "No repository here");
    let out = env.run(&["reindex", "--no-embed"]).ok();
    assert!(out.stdout.contains("no git notes here"), "{}", out.stdout);
    env.run(&["verify"]).ok();
    env.run(&["sync"]).fails_with(2);
}

#[test]
fn verify_repair_writes_notes_for_memories_captured_before_git() {
    let env = TestEnv::without_git();
    let ids: Vec<String> = (0..3)
        .map(|i| env.capture("context", &format!("Captured before git init, number {i}")))
        .collect();
    env.git(&["init", "-q", "-b", "main"]).ok();
    // Same directory, now a repository: the same index, no notes yet.
    let out = env.run(&["verify", "--json"]);
    assert_eq!(out.code, 1);
    assert_eq!(out.json()["scopes"][0]["index_only"].as_array().expect("list").len(), 3);
    env.run(&["verify", "--repair"]).ok();
    env.run(&["verify"]).ok();
    assert_eq!(note_count(&env), 3);
    drop_index(&env);
    env.run(&["reindex"]).ok();
    for id in &ids {
        env.run(&["get", id]).ok();
    }
}

/// A capture killed after its note was committed and before its index row was leaves a
/// note without a row. `verify` completes it from the note by itself: clean without
/// `--repair`, and the memory is back in the index.
#[test]
fn verify_completes_a_capture_interrupted_between_note_and_row() {
    let env = TestEnv::new();
    env.capture("decisions", "Written whole before the interruption");
    let db = crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .expect("db file");
    let before = std::fs::read(&db).expect("read");
    let id = env.capture("decisions", "Its note was committed, its row was not");
    // The index as it was before the second capture's transaction committed.
    std::fs::write(&db, before).expect("restore");
    assert_eq!(note_count(&env), 2);
    let out = env.run(&["verify", "--json"]).ok().json();
    assert_eq!(out["problems"], 0, "{out}");
    assert_eq!(out["scopes"][0]["completed"][0], id.as_str(), "{out}");
    assert_eq!(env.run(&["get", &id, "--json"]).ok().json()["id"], id.as_str());
    let again = env.run(&["verify", "--json"]).ok().json();
    assert_eq!(
        again["scopes"][0]["completed"].as_array().map(Vec::len),
        Some(0),
        "{again}"
    );
}

/// The database file of the project scope and its journal directory.
fn db_and_journal(env: &TestEnv) -> (std::path::PathBuf, std::path::PathBuf) {
    let db = crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .expect("db file");
    let journal = db.with_extension("journal");
    (db, journal)
}

/// The ids `list` (the next command after a kill) shows.
fn listed_ids(env: &TestEnv) -> Vec<String> {
    let listed = env.run(&["list", "--json"]).ok().json();
    listed
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|m| m["id"].as_str().map(str::to_string))
        .collect()
}

/// What a writer killed between its note and its index commit leaves: the note, the old
/// index, and its journal entry. The next command of any kind (here `list`) finishes the
/// write, so `verify` afterwards has nothing left to complete.
#[test]
fn the_next_command_finishes_a_capture_killed_between_note_and_row() {
    let env = TestEnv::new();
    env.capture("decisions", "Written whole before the interruption");
    let (db, journal) = db_and_journal(&env);
    let before = std::fs::read(&db).expect("read");
    let id = env.capture("decisions", "Its note was committed, its row was not");
    assert!(
        std::fs::read_dir(&journal).map(|d| d.count()).unwrap_or(0) == 0,
        "a committed write leaves no entry"
    );
    std::fs::write(&db, before).expect("restore");
    std::fs::write(
        journal.join("00000000000000000001-1-0.intent"),
        format!("put {id}\nend\n"),
    )
    .expect("entry");
    let ids = listed_ids(&env);
    assert!(ids.contains(&id), "{ids:?}");
    assert_eq!(
        std::fs::read_dir(&journal).expect("journal").count(),
        0,
        "entry consumed"
    );
    let out = env.run(&["verify", "--json"]).ok().json();
    assert_eq!(out["problems"], 0, "{out}");
    assert_eq!(out["scopes"][0]["completed"].as_array().map(Vec::len), Some(0), "{out}");
}

/// A hard delete killed after its note was removed and before the row's removal committed
/// is finished by the next command; an unfinished entry (a writer killed while writing it,
/// before its note) changes nothing.
#[test]
fn the_next_command_finishes_a_hard_delete_and_ignores_a_partial_entry() {
    let env = TestEnv::new();
    let keep = env.capture("decisions", "Stays through everything");
    let gone = env.capture("decisions", "Deleted for good, then the process was killed");
    let (db, journal) = db_and_journal(&env);
    let before = std::fs::read(&db).expect("read");
    env.run(&["delete", "--hard", "--yes", &gone]).ok();
    std::fs::write(&db, before).expect("restore");
    std::fs::create_dir_all(&journal).expect("journal dir");
    std::fs::write(
        journal.join("00000000000000000001-1-0.intent"),
        format!("delete {gone}\nend\n"),
    )
    .expect("entry");
    std::fs::write(
        journal.join("00000000000000000002-1-1.intent"),
        format!("delete {keep}\n"),
    )
    .expect("partial");
    let ids = listed_ids(&env);
    assert_eq!(ids, vec![keep]);
    let out = env.run(&["verify", "--json"]).ok().json();
    assert_eq!(out["problems"], 0, "{out}");
}
