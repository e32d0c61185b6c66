use std::process::Stdio;

use crate::common::{TestEnv, to_run};

/// Two real processes write 500 memories each into one store at the same time; every one
/// of the 1,000 must be there afterwards.
#[test]
fn two_importing_processes_lose_nothing() {
    let env = TestEnv::new();
    let mut children = Vec::new();
    for p in 0..2 {
        let lines: String = (0..500)
            .map(|i| format!("{{\"content\":\"process {p} memory {i} about caching\",\"namespace\":\"progress\"}}\n"))
            .collect();
        let file = env.root.path().join(format!("batch{p}.jsonl"));
        std::fs::write(&file, lines).expect("write batch");
        let child = env
            .command(&["import", file.to_str().expect("utf8 path"), "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        children.push(child);
    }
    for child in children {
        let run = to_run(child.wait_with_output().expect("wait")).ok();
        assert_eq!(run.json()["imported"], 500);
    }
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["by_status"]["active"], 1000);
}

/// Two processes, each running 200 separate `subcog capture` processes back to back, so
/// that opens, migrations checks and single-row writes interleave for real (400 runs
/// overlap hundreds of times; 1,000 cost a minute and a half of every run of the suite).
#[test]
fn two_capturing_process_streams_lose_nothing() {
    let env = TestEnv::new();
    // Create the store first so both streams race on writes, not on the first migration
    // (racing migrations is covered below).
    env.capture("progress", "warm-up");
    let per_stream = 200;
    std::thread::scope(|s| {
        for p in 0..2 {
            let env = &env;
            s.spawn(move || {
                for i in 0..per_stream {
                    let content = format!("stream {p} capture {i}");
                    let run = env.run(&["capture", "-q", "-n", "progress", &content]);
                    assert_eq!(run.code, 0, "capture {p}/{i} failed: {}", run.stderr);
                }
            });
        }
    });
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["by_status"]["active"], 2 * per_stream + 1);
}

/// Many processes opening a brand-new store at once: migrations run exactly once.
#[test]
fn concurrent_first_opens_migrate_once() {
    let env = TestEnv::new();
    let children: Vec<_> = (0..8)
        .map(|i| {
            env.command(&["capture", "-q", "-n", "progress", &format!("first open {i}")])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    for child in children {
        to_run(child.wait_with_output().expect("wait")).ok();
    }
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["by_status"]["active"], 8);
    assert_eq!(status["scopes"][0]["schema_version"], status["schema_version"]);
}
