use crate::common::TestEnv;

#[test]
fn get_shows_every_field() {
    let env = TestEnv::new();
    let id = env.capture(
        "decisions",
        "Use PostgreSQL for primary storage. It has ACID guarantees.",
    );
    let human = env.run(&["get", &id]).ok();
    for needle in [
        "namespace",
        "decisions",
        "tier",
        "hot",
        "Use PostgreSQL for primary storage.",
        "ACID guarantees",
    ] {
        assert!(human.stdout.contains(needle), "{needle} missing:\n{}", human.stdout);
    }
    let json = env.run(&["get", &id, "--json"]).ok().json();
    assert_eq!(json["summary"], "Use PostgreSQL for primary storage.");
    assert_eq!(json["status"], "active");
}

#[test]
fn update_changes_fields_and_reindexes() {
    let env = TestEnv::new();
    let id = env.capture("decisions", "Use MySQL for storage");
    let updated = env
        .run(&[
            "update",
            &id,
            "--content",
            "Use PostgreSQL for storage",
            "--add-tag",
            "db",
            "--importance",
            "0.9",
            "--json",
        ])
        .ok()
        .json();
    assert_eq!(updated["content"], "Use PostgreSQL for storage");
    assert_eq!(
        updated["summary"], "Use PostgreSQL for storage",
        "derived summary follows content"
    );
    assert_eq!(updated["tags"], serde_json::json!(["db"]));
    assert_ne!(updated["updated_at"], updated["created_at"]);
    assert_eq!(env.run(&["recall", "mysql", "--json"]).ok().json()["count"], 0);
    assert_eq!(
        env.run(&["recall", "postgresql", "-t", "db", "--json"]).ok().json()["count"],
        1
    );
    env.run(&["update", &id, "--remove-tag", "db", "-n", "learnings"]).ok();
    let after = env.run(&["get", &id, "--json"]).ok().json();
    assert_eq!(after["namespace"], "learnings");
    assert_eq!(after["tags"], serde_json::json!([]));
    env.run(&["update", &id]).fails_with(2);
    // Updating into a duplicate of another live memory is refused.
    env.capture("learnings", "Use SQLite locally");
    let out = env
        .run(&["update", &id, "--content", "use sqlite locally"])
        .fails_with(2);
    assert!(out.stderr.contains("already holds this content"), "{}", out.stderr);
}

#[test]
fn soft_delete_hides_and_restores_hard_delete_needs_yes() {
    let env = TestEnv::new();
    let a = env.capture("decisions", "Soft deleted decision about queues");
    let b = env.capture("decisions", "Hard deleted decision about queues");
    env.run(&["delete", &a]).ok();
    assert_eq!(env.run(&["recall", "queues", "--json"]).ok().json()["count"], 1);
    assert_eq!(env.run(&["get", &a, "--json"]).ok().json()["status"], "deleted");
    let listed = env.run(&["list", "--status", "deleted", "--json"]).ok().json();
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    env.run(&["update", &a, "--status", "active"]).ok();
    assert_eq!(env.run(&["recall", "queues", "--json"]).ok().json()["count"], 2);

    let refused = env.run(&["delete", &b, "--hard"]).fails_with(2);
    assert!(refused.stderr.contains("--yes"));
    env.run(&["get", &b]).ok();
    // A repeated id is one deletion, not a failure half-way.
    env.run(&["delete", &b, &b, "--hard", "--yes"]).ok();
    env.run(&["get", &b]).fails_with(1);
    // An unknown id among several deletes nothing.
    env.run(&["delete", &a, "01M80MGM3Y641NH24TZ106AKK4"]).fails_with(1);
    assert_eq!(env.run(&["get", &a, "--json"]).ok().json()["status"], "active");
}

#[test]
fn status_counts_by_dimension() {
    let env = TestEnv::new();
    env.capture("decisions", "one");
    env.capture("decisions", "two");
    env.run(&["capture", "-n", "learnings", "--domain", "user", "three"])
        .ok();
    let v = env.run(&["status", "--json"]).ok().json();
    assert_eq!(v["by_namespace"]["decisions"], 2);
    assert_eq!(v["by_namespace"]["learnings"], 1);
    assert_eq!(v["by_domain"]["project"], 2);
    assert_eq!(v["by_domain"]["user"], 1);
    assert_eq!(v["by_tier"]["hot"], 3);
    assert_eq!(v["semantic"], false);
    assert!(v["schema_version"].as_u64().is_some_and(|n| n >= 3));
    assert_eq!(v["scopes"].as_array().map(Vec::len), Some(2));
    let human = env.run(&["status"]).ok();
    assert!(human.stdout.contains("keyword only"));
    assert!(human.stdout.contains("project store"));
}

#[test]
fn list_orders_and_limits() {
    let env = TestEnv::new();
    for (i, day) in ["2023-01-01", "2023-02-01", "2023-03-01"].iter().enumerate() {
        env.run(&["capture", "-n", "progress", "--at", day, &format!("milestone {i}")])
            .ok();
    }
    let newest = env.run(&["list", "--json", "--limit", "2"]).ok().json();
    assert_eq!(newest[0]["content"], "milestone 2");
    assert_eq!(newest.as_array().map(Vec::len), Some(2));
    let oldest = env.run(&["list", "--json", "--oldest-first"]).ok().json();
    assert_eq!(oldest[0]["content"], "milestone 0");
    let human = env.run(&["list"]).ok();
    assert_eq!(human.stdout.lines().count(), 3);
}
