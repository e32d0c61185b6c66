use crate::common::TestEnv;

#[test]
fn capture_then_recall_returns_id_namespace_score_and_timestamps() {
    let env = TestEnv::new();
    let captured = env
        .run(&["capture", "-n", "decisions", "Use PostgreSQL for primary storage"])
        .ok();
    assert!(captured.stdout.starts_with("captured "), "{}", captured.stdout);

    let out = env.run(&["recall", "postgres", "--json"]).ok().json();
    assert_eq!(out["semantic"], false);
    assert_eq!(out["count"], 1);
    let hit = &out["results"][0];
    assert_eq!(hit["content"], "Use PostgreSQL for primary storage");
    assert_eq!(hit["namespace"], "decisions");
    assert_eq!(hit["id"].as_str().map(str::len), Some(26));
    assert!(hit["score"].as_f64().is_some_and(|s| s > 0.0), "{hit}");
    for field in ["created_at", "updated_at"] {
        let ts = hit[field].as_str().expect("timestamp");
        assert!(chrono::DateTime::parse_from_rfc3339(ts).is_ok(), "{field}: {ts}");
    }
    // Human output: aligned row with the id, and the keyword-only notice on stderr.
    let human = env.run(&["search", "postgres"]).ok();
    assert!(human.stdout.contains(hit["id"].as_str().unwrap_or("?")));
    assert!(human.stderr.contains("keyword recall only"));
    assert!(!human.stdout.contains('\u{1b}'), "no color codes when piped");
}

#[test]
fn recall_ranks_and_filters_before_limit() {
    let env = TestEnv::new();
    let wanted = env.capture("decisions", "Cache sessions in Redis with a 1h TTL");
    for i in 0..12 {
        env.capture("learnings", &format!("redis note {i}: redis redis eviction tuning"));
    }
    let all = env.run(&["recall", "redis", "--limit", "5", "--json"]).ok().json();
    assert_eq!(all["count"], 5);
    let filtered = env.run(&["recall", "redis", "-n", "decisions", "--json"]).ok().json();
    assert_eq!(filtered["count"], 1);
    assert_eq!(filtered["results"][0]["id"], wanted.as_str());
    let none = env.run(&["recall", "kubernetes", "--json"]).ok().json();
    assert_eq!(none["count"], 0);
}

#[test]
fn capture_reads_stdin_and_keeps_all_fields() {
    let env = TestEnv::new();
    let out = env
        .run_stdin(
            &[
                "capture",
                "-",
                "-n",
                "patterns",
                "-t",
                "Rust,errors",
                "--tag",
                "cli",
                "--summary",
                "One error type at the boundary",
                "--importance",
                "0.8",
                "--source",
                "STYLE.md",
                "--at",
                "2023-05-08 14:30",
                "--priority",
                "critical",
                "--json",
            ],
            "Convert library errors once, in a From impl,\nand pick the exit code from the kind.\n",
        )
        .ok()
        .json();
    let m = &out["memory"];
    assert_eq!(out["duplicate"], false);
    assert_eq!(
        m["content"],
        "Convert library errors once, in a From impl,\nand pick the exit code from the kind."
    );
    assert_eq!(m["summary"], "One error type at the boundary");
    assert_eq!(m["tags"], serde_json::json!(["rust", "errors", "cli"]));
    assert_eq!(m["importance"].as_f64().map(|v| (v * 10.0).round()), Some(8.0));
    assert_eq!(m["source"], "STYLE.md");
    assert_eq!(m["priority"], "critical");
    assert_eq!(m["created_at"], "2023-05-08T14:30:00Z");
    assert_eq!(m["created_by"], "user");
    // Tag filter and time filter find it.
    let hits = env
        .run(&[
            "recall",
            "exit code",
            "-t",
            "rust",
            "--since",
            "2023-05-01",
            "--until",
            "2023-06-01",
            "--json",
        ])
        .ok()
        .json();
    assert_eq!(hits["count"], 1);
    let later = env
        .run(&["recall", "exit code", "--since", "2024-01-01", "--json"])
        .ok()
        .json();
    assert_eq!(later["count"], 0);
}

#[test]
fn duplicate_capture_returns_the_existing_id() {
    let env = TestEnv::new();
    let first = env.capture("decisions", "Use PostgreSQL for primary storage");
    let again = env
        .run(&[
            "capture",
            "--json",
            "-n",
            "decisions",
            "  use postgresql   FOR primary storage ",
        ])
        .ok()
        .json();
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["id"], first.as_str());
    let human = env
        .run(&["capture", "-n", "decisions", "Use PostgreSQL for primary storage"])
        .ok();
    assert!(human.stdout.starts_with("already stored as"), "{}", human.stdout);
    // Another namespace is another memory.
    let other = env.capture("learnings", "Use PostgreSQL for primary storage");
    assert_ne!(other, first);
    let listed = env.run(&["list", "--json"]).ok().json();
    assert_eq!(listed.as_array().map(Vec::len), Some(2));
}

#[test]
fn secrets_are_redacted_at_capture() {
    let env = TestEnv::new();
    let key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_xyz";
    let out = env
        .run(&[
            "capture",
            "--json",
            "-n",
            "learnings",
            &format!("Claude key is {key} keep it safe"),
        ])
        .ok();
    assert!(
        out.stderr.contains("redacted secrets before storing: 1 anthropic_key"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains(key) && !out.stdout.contains(key));
    let id = out.json()["id"].as_str().expect("id").to_string();
    let stored = env.run(&["get", &id, "--json"]).ok().json();
    assert_eq!(stored["content"], "Claude key is [REDACTED:anthropic_key] keep it safe");
    // The raw database file never saw the key either.
    let mut found_in_files = false;
    for entry in walk(&env.data) {
        let bytes = std::fs::read(&entry).expect("read");
        if bytes.windows(key.len()).any(|w| w == key.as_bytes()) {
            found_in_files = true;
        }
    }
    assert!(!found_in_files, "the secret reached a file under the data dir");

    // --on-secret block refuses and stores nothing.
    let blocked = env
        .run(&[
            "capture",
            "-n",
            "learnings",
            "--on-secret",
            "block",
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
        ])
        .fails_with(2);
    assert!(blocked.stderr.contains("github_token"), "{}", blocked.stderr);
    assert!(!blocked.stderr.contains("ghp_abc"));
    // -q: only errors on stderr, so no redaction note either.
    let quiet = env
        .run(&["capture", "-q", "-n", "learnings", "DB_PASSWORD=hunter2pass"])
        .ok();
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let listed = env.run(&["list", "--json"]).ok().json();
    assert_eq!(listed.as_array().map(Vec::len), Some(2));
    assert!(listed.to_string().contains("DB_PASSWORD=[REDACTED:password]"));
}

#[test]
fn user_memories_are_recalled_from_any_project() {
    let env = TestEnv::new();
    env.run(&[
        "capture",
        "-n",
        "learnings",
        "--domain",
        "user",
        "Prefer ripgrep over grep for code search",
    ])
    .ok();
    let elsewhere = env.root.path().join("other-project");
    std::fs::create_dir_all(&elsewhere).expect("dir");
    let out = env
        .command(&["recall", "ripgrep", "--json"])
        .current_dir(&elsewhere)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["count"], 1);
    assert_eq!(v["results"][0]["domain"], "user");
    // Project memories stay in their project.
    env.capture("decisions", "Project-only decision about ripgrep flags");
    let out = env
        .command(&["recall", "ripgrep", "--json"])
        .current_dir(&elsewhere)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["count"], 1);
    let domain_only = env
        .run(&["recall", "ripgrep", "--domain", "project", "--json"])
        .ok()
        .json();
    assert_eq!(domain_only["count"], 1);
    assert_eq!(domain_only["results"][0]["domain"], "project");
}

#[test]
fn subdirectories_share_the_project_store() {
    let env = TestEnv::new();
    env.capture("decisions", "Adopt trunk-based development");
    let sub = env.project.join("src/deep");
    std::fs::create_dir_all(&sub).expect("dir");
    let out = env
        .command(&["recall", "trunk", "--json"])
        .current_dir(&sub)
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["count"], 1);
}

#[test]
fn non_english_content_is_searchable() {
    let env = TestEnv::new();
    env.capture("learnings", "Die Datenbank läuft auf PostgreSQL; café naïve");
    env.capture("learnings", "東京 チーム は Rust を 使う");
    assert_eq!(env.run(&["recall", "datenbank", "--json"]).ok().json()["count"], 1);
    assert_eq!(env.run(&["recall", "cafe", "--json"]).ok().json()["count"], 1);
    assert_eq!(env.run(&["recall", "東京", "--json"]).ok().json()["count"], 1);
}

pub fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn queries_naming_a_period_get_a_time_channel() {
    let env = TestEnv::new();
    env.run(&[
        "capture",
        "-n",
        "decisions",
        "--at",
        "2023-05-10",
        "Picked Grafana for dashboards",
    ])
    .ok();
    env.run(&[
        "capture",
        "-n",
        "decisions",
        "--at",
        "2023-09-01",
        "Picked Terraform for infrastructure",
    ])
    .ok();
    let v = env
        .run(&["recall", "what did we pick in May 2023", "--json", "--explain"])
        .ok()
        .json();
    assert_eq!(v["time_range"]["start"], "2023-05-01T00:00:00Z");
    let top = &v["results"][0];
    assert_eq!(top["content"], "Picked Grafana for dashboards");
    assert_eq!(top["explain"]["time"]["rank"], 1);
    assert!(v["results"][1]["explain"]["time"].is_null());
    let none = env.run(&["recall", "what did we pick", "--json"]).ok().json();
    assert!(none["time_range"].is_null());
}

#[test]
fn since_and_until_accept_natural_expressions() {
    let env = TestEnv::new();
    let at = |day: &str, text: &str| {
        env.run(&["capture", "-n", "context", "--at", day, text]).ok();
    };
    at("2023-05-02", "Deploy checklist reviewed for the gateway");
    at("2023-05-09", "Deploy checklist updated for the gateway");
    let run = |args: &[&str]| {
        let out = env
            .command(args)
            .env("SUBCOG_NOW", "2023-05-10T12:00:00Z")
            .output()
            .expect("spawn");
        crate::common::to_run(out)
    };
    let found = run(&["list", "--since", "yesterday", "--json"]).ok().json();
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found}");
    let last_week = run(&[
        "recall",
        "deploy checklist",
        "--since",
        "last week",
        "--until",
        "last week",
        "--json",
    ])
    .ok()
    .json();
    let hits = last_week["results"].as_array().expect("results");
    assert_eq!(hits.len(), 1, "{last_week}");
    assert_eq!(hits[0]["content"], "Deploy checklist reviewed for the gateway");
    run(&["list", "--since", "whenever"]).fails_with(2);
}

#[test]
fn a_person_the_query_names_favours_what_that_person_said_without_tags() {
    let env = TestEnv::new();
    // Plain captures, as from a transcript: no tags. Melanie's line has more of the
    // question's words, but only addresses Caroline; Caroline's is what she said.
    for text in [
        "Melanie: Wow Caroline, the support group meeting sounds great! I think the support group meeting will help.",
        "Caroline: That meeting really helped me.",
        "Melanie: I painted a lake sunrise last year.",
    ] {
        env.run(&["capture", "-n", "context", text]).ok();
    }
    let question = "What did Caroline think of the support group meeting?";
    let v = env.run(&["recall", question, "--json", "--explain"]).ok().json();
    let first = &v["results"][0];
    assert!(
        first["content"].as_str().is_some_and(|c| c.starts_with("Caroline:")),
        "{v}"
    );
    assert_eq!(
        first["explain"]["boost_tags"],
        serde_json::json!(["caroline"]),
        "{first}"
    );
    // The addressed name is not an entity of Melanie's line.
    let melanie = v["results"]
        .as_array()
        .and_then(|r| {
            r.iter()
                .find(|h| h["content"].as_str().is_some_and(|c| c.contains("Wow Caroline")))
        })
        .expect("Melanie's line is found by its words");
    assert_eq!(melanie["explain"]["tag_boost"], false, "{melanie}");

    // Switched off, nothing is boosted, and the words alone put Melanie's line first.
    let out = env
        .command(&["recall", question, "--json", "--explain"])
        .env("SUBCOG_RECALL_ENTITY_BOOST", "false")
        .output()
        .expect("spawn");
    let v = crate::common::to_run(out).ok().json();
    assert!(
        v["results"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|h| h["explain"]["tag_boost"] == false),
        "{v}"
    );
    assert!(
        v["results"][0]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Melanie: Wow")),
        "{v}"
    );
}

#[test]
fn a_question_about_the_asker_favours_what_the_asker_said_of_themselves() {
    let env = TestEnv::new();
    // A chat captured turn by turn: the user's own words, and advice written to them that
    // shares more of the question's words.
    for text in [
        "Your photography setup can be complemented with accessories: for your camera, a flash, a bag and a tripod are great accessories.",
        "I'm looking for camera accessories. Which flash works with my Sony A7R IV?",
    ] {
        env.run(&["capture", "-n", "context", text]).ok();
    }
    let question = "Can you suggest accessories that would complement my photography setup?";
    let v = env.run(&["recall", question, "--json", "--explain"]).ok().json();
    let first = &v["results"][0];
    assert!(
        first["content"].as_str().is_some_and(|c| c.starts_with("I'm looking")),
        "{v}"
    );
    assert_eq!(first["explain"]["self_boost"], true, "{first}");

    // Switched off, the words alone put the advice first.
    let out = env
        .command(&["recall", question, "--json", "--explain"])
        .env("SUBCOG_RECALL_SELF_BOOST", "0")
        .output()
        .expect("spawn");
    let v = crate::common::to_run(out).ok().json();
    assert!(
        v["results"][0]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Your photography")),
        "{v}"
    );
    // A question about someone else boosts nothing.
    let v = env
        .run(&[
            "recall",
            "Which accessories complement a photography setup?",
            "--json",
            "--explain",
        ])
        .ok()
        .json();
    assert!(
        v["results"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|h| h["explain"].get("self_boost").is_none()),
        "{v}"
    );
}

#[test]
fn a_short_capture_is_found_by_the_captures_just_before_it() {
    let env = TestEnv::new();
    let capture = |text: &str, at: &str| {
        env.run(&["capture", "-n", "context", "--at", at, text, "--json"])
            .ok()
            .json()["id"]
            .as_str()
            .expect("id")
            .to_string()
    };
    let question = capture("Did Jonas fix the flaky upload test?", "2026-11-27T10:00:00Z");
    let reply = capture("Yes, on Tuesday.", "2026-11-27T10:01:00Z");
    let later = capture("Sure, sounds good.", "2026-11-27T12:00:00Z");
    let get = |id: &str| env.run(&["get", id, "--json"]).ok().json();
    assert_eq!(get(&reply)["context"], "Did Jonas fix the flaky upload test?");
    assert!(get(&question)["context"].is_null());
    assert!(
        get(&later)["context"].is_null(),
        "two hours later is another conversation"
    );
    // The reply is found by what it answered, after the question itself.
    assert_eq!(env.recalled_ids("flaky upload test"), vec![question, reply]);
    // Turned off, a reply is on its own.
    let out = env
        .command(&[
            "capture",
            "-n",
            "context",
            "--at",
            "2026-11-27T12:01:00Z",
            "Fine by me.",
            "--json",
        ])
        .env("SUBCOG_CAPTURE_PRECEDING_CONTEXT_MINUTES", "0")
        .output()
        .expect("spawn");
    let off = crate::common::to_run(out).ok().json();
    assert!(get(off["id"].as_str().expect("id"))["context"].is_null());
    // An import of dated records gets the same.
    let file = env.root.path().join("chat.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"content": "Where is the staging database hosted?", "created_at": "2026-11-20T09:00:00Z"}"#,
            "\n",
            r#"{"content": "On the old Hetzner box.", "created_at": "2026-11-20T09:00:30Z"}"#,
            "\n"
        ),
    )
    .expect("write");
    env.run(&["import", file.to_str().expect("utf8"), "-q"]).ok();
    let v = env.run(&["recall", "staging database hosted", "--json"]).ok().json();
    let answer = v["results"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["content"] == "On the old Hetzner box.")
        .unwrap_or_else(|| panic!("the answer is found by its question: {v}"));
    assert_eq!(
        get(answer["id"].as_str().expect("id"))["context"],
        "Where is the staging database hosted?"
    );
}

#[test]
fn a_capture_can_name_the_memory_it_follows() {
    let env = TestEnv::new();
    let first = env
        .run(&[
            "capture",
            "-n",
            "context",
            "Caroline: I started pottery classes last week.",
            "--json",
        ])
        .ok()
        .json();
    let id = first["id"].as_str().expect("id");
    let short = &id[id.len() - 8..];
    let reply = env
        .run(&[
            "capture",
            "-n",
            "context",
            "Melanie: That sounds amazing, send me photos!",
            "--follows",
            short,
            "--json",
        ])
        .ok()
        .json();
    // The followed text is the reply's search context: "pottery" finds both, the turn that
    // says it first.
    assert_eq!(
        env.recalled_ids("pottery"),
        vec![id.to_string(), reply["id"].as_str().expect("reply id").to_string()]
    );

    // An unknown memory followed is an error, and nothing is stored.
    let out = env
        .command(&[
            "capture",
            "-n",
            "context",
            "An orphan reply",
            "--follows",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
        ])
        .output()
        .expect("spawn");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("01ARZ3NDEKTSV4RRFFQ69G5FAV"), "{err}");
    let list = env.run(&["list", "--json"]).ok().json();
    assert_eq!(list.as_array().map(Vec::len), Some(2), "{list}");
}
