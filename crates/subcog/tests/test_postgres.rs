//! The CLI, the MCP server and consolidation on a real PostgreSQL with pgvector
//! (`SUBCOG_TEST_DATABASE_URL`, started by scripts/pg-test-server; built with
//! `--features postgres`): two "machines" — two data directories and two clones of one
//! repository — share one live memory, and another project sees none of it.

use crate::common::TestEnv;

/// The test database; the tests fail (never skip) without it.
fn database_url() -> String {
    match std::env::var("SUBCOG_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => panic!("SUBCOG_TEST_DATABASE_URL is not set: start a server with scripts/pg-test-server start DIR"),
    }
}

/// A remote URL no other test run uses, so scopes never collide in a reused database.
fn unique_remote(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("git@example.com:team/{name}-{}-{nanos}.git", std::process::id())
}

/// A machine: its own home and data directory, a repository whose origin is `remote`.
fn machine(remote: &str, url: &str) -> TestEnv {
    let env = TestEnv::new().with_model().with_database(url);
    env.git(&["remote", "add", "origin", remote]).ok();
    env
}

fn ids(v: &serde_json::Value) -> Vec<String> {
    v["results"]
        .as_array()
        .or_else(|| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    r["id"]
                        .as_str()
                        .or_else(|| r["memory"]["id"].as_str())
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn two_machines_share_one_memory_and_other_projects_see_none_of_it() {
    let url = database_url();
    let remote = unique_remote("app");
    let a = machine(&remote, &url);
    let b = machine(&remote, &url);

    let db = a.capture(
        "decisions",
        "Use PostgreSQL with pgvector as the team's shared memory store",
    );
    a.capture(
        "learnings",
        "The flaky upload test was a race in the upload queue, not the timezone",
    );
    a.capture("decisions", "Deploys go out on Tuesdays and Thursdays only");

    // B recalls A's decision by meaning (no shared word with the query but "database").
    let found = b
        .run(&["recall", "--json", "which database backs our memories?"])
        .ok()
        .json();
    let got = ids(&found);
    assert_eq!(got.first(), Some(&db), "recall by meaning on machine B: {found}");

    // B's capture is visible to A at once.
    let from_b = b.capture("blockers", "Staging is down: the TLS certificate expired");
    let listed = a.run(&["list", "--json"]).ok().json();
    assert!(ids(&listed).contains(&from_b), "A lists B's memory: {listed}");
    assert_eq!(
        a.run(&["get", &from_b, "--json"]).ok().json()["content"],
        "Staging is down: the TLS certificate expired"
    );

    // The session context on A carries both machines' memories.
    let context = a.run(&["context"]).ok().stdout;
    assert!(
        context.contains("TLS certificate") && context.contains("pgvector"),
        "{context}"
    );

    // Consolidation runs on the shared scope and records its run for both.
    let run = a.run(&["consolidate", "--json"]).ok().json();
    assert!(run.to_string().contains("completed"), "{run}");
    let runs = b.run(&["runs", "--json"]).ok().json();
    assert!(
        !runs.as_array().map(Vec::is_empty).unwrap_or(true),
        "B sees A's run: {runs}"
    );

    // Status names the database without its credentials.
    let status = b.run(&["status", "--json"]).ok().stdout;
    assert!(status.contains("postgres://"), "{status}");

    // Another project on the same database sees nothing of it.
    let other = machine(&unique_remote("other"), &url);
    let nothing = other
        .run(&["recall", "--json", "which database backs our memories?"])
        .ok()
        .json();
    assert!(
        ids(&nothing).is_empty(),
        "another project read this one's memories: {nothing}"
    );
    let foreign = other.run(&["get", &db, "--json"]).fails_with(1);
    assert!(foreign.stderr.contains("no memory with id"), "{}", foreign.stderr);
}

#[test]
fn the_mcp_server_works_unchanged_on_postgres() {
    let url = database_url();
    let env = machine(&unique_remote("mcp"), &url);
    let facts = crate::test_mcp::run_client(&env, &["stdio", crate::common::bin()]);
    crate::test_mcp::check_tour_facts(&env, &facts);
}

#[test]
fn a_server_without_pgvector_or_unreachable_is_a_clear_error() {
    let env = TestEnv::new().with_database("postgres://subcog:hunter2@127.0.0.1:1/none?connect_timeout=2");
    let run = env.run(&["capture", "-n", "decisions", "anything"]);
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("cannot connect"), "{}", run.stderr);
    assert!(!run.stderr.contains("hunter2"), "the password leaked: {}", run.stderr);
    // Hooks never break the session, even with the database down.
    let hook = env.run_stdin(
        &["hook", "session-start"],
        r#"{"session_id":"s","hook_event_name":"SessionStart","source":"startup"}"#,
    );
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    assert!(
        serde_json::from_str::<serde_json::Value>(&hook.stdout).is_ok(),
        "{}",
        hook.stdout
    );
}

#[test]
fn migrate_copies_a_local_store_into_postgres_and_back() {
    let url = database_url();
    let remote = unique_remote("migrate");
    // A developer's local SQLite store with vectors, a consolidation run and a deleted memory.
    let local = TestEnv::new().with_model();
    local.git(&["remote", "add", "origin", &remote]).ok();
    let kept = local.capture("decisions", "Use Redis for the session cache");
    let valkey = local.capture(
        "decisions",
        "Switched the session cache from Redis to Valkey after the license change",
    );
    let gone = local.capture("learnings", "An obsolete learning");
    local.run(&["delete", &gone]).ok();
    local.run(&["consolidate"]).ok();

    let copied = local.run(&["migrate", "--to", "postgres", &url, "--json"]).ok().json();
    assert_eq!(copied["verified"], true, "{copied}");
    let project = &copied["scopes"][0];
    assert_eq!(
        (project["memories"].as_u64(), project["inserted"].as_u64()),
        (Some(3), Some(3)),
        "{copied}"
    );
    assert!(
        project["to"].as_str().unwrap_or_default().starts_with("postgres://"),
        "{copied}"
    );
    // Running it again resumes: nothing new to write.
    let again = local.run(&["migrate", "--to", "postgres", &url, "--json"]).ok().json();
    assert_eq!(again["scopes"][0]["unchanged"].as_u64(), Some(3), "{again}");

    // The same project on PostgreSQL recalls by meaning from the copied vectors.
    let shared = machine(&remote, &url);
    let found = shared
        .run(&["recall", "--json", "which key-value store caches sessions?"])
        .ok()
        .json();
    // By meaning (no shared word but "session"), the replacement first: the copied vectors
    // and the copied supersession both work.
    assert_eq!(ids(&found).first(), Some(&valkey), "{found}");
    assert_eq!(shared.run(&["get", &gone, "--json"]).ok().json()["status"], "deleted");
    let superseded = shared.run(&["get", &kept, "--json"]).ok().json();
    let local_view = local.run(&["get", &kept, "--json"]).ok().json();
    assert_eq!(
        superseded["superseded_by"], local_view["superseded_by"],
        "enrichment travels"
    );

    // And back into SQLite files under a new data directory.
    let back_dir = shared.root.path().join("back");
    let back = shared
        .run(&["migrate", "--to", "sqlite", &back_dir.display().to_string(), "--json"])
        .ok()
        .json();
    assert_eq!(back["verified"], true, "{back}");
    assert!(back["scopes"][0]["memories"].as_u64() >= Some(3), "{back}");

    // A wrong URL is a clear error and changes nothing.
    let bad = local.run(&[
        "migrate",
        "--to",
        "postgres",
        "postgres://x:pw@127.0.0.1:1/none?connect_timeout=2",
    ]);
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr.contains("cannot connect") && !bad.stderr.contains(":pw@"),
        "{}",
        bad.stderr
    );
}

#[test]
fn notes_and_the_shared_database_stay_consistent_through_sync_and_hooks() {
    let url = database_url();
    // Two clones of one bare remote on this machine: one project key (`file:<remote path>`).
    let dir = tempfile::tempdir().expect("tempdir");
    crate::common::git(dir.path(), &["init", "-q", "--bare", "remote.git"]).ok();
    let remote = dir.path().join("remote.git");
    let a = TestEnv::cloned(&remote).with_model().with_database(&url);
    let b = TestEnv::cloned(&remote).with_model().with_database(&url);
    let id = a.capture(
        "decisions",
        "Feature flags live in LaunchDarkly, not in environment variables",
    );

    // B sees the memory at once through the database, before any note reached it.
    assert_eq!(b.run(&["get", &id, "--json"]).ok().json()["id"], id.as_str());
    let before = b.run(&["verify", "--json"]);
    assert_ne!(before.code, 0, "a problem is reported until the note arrives");
    assert_eq!(
        before.json()["scopes"][0]["index_only"][0],
        id.as_str(),
        "B has the row, not yet the note"
    );

    // After A pushes and B fetches the notes, both records agree on both machines.
    a.run(&["sync"]).ok();
    let synced = b.run(&["sync", "--json"]).ok().json();
    assert_eq!(synced["indexed"]["inserted"], 0, "the row was already there: {synced}");
    assert_eq!(b.run(&["verify", "--json"]).ok().json()["problems"], 0);
    assert_eq!(a.run(&["verify", "--json"]).ok().json()["problems"], 0);

    // A newer edit on B wins over A's older note when A reindexes from its notes.
    b.run(&[
        "update",
        &id,
        "--content",
        "Feature flags live in Unleash since the migration",
    ])
    .ok();
    a.run(&["reindex", "--no-embed"]).ok();
    assert_eq!(
        a.run(&["get", &id, "--json"]).ok().json()["content"],
        "Feature flags live in Unleash since the migration"
    );

    // The SessionStart hook on B injects the shared memory.
    let hook = b.run_stdin(
        &["hook", "session-start"],
        r#"{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}"#,
    );
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    let context = hook.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(context.contains("Unleash"), "{context}");
}
