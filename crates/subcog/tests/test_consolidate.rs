//! Consolidation end to end on a realistic corpus (198 memories of one project over a
//! year): clusters, supersession, tiers, recall order, idempotency, dry runs, crashes,
//! the run lock and `--if-due`.

use std::path::{Path, PathBuf};

use crate::common::{Run, TestEnv};

const NOW: &str = "2025-01-15T00:00:00Z";

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/project_memories.jsonl")
}

/// A git project holding the corpus, with the model, the clock pinned.
fn seeded() -> TestEnv {
    let env = TestEnv::new().with_model();
    run(&env, &["import", &corpus().display().to_string(), "-q"]).ok();
    env
}

fn run(env: &TestEnv, args: &[&str]) -> Run {
    let out = env.command(args).env("SUBCOG_NOW", NOW).output().expect("spawn");
    crate::common::to_run(out)
}

fn find<'a>(memories: &'a [serde_json::Value], needle: &str) -> &'a serde_json::Value {
    memories
        .iter()
        .find(|m| m["content"].as_str().is_some_and(|c| c.starts_with(needle)))
        .unwrap_or_else(|| panic!("no memory starting with {needle:?}"))
}

fn export(env: &TestEnv) -> Vec<serde_json::Value> {
    run(env, &["export"])
        .ok()
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("jsonl"))
        .collect()
}

/// Everything consolidation decides, minus run ids and write times.
fn end_state(env: &TestEnv) -> (Vec<serde_json::Value>, serde_json::Value, Vec<serde_json::Value>) {
    let memories = export(env);
    let mut summaries = run(env, &["summaries", "--json", "--limit", "1000"]).ok().json();
    for s in summaries.as_array_mut().into_iter().flatten() {
        if let Some(o) = s.as_object_mut() {
            o.remove("run_id");
            o.remove("created_at");
            o.remove("updated_at");
        }
    }
    let mut edges = Vec::new();
    for m in &memories {
        let id = m["id"].as_str().expect("id");
        let mut e = run(env, &["edges", id, "--json"]).ok().json();
        for x in e.as_array_mut().into_iter().flatten() {
            if let Some(o) = x.as_object_mut() {
                o.remove("run_id");
            }
        }
        edges.push(e);
    }
    (memories, summaries, edges)
}

#[test]
fn the_corpus_consolidates_into_sensible_clusters_and_tiers() {
    let env = seeded();
    let out = run(&env, &["consolidate", "--json"]).ok().json();
    let result = &out[0]["result"];
    assert_eq!(out[0]["outcome"], "completed", "{out}");
    assert_eq!(result["memories_processed"], 198);
    assert!(result["clusters_found"].as_u64().is_some_and(|c| c >= 8), "{result}");
    let memories = export(&env);
    let mysql = find(&memories, "Use MySQL for the main database");
    let postgres = find(&memories, "Switched to PostgreSQL because MySQL");
    assert_eq!(
        mysql["superseded_by"], postgres["id"],
        "MySQL decision is linked to its replacement"
    );
    assert!(
        ["cold", "archived"].contains(&mysql["tier"].as_str().unwrap_or_default()),
        "superseded decision demoted: {}",
        mysql["tier"]
    );
    assert_eq!(postgres["tier"], "warm");
    for (old, new) in [
        ("Deploys on Fridays are allowed", "No deploys on Fridays anymore"),
        (
            "Build the React dashboard with Webpack 5",
            "Switched to Vite instead of Webpack",
        ),
        ("CI runs on the self-hosted Jenkins server", "We no longer use Jenkins"),
        ("Use moment.js for date formatting", "Stop using moment.js"),
    ] {
        assert_eq!(
            find(&memories, old)["superseded_by"],
            find(&memories, new)["id"],
            "{old}"
        );
    }
    // No decision is superseded by an unrelated decision.
    for m in memories.iter().filter(|m| m["namespace"] == "decisions") {
        if let Some(newer) = m["superseded_by"].as_str() {
            let n = memories.iter().find(|x| x["id"] == newer).expect("superseder");
            assert_eq!(n["namespace"], "decisions");
        }
    }
    // Stale sprint notes from early 2024 go cold or archived; live learnings stay warm.
    let progress: Vec<&serde_json::Value> = memories.iter().filter(|m| m["namespace"] == "progress").collect();
    let stale = progress
        .iter()
        .filter(|m| m["tier"] == "archived" || m["tier"] == "cold")
        .count();
    assert!(
        stale * 10 >= progress.len() * 8,
        "{stale} of {} progress notes cooled",
        progress.len()
    );
    let learnings: Vec<&serde_json::Value> = memories.iter().filter(|m| m["namespace"] == "learnings").collect();
    let warm = learnings
        .iter()
        .filter(|m| m["tier"] == "warm" || m["tier"] == "hot")
        .count();
    assert!(
        warm * 10 >= learnings.len() * 6,
        "{warm} of {} learnings warm",
        learnings.len()
    );
    // Pinned memories never drop below WARM.
    for m in memories.iter().filter(|m| m["priority"] == "critical") {
        assert!(["hot", "warm"].contains(&m["tier"].as_str().unwrap_or_default()), "{m}");
    }

    // Standard recall returns the replacement first; the old decision is not offered.
    let recall = run(
        &env,
        &["recall", "use MySQL for the main database", "--json", "--no-touch"],
    )
    .ok()
    .json();
    assert_eq!(recall["results"][0]["id"], postgres["id"], "{recall}");
    assert!(
        recall["results"]
            .as_array()
            .is_some_and(|r| r.iter().all(|h| h["id"] != mysql["id"]))
    );
    // Deep enough to see it, the superseded memory ranks right below its replacement.
    let all = run(
        &env,
        &[
            "recall",
            "use MySQL for the main database",
            "--json",
            "--no-touch",
            "--mode",
            "exhaustive",
        ],
    )
    .ok()
    .json();
    let ids: Vec<&str> = all["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|h| h["id"].as_str())
        .collect();
    let (p, m) = (
        ids.iter().position(|i| Some(*i) == postgres["id"].as_str()),
        ids.iter().position(|i| Some(*i) == mysql["id"].as_str()),
    );
    assert!(matches!((p, m), (Some(p), Some(m)) if p < m), "{ids:?}");

    // The graph and the summaries are there, and in the notes.
    let edges = run(&env, &["edges", postgres["id"].as_str().expect("id"), "--json"])
        .ok()
        .json();
    assert!(
        edges.as_array().is_some_and(|e| e
            .iter()
            .any(|x| x["edge_type"] == "supersedes" && x["target_id"] == mysql["id"])),
        "{edges}"
    );
    let dot = run(&env, &["edges", postgres["id"].as_str().expect("id"), "--dot"]).ok();
    assert!(dot.stdout.starts_with("digraph subcog {") && dot.stdout.contains("supersedes"));
    let summaries = run(&env, &["summaries", "--json", "--limit", "100"]).ok().json();
    assert!(summaries.as_array().is_some_and(|s| s.len() >= 8), "{summaries}");
    for r in ["mem-meta", "mem-summaries", "mem-edges", "mem-runs"] {
        let listed = env.git(&["notes", &format!("--ref={r}"), "list"]).ok().stdout;
        assert!(!listed.is_empty(), "{r} has notes");
    }
    let tiers = run(&env, &["tiers", "--json"]).ok().json();
    let total: u64 = tiers["distribution"]
        .as_object()
        .expect("map")
        .values()
        .filter_map(|v| v.as_u64())
        .sum();
    assert_eq!(total, 198);
    let runs = run(&env, &["runs", "--json"]).ok().json();
    assert_eq!(runs[0]["phase"], "completed");
    assert!(
        runs[0]["actions"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["action"] == "supersede"))
    );
}

#[test]
fn a_second_run_changes_nothing_and_a_dry_run_writes_nothing() {
    let env = seeded();
    run(&env, &["consolidate"]).ok();
    let before = end_state(&env);
    let refs = |env: &TestEnv| {
        env.git(&["for-each-ref", "--format=%(refname) %(objectname)", "refs/notes/"])
            .ok()
            .stdout
    };
    let db = || -> Vec<u8> {
        let dir = std::fs::read_dir(env.data.join("projects"))
            .expect("projects")
            .next()
            .expect("one")
            .expect("entry");
        std::fs::read(dir.path().join("subcog.db")).expect("db")
    };
    let (refs_before, db_before) = (refs(&env), db());
    let dry = run(&env, &["consolidate", "--dry-run", "--json"]).ok().json();
    assert_eq!(dry[0]["result"]["dry_run"], true);
    assert_eq!(refs(&env), refs_before, "a dry run moves no ref");
    assert!(db() == db_before, "a dry run leaves the database file byte for byte");

    let again = run(&env, &["consolidate", "--json"]).ok().json();
    let r = &again[0]["result"];
    assert_eq!(r["memories_changed"], 0, "{r}");
    assert_eq!(r["summaries_created"], 0, "{r}");
    assert_eq!(r["tier_transitions"].as_array().map(Vec::len), Some(0), "{r}");
    assert_eq!(end_state(&env), before);
    // Only the run log is new in the notes.
    let after = refs(&env);
    for line in refs_before.lines().filter(|l| !l.contains("mem-runs")) {
        assert!(after.contains(line), "{line} moved");
    }
}

#[test]
fn a_killed_run_finishes_with_the_same_end_state() {
    let reference = seeded();
    let jsonl = run(&reference, &["export"]).ok().stdout;
    run(&reference, &["consolidate"]).ok();
    let expected = end_state(&reference);

    for delay_ms in [30u64, 90, 160, 260] {
        let env = TestEnv::new().with_model();
        let file = env.root.path().join("seed.jsonl");
        std::fs::write(&file, &jsonl).expect("write");
        run(&env, &["import", &file.display().to_string(), "-q"]).ok();
        let mut child = env
            .command(&["consolidate", "-q"])
            .env("SUBCOG_NOW", NOW)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        run(&env, &["consolidate"]).ok();
        assert_eq!(end_state(&env), expected, "killed after {delay_ms} ms");
        run(&env, &["verify"]).ok();
    }
}

#[test]
fn a_held_lock_makes_a_second_run_step_aside() {
    let env = seeded();
    run(&env, &["consolidate", "--dry-run"]).ok();
    let dir = std::fs::read_dir(env.data.join("projects"))
        .expect("projects")
        .next()
        .expect("one")
        .expect("entry");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.path().join("consolidate.lock"))
        .expect("open lock");
    lock.try_lock().expect("take the lock");
    let out = run(&env, &["consolidate", "--json"]).ok().json();
    assert_eq!(out[0]["outcome"], "busy", "{out}");
    drop(lock);
    let out = run(&env, &["consolidate", "--json"]).ok().json();
    assert_eq!(out[0]["outcome"], "completed");
}

#[test]
fn if_due_waits_for_new_memories_or_the_interval() {
    let env = seeded();
    let first = run(&env, &["consolidate", "--if-due", "--json"]).ok().json();
    assert_eq!(first[0]["outcome"], "completed", "the first run is always due");
    let second = run(&env, &["consolidate", "--if-due", "--json"]).ok().json();
    assert_eq!(second[0]["outcome"], "not_due", "{second}");
    let later = env
        .command(&["consolidate", "--if-due", "--json"])
        .env("SUBCOG_NOW", "2025-01-16T01:00:00Z")
        .output()
        .expect("spawn");
    let later = crate::common::to_run(later).ok().json();
    assert_eq!(later[0]["outcome"], "completed", "a day later it is due");
}

#[test]
fn consolidation_results_are_rebuilt_from_notes() {
    let env = seeded();
    run(&env, &["consolidate"]).ok();
    let before = end_state(&env);
    let runs_before = run(&env, &["runs", "--json"]).ok().json();
    std::fs::remove_dir_all(env.data.join("projects")).expect("drop the index");
    let out = run(&env, &["reindex", "--json"]).ok().json();
    let restored = &out["notes"]["scopes"][0]["restored"];
    assert!(restored[0].as_u64().is_some_and(|n| n >= 8), "{out}");
    assert_eq!(end_state(&env), before);
    assert_eq!(run(&env, &["runs", "--json"]).ok().json(), runs_before);
    // Nothing left to do: the rebuilt state is the consolidated state.
    let again = run(&env, &["consolidate", "--json"]).ok().json();
    assert_eq!(again[0]["result"]["memories_changed"], 0, "{again}");
}
