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

#[test]
fn a_file_that_is_not_a_database_is_reported() {
    let env = TestEnv::new();
    env.capture("decisions", "first");
    let db = crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "db"))
        .expect("db file");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::write(&db, vec![b'x'; 8192]).expect("clobber");
    let out = env.run(&["recall", "first"]).fails_with(4);
    assert!(out.stderr.contains("corrupt"), "{}", out.stderr);
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
