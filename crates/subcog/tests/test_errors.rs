use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::{TestEnv, bin, to_run};

fn count(env: &TestEnv) -> u64 {
    let v = env
        .run(&[
            "list",
            "--limit",
            "0",
            "--json",
            "--status",
            "active,superseded,archived,deleted",
        ])
        .ok()
        .json();
    v.as_array().map(|a| a.len() as u64).unwrap_or(0)
}

#[test]
fn empty_content_is_refused() {
    let env = TestEnv::new();
    let out = env.run(&["capture", "-n", "decisions", "   "]).fails_with(2);
    assert!(out.stderr.contains("content is empty"), "{}", out.stderr);
    env.run_stdin(&["capture", "-n", "decisions"], "\n\n").fails_with(2);
    assert!(!env.data.exists() || count(&env) == 0);
}

#[test]
fn unknown_namespace_needs_explicit_permission() {
    let env = TestEnv::new();
    let out = env
        .run(&["capture", "-n", "team-notes", "Standup moved to 10:00"])
        .fails_with(2);
    assert!(
        out.stderr.contains("unknown namespace \"team-notes\""),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("--allow-new-namespace"));
    env.run(&["capture", "-n", "bad name!", "x"]).fails_with(2);
    env.run(&[
        "capture",
        "-n",
        "team-notes",
        "--allow-new-namespace",
        "Standup moved to 10:00",
    ])
    .ok();
    // Once in use, the namespace is known.
    env.run(&["capture", "-n", "team-notes", "Retro on Fridays"]).ok();
    // Configured custom namespaces are accepted too.
    env.write_config("[namespaces]\ncustom = [\"ops\"]\n");
    env.run(&["capture", "-n", "ops", "Rotate certificates monthly"]).ok();
    assert_eq!(count(&env), 3);
}

#[test]
fn a_corrupt_import_line_writes_nothing() {
    let env = TestEnv::new();
    env.capture("decisions", "Existing memory");
    let file = env.root.path().join("bad.jsonl");
    std::fs::write(
        &file,
        "{\"content\":\"good one\",\"namespace\":\"learnings\"}\n{\"content\": \"broken\n{\"content\":\"never\"}\n",
    )
    .expect("write");
    let out = env.run(&["import", file.to_str().expect("utf8")]).fails_with(2);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
    // A record that parses but is invalid also stops everything.
    std::fs::write(&file, "{\"content\":\"fine\"}\n{\"namespace\":\"learnings\"}\n").expect("write");
    let out = env.run(&["import", file.to_str().expect("utf8")]).fails_with(2);
    assert!(out.stderr.contains("line 2: content is empty"), "{}", out.stderr);
    std::fs::write(&file, "{\"content\":\"fine\",\"importance\":7}\n").expect("write");
    env.run(&["import", file.to_str().expect("utf8")]).fails_with(2);
    assert_eq!(count(&env), 1);
}

#[test]
fn bad_ids_and_missing_memories() {
    let env = TestEnv::new();
    env.run(&["get", "not-an-id"]).fails_with(2);
    let out = env.run(&["get", "01M80MGM3Y641NH24TZ106AKK4"]).fails_with(1);
    assert!(out.stderr.contains("no memory with id"), "{}", out.stderr);
    env.run(&["recall", "?!"]).fails_with(2);
    env.run(&["capture", "--importance", "3", "x"]).fails_with(2);
    env.run(&["capture", "--at", "someday", "x"]).fails_with(2);
    env.run(&["no-such-command"]).fails_with(2);
}

fn db_file(env: &TestEnv) -> std::path::PathBuf {
    crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .expect("db file")
}

/// Replaces the database with bytes that are not a database (its WAL files removed).
fn clobber(db: &Path) {
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::write(db, vec![b'x'; 8192]).expect("clobber");
}

fn moved_aside(db: &Path) -> Vec<std::path::PathBuf> {
    let name = db.file_name().and_then(|n| n.to_str()).expect("name").to_string();
    std::fs::read_dir(db.parent().expect("dir"))
        .expect("read dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with(&format!("{name}.corrupt-")) && !n.ends_with("-wal") && !n.ends_with("-shm")
            })
        })
        .collect()
}

/// In a git repository the notes are the record: the next command moves the damaged file
/// aside, rebuilds the index from the notes, answers, and says so once.
#[test]
fn an_unreadable_index_is_rebuilt_from_notes_by_the_next_command() {
    let env = TestEnv::new();
    env.capture("decisions", "Use PostgreSQL for the orders service");
    env.capture("learnings", "The flaky upload test was a race in the queue");
    let db = db_file(&env);
    clobber(&db);
    let out = env.run(&["recall", "orders service", "--json"]).ok();
    assert!(
        out.stdout.contains("Use PostgreSQL for the orders service"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("rebuilt from git notes: 2 memories"),
        "{}",
        out.stderr
    );
    let aside = moved_aside(&db);
    assert_eq!(aside.len(), 1, "the damaged file is kept");
    assert!(out.stderr.contains(&aside[0].display().to_string()), "{}", out.stderr);
    // Said once: the next command is quiet.
    let again = env.run(&["list"]).ok();
    assert!(!again.stderr.contains("rebuilt"), "{}", again.stderr);
    assert_eq!(count(&env), 2);
    let verify = env.run(&["verify", "--json"]).ok().json();
    assert_eq!(verify["problems"], 0, "{verify}");
}

/// Damage past the header (the file opens, its pages do not read): `reindex` and
/// `verify --repair` run SQLite's integrity check, move the file aside and rebuild.
#[test]
fn reindex_and_verify_repair_rebuild_a_damaged_database() {
    for command in [&["reindex", "--no-embed"][..], &["verify", "--repair"][..]] {
        let env = TestEnv::new();
        for i in 0..3 {
            env.capture("decisions", &format!("Decision number {i} about the deploy pipeline"));
        }
        let db = db_file(&env);
        // The last connection to close checkpointed the WAL into the file: damage every
        // page after the first.
        assert!(!Path::new(&format!("{}-wal", db.display())).exists());
        let mut bytes = std::fs::read(&db).expect("read");
        assert!(bytes.len() > 8192, "{} bytes", bytes.len());
        for (i, b) in bytes.iter_mut().enumerate().skip(4096) {
            *b = (i * 31 % 251) as u8;
        }
        std::fs::write(&db, bytes).expect("damage");
        let out = env.run(command).ok();
        assert!(out.stderr.contains("was unreadable"), "{command:?}: {}", out.stderr);
        assert_eq!(moved_aside(&db).len(), 1, "{command:?}");
        assert_eq!(count(&env), 3, "{command:?}");
    }
}

/// Outside git there are no notes to rebuild from: the command still works on a fresh
/// index and says what was lost and where the old file is.
#[test]
fn an_unreadable_index_without_notes_is_moved_aside_and_explained() {
    let env = TestEnv::without_git();
    env.capture("decisions", "first");
    let db = db_file(&env);
    clobber(&db);
    let out = env.run(&["list"]).ok();
    assert!(out.stderr.contains("no git notes to rebuild it from"), "{}", out.stderr);
    let aside = moved_aside(&db);
    assert_eq!(aside.len(), 1);
    assert!(out.stderr.contains(&aside[0].display().to_string()), "{}", out.stderr);
    assert_eq!(std::fs::read(&aside[0]).expect("kept"), vec![b'x'; 8192]);
}

/// A read-only data directory: capture fails with one line and changes nothing. File
/// permissions do not bind root, so as root the binary runs as `nobody` via setpriv.
#[test]
fn a_read_only_data_dir_fails_cleanly() {
    let env = TestEnv::new();
    env.capture("decisions", "Written before the directory became read-only");
    let before = count(&env);
    let as_root = is_root();
    // Everything the unprivileged user needs to read must be reachable.
    for p in [env.root.path(), &env.home, &env.project] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    set_mode_recursive(&env.data, 0o555, 0o444);

    let run_capture = |content: &str| {
        let mut cmd = unprivileged(as_root);
        let base = env.command(&[]);
        cmd.args(["capture", "-n", "decisions", content])
            .current_dir(&env.project)
            .env_clear()
            .envs(
                base.get_envs()
                    .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))),
            )
            .stdin(std::process::Stdio::null());
        to_run(cmd.output().expect("spawn"))
    };
    let out = run_capture("Must not be stored");
    assert_ne!(out.code, 0, "capture into a read-only store succeeded: {}", out.stdout);
    let errors: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{}", out.stderr);
    assert!(
        errors[0].contains("read-only") || errors[0].contains("readonly"),
        "{}",
        out.stderr
    );

    // A fresh, empty read-only data dir (no store yet) fails the same way.
    let empty = env.root.path().join("ro-empty");
    std::fs::create_dir_all(&empty).expect("dir");
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let mut cmd = if as_root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin()]);
        c
    } else {
        std::process::Command::new(bin())
    };
    cmd.args([
        "capture",
        "-n",
        "decisions",
        "x",
        "--data-dir",
        empty.to_str().expect("utf8"),
    ])
    .current_dir(&env.project)
    .env_clear()
    .env("HOME", &env.home)
    .env("XDG_CONFIG_HOME", env.home.join(".config"));
    let out = to_run(cmd.output().expect("spawn"));
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("read-only"), "{}", out.stderr);

    set_mode_recursive(&env.data, 0o755, 0o644);
    assert_eq!(count(&env), before);
}

/// The binary, run as `nobody` when we are root (permissions do not bind root).
fn unprivileged(as_root: bool) -> std::process::Command {
    if as_root {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin()]);
        c
    } else {
        std::process::Command::new(bin())
    }
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn set_mode_recursive(dir: &Path, dir_mode: u32, file_mode: u32) {
    for p in crate::test_capture_recall::walk(dir) {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(file_mode)).expect("chmod file");
    }
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("read dir").flatten() {
            if e.path().is_dir() {
                dirs.push(e.path());
            }
        }
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(dir_mode)).expect("chmod dir");
    }
}

/// Under the usual umask (022) the data directory and its databases are still private:
/// 0700 and 0600, so other users of the machine cannot read memories. `status` warns about
/// a file there that others can read.
#[test]
fn the_data_dir_and_databases_are_private_whatever_the_umask() {
    let env = TestEnv::new();
    let base = env.command(&[]);
    let mut cmd = std::process::Command::new("sh");
    cmd.args([
        "-c",
        "umask 022; exec \"$0\" capture -n decisions 'Private by default'",
        bin(),
    ])
    .current_dir(&env.project)
    .env_clear()
    .envs(
        base.get_envs()
            .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))),
    );
    to_run(cmd.output().expect("run")).ok();
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&env.data), 0o700);
    let db = crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .expect("db file");
    assert_eq!(mode(&db), 0o600, "{}", db.display());
    assert_eq!(mode(db.parent().expect("dir")), 0o700);

    let log = env.data.join("daemon.log");
    std::fs::write(&log, "x").expect("log");
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let status = env.run(&["status", "--json"]).ok().json();
    let warnings = status["warnings"].to_string();
    assert!(
        warnings.contains("daemon.log") && warnings.contains("644"),
        "{warnings}"
    );
}
