//! Seeing what subcog knows and does: `doctor` on a healthy project and on each broken
//! state (with the fix it names), `explain` (activity from real hooks and recalls, tier
//! history from a real consolidation, why a query missed), the hooks' log file, and the
//! MCP server's Prometheus endpoint.

use serde_json::{Value, json};
use std::io::{Read, Write};

use crate::common::TestEnv;

fn doctor(env: &TestEnv) -> Value {
    let run = env.run(&["doctor", "--json"]);
    let v = run.json();
    assert_eq!(run.code, if v["ok"] == json!(true) { 0 } else { 1 }, "{}", run.stdout);
    v
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["checks"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no check {name}: {report}"))
}

#[track_caller]
fn assert_fix(report: &Value, name: &str, health: &str, fix_contains: &str) {
    let c = check(report, name);
    assert_eq!(c["health"], health, "{c}");
    let fix = c["fix"].as_str().unwrap_or_default();
    assert!(
        fix.contains(fix_contains),
        "{name}: fix {fix:?} should name {fix_contains:?}"
    );
}

#[test]
fn doctor_passes_on_a_healthy_project_and_names_the_fix_for_each_broken_state() {
    let env = TestEnv::new().with_model();
    env.run(&["init"]).ok();
    env.capture("decisions", "Use PostgreSQL for the orders service");
    env.capture("learnings", "The flaky upload test was a race in the queue");
    let healthy = doctor(&env);
    assert_eq!(healthy["ok"], true, "{healthy:#}");
    assert_eq!(healthy["failed"], 0);
    for name in [
        "project database",
        "index vs notes",
        "embedding model",
        "claude code hooks",
        "mcp server",
        "permissions",
        "disk space",
    ] {
        assert_eq!(check(&healthy, name)["health"], "ok", "{name}: {healthy:#}");
    }
    let text = env.run(&["doctor"]).ok();
    assert!(text.stdout.contains("all checks passed"), "{}", text.stdout);

    // Hooks registered twice: in the project's settings and the user's.
    let claude = env.home.join(".claude");
    std::fs::create_dir_all(&claude).expect("claude dir");
    std::fs::copy(env.project.join(".claude/settings.json"), claude.join("settings.json")).expect("copy");
    let report = doctor(&env);
    assert_fix(&report, "claude code hooks", "fail", "remove subcog's hooks");
    let human = env.run(&["doctor"]);
    assert_eq!(human.code, 1);
    assert!(human.stdout.contains("check(s) failed"), "{}", human.stdout);
    std::fs::remove_file(claude.join("settings.json")).expect("rm");

    // The data directory readable by others.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&env.data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        assert_fix(&doctor(&env), "permissions", "fail", "chmod -R go-rwx");
        std::fs::set_permissions(&env.data, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    }

    // A note removed behind subcog's back: index and notes disagree.
    env.git(&["update-ref", "-d", "refs/notes/mem"]).ok();
    assert_fix(&doctor(&env), "index vs notes", "fail", "subcog verify --repair");
    env.run(&["verify", "--repair"]).ok();
    assert_eq!(check(&doctor(&env), "index vs notes")["health"], "ok");

    // The model missing: recall still works by keywords, so a warning with the fix.
    let empty = env.root.path().join("no-model");
    std::fs::create_dir_all(&empty).expect("dir");
    let out = env
        .command(&["doctor", "--json"])
        .env("SUBCOG_EMBEDDING_MODEL_DIR", &empty)
        .output()
        .expect("run");
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_fix(&report, "embedding model", "warn", "subcog model install");

    // An LLM provider named without its key: consolidation would run offline.
    env.write_config("[llm]\nprovider = \"openai\"\n");
    assert_fix(&doctor(&env), "consolidation llm", "warn", "API key");
    std::fs::remove_file(env.home.join(".config/subcog/config.toml")).expect("rm config");

    // A damaged index: found read-only (doctor does not heal it behind the user's back).
    let db = crate::test_capture_recall::walk(&env.data)
        .into_iter()
        .find(|p| p.file_name().is_some_and(|n| n == "subcog.db"))
        .expect("db");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    std::fs::write(&db, vec![b'x'; 8192]).expect("clobber");
    let report = doctor(&env);
    assert_fix(&report, "project database", "fail", "subcog reindex");
    assert_eq!(
        std::fs::read(&db).expect("db"),
        vec![b'x'; 8192],
        "doctor changed nothing"
    );
    env.run(&["reindex"]).ok();
    let after = doctor(&env);
    assert_eq!(after["ok"], true, "{after:#}");
    assert_eq!(
        env.run(&["list", "--json"]).ok().json().as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn explain_tells_where_a_memory_went_and_why_a_query_missed_it() {
    let env = TestEnv::new().with_model();
    let db_id = env.capture("decisions", "Use PostgreSQL for the orders service because of JSONB");
    let other = env.capture("learnings", "The flaky upload test was a race in the queue");
    // A real SessionStart injects both; a real recall returns the first.
    let start =
        json!({"session_id": "sess-42", "cwd": env.project, "hook_event_name": "SessionStart", "source": "startup"});
    let run = env.run_stdin(&["hook", "session-start"], &start.to_string());
    assert_eq!(run.code, 0);
    env.run(&["recall", "which database does the orders service use"]).ok();
    let e = env.run(&["explain", &db_id, "--json"]).ok().json();
    assert_eq!(e["memory"]["id"], db_id.as_str());
    assert_eq!(e["injected_count"], 1, "{e:#}");
    assert_eq!(e["injections"][0]["via"], "SessionStart");
    assert_eq!(e["injections"][0]["session"], "sess-42");
    assert_eq!(e["recalled_count"], 1, "{e:#}");
    assert_eq!(e["recalls"][0]["query"], "which database does the orders service use");
    assert!(e["retention"]["now"]["recency"].as_f64().is_some(), "{e:#}");
    // `explain` itself is not an access.
    let again = env.run(&["explain", &db_id, "--json"]).ok().json();
    assert_eq!(again["recalled_count"], 1);
    assert_eq!(again["memory"]["activation_count"], e["memory"]["activation_count"]);

    // Half a year later, consolidation moves the unrecalled learning down a tier; its
    // history says when and why.
    let later = env
        .command(&["consolidate", "--llm", "off", "--json"])
        .env("SUBCOG_NOW", "2027-06-01T00:00:00Z")
        .output()
        .expect("consolidate");
    assert!(later.status.success(), "{}", String::from_utf8_lossy(&later.stderr));
    let e = env.run(&["explain", &other, "--json"]).ok().json();
    let history = e["tier_history"].as_array().expect("history");
    assert!(!history.is_empty(), "{e:#}");
    assert!(
        history[0]["reason"].as_str().unwrap_or("").contains("retention score"),
        "{e:#}"
    );
    let human = env.run(&["explain", &other]).ok().stdout;
    assert!(human.contains("tier history") && human.contains("->"), "{human}");

    // Why a query did or did not return it.
    let hit = env
        .run(&["explain", &db_id, "--query", "orders database", "--json"])
        .ok()
        .json();
    assert_eq!(hit["returned_rank"], 1, "{hit:#}");
    assert!(hit["bm25"]["rank"].as_u64().is_some(), "{hit:#}");
    let cold = env
        .run(&[
            "explain",
            &db_id,
            "--query",
            "orders database",
            "--tier",
            "cold",
            "--json",
        ])
        .ok()
        .json();
    assert!(cold["returned_rank"].is_null());
    assert!(
        cold["verdict"]
            .as_str()
            .unwrap_or("")
            .starts_with("filtered out by tier"),
        "{cold:#}"
    );
    let human = env
        .run(&["explain", &db_id, "--query", "orders database", "--tier", "cold"])
        .ok()
        .stdout;
    assert!(human.contains("FAILS"), "{human}");
}

#[test]
fn hooks_log_to_a_private_rotating_file_and_no_secret_reaches_it() {
    let env = TestEnv::new();
    let secret = "ghp_Zx81LmQa0Pq7Rt5Vw3Yb9Nc2Kd4Hf6Js8Eu1";
    let prompt = json!({
        "session_id": "s1",
        "cwd": env.project,
        "hook_event_name": "UserPromptSubmit",
        "prompt": format!("[decision] The deploy token is {secret}; rotate it monthly"),
    });
    let run = env
        .command(&["hook", "user-prompt-submit"])
        .env("SUBCOG_LOG", "trace")
        .env("SUBCOG_TELEMETRY_LOG_FORMAT", "json")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(prompt.to_string().as_bytes())?;
            child.wait_with_output()
        })
        .expect("hook");
    assert!(run.status.success());
    let out: Value = serde_json::from_slice(&run.stdout).expect("stdout is the hook's JSON only");
    assert!(out.is_object());
    let log = env.data.join("logs/subcog.log");
    let text = std::fs::read_to_string(&log).expect("the hook logged to the file");
    assert!(!text.is_empty());
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v.get("level").is_some(), "{line}");
    }
    assert!(!text.contains(secret), "the secret reached the log");
    assert!(!String::from_utf8_lossy(&run.stderr).contains(secret));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&log).expect("log").permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }
    // The captured memory holds the redacted text, and the activity log no secret either.
    let listed = env.run(&["list", "--json"]).ok().stdout;
    assert!(
        listed.contains("rotate it monthly") && !listed.contains(secret),
        "{listed}"
    );
    let activity = std::fs::read(env.data.join("activity.db")).unwrap_or_default();
    assert!(!String::from_utf8_lossy(&activity).contains(secret));
}

/// `GET path` over a plain TCP connection: the status code and the body.
fn http_get(addr: &str, path: &str, token: Option<&str>) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n"
    )
    .expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_mcp_server_serves_prometheus_metrics_behind_its_token() {
    let env = TestEnv::new();
    env.capture("decisions", "Use PostgreSQL for the orders service");
    let mut child = env
        .command(&["mcp", "--http", "127.0.0.1:0", "--no-schedule"])
        .env("SUBCOG_MCP_TOKEN", "s3cret-token")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
    let addr = loop {
        let line = lines
            .next()
            .and_then(Result::ok)
            .expect("the server announces its address");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.trim_end_matches("/mcp").to_string();
        }
    };
    let (status, _) = http_get(&addr, "/metrics", None);
    assert_eq!(status, 401, "no token, no metrics");
    let (status, body) = http_get(&addr, "/metrics", Some("s3cret-token"));
    assert_eq!(status, 200, "{body}");
    assert!(
        body.contains("# TYPE subcog_operation_duration_seconds histogram"),
        "{body}"
    );
    assert!(body.contains("subcog_memories{tier=\"hot\"} 1"), "{body}");
    let _ = child.kill();
    let _ = child.wait();
}
