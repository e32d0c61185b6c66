//! Search through the memory viewer's API as the page asks it: `subcog import` of the
//! seeded realistic corpus (embeddings included) into a scratch project, then `subcog ui`
//! started on it and `GET /api/search?q=…` sent over 127.0.0.1, one connection per request
//! (what the page waits for, with the HTTP round trip), plus a page of `/api/memories` for
//! browsing. Reports p50, p95 and the slowest of the timed requests, and the time the
//! server itself measured (`took_ms`).
//!
//! ```sh
//! cargo build --release -p subcog
//! cargo run --release -p subcog-bench --example ui_search -- 10000 [--json] [--bin PATH]
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};

/// Untimed searches first: the model and the indexes load.
const WARM_UP: usize = 10;
/// Timed searches.
const RUNS: usize = 200;
/// The acceptance bar of the viewer (issue: "search answering in under 100 ms").
const GOAL_MS: f64 = 100.0;

/// Questions in the corpus's vocabulary (services, technologies, people's kinds of notes).
const QUERIES: &[&str] = &[
    "why did we move the orders service off MySQL",
    "retry policy for the billing worker",
    "which Kubernetes version are we pinned to",
    "who owns the search service",
    "how are feature flags named",
    "what broke the checkout deploy",
    "payments connection pool size",
    "Redis cache eviction for sessions",
    "Kafka consumer lag in ingest",
    "gRPC timeouts between gateway and auth",
    "Terraform state locking",
    "Playwright tests flaky on CI",
    "PostgreSQL vacuum settings",
    "Sentry alerts for webhooks",
    "OpenTelemetry traces in the scheduler",
    "rate limiting at the gateway",
    "inventory sync blocked",
    "notifications email provider",
    "analytics export to S3",
    "ledger reconciliation job",
];

/// The viewer process; killed when dropped.
struct Viewer(Child);

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One GET with the bearer token on a fresh connection: milliseconds, status, body.
fn get(port: u16, token: &str, path: &str) -> (f64, u16, String) {
    let started = Instant::now();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (ms, status, body.to_string())
}

fn query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// p50, p95 and the slowest, rounded to 0.1 ms.
fn summary(times: &[f64]) -> Value {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| {
        sorted
            .get(((sorted.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let round = |v: f64| (v * 10.0).round() / 10.0;
    json!({"p50_ms": round(at(0.5)), "p95_ms": round(at(0.95)), "max_ms": round(at(1.0)), "runs": sorted.len()})
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(10_000);
    let as_json = args.iter().any(|a| a == "--json");
    let bin = subcog_bench::binary_arg(&args);
    let root = tempfile::tempdir().expect("tempdir");
    let project = root.path().join("project");
    std::fs::create_dir_all(&project).expect("project");
    let git = Command::new("git").args(["init", "-q"]).current_dir(&project).status();
    assert!(git.is_ok_and(|s| s.success()), "git init");
    let command = |args: &[&str]| {
        let mut cmd = Command::new(&bin);
        cmd.args(args)
            .current_dir(&project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", root.path())
            .env("SUBCOG_DATA_DIR", root.path().join("data"))
            .env("SUBCOG_EMBEDDING_MODEL_DIR", subcog_bench::model_dir())
            .env("SUBCOG_DAEMON_ENABLED", "false");
        cmd
    };

    let corpus = root.path().join("corpus.jsonl");
    std::fs::write(&corpus, subcog_bench::corpus::jsonl(42, n)).expect("write corpus");
    eprintln!("importing {n} memories…");
    let out = command(&["import", "-q", &corpus.display().to_string()])
        .output()
        .expect("import");
    assert!(out.status.success(), "import: {}", String::from_utf8_lossy(&out.stderr));

    let mut child = command(&["ui", "--no-open", "--port", "0", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn subcog ui");
    let stdout = child.stdout.take().expect("stdout");
    let viewer = Viewer(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the first line");
    let first: Value = serde_json::from_str(&line).expect("the first line is JSON");
    let port = first["port"].as_u64().expect("port") as u16;
    let url = first["url"].as_str().expect("url");
    let token = url.split("token=").nth(1).expect("token").to_string();

    let search = |q: &str| {
        let (ms, status, body) = get(port, &token, &format!("/api/search?q={}", query(q)));
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).expect("JSON");
        assert!(
            v["results"].as_array().is_some_and(|r| !r.is_empty()),
            "{q}: no results"
        );
        (ms, v["took_ms"].as_f64().unwrap_or(0.0), v["semantic"] == true)
    };
    eprintln!("warming up…");
    let first_ms = search(QUERIES[0]).0;
    let mut semantic = true;
    for q in QUERIES.iter().cycle().skip(1).take(WARM_UP - 1) {
        semantic &= search(q).2;
    }
    eprintln!("{RUNS} searches…");
    let (mut client, mut server) = (Vec::new(), Vec::new());
    for (i, q) in QUERIES.iter().cycle().take(RUNS).enumerate() {
        // A distinct text each time: nothing the store remembers of the last query helps.
        let (ms, took, sem) = search(&format!("{q} {}", i / QUERIES.len()));
        semantic &= sem;
        client.push(ms);
        server.push(took);
    }
    let pages: Vec<f64> = (0..50).map(|_| get(port, &token, "/api/memories?limit=50").0).collect();
    drop(viewer);

    let report = json!({
        "memories": n,
        "semantic": semantic,
        "first_search_ms": (first_ms * 10.0).round() / 10.0,
        "search": summary(&client),
        "search_server": summary(&server),
        "browse_page": summary(&pages),
        "goal_ms": GOAL_MS,
        "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
    });
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        return;
    }
    let line = |what: &str, v: &Value| {
        println!(
            "{what:<34} p50 {} ms, p95 {} ms, max {} ms",
            v["p50_ms"], v["p95_ms"], v["max_ms"]
        )
    };
    println!("{n} memories, search by meaning and keywords: {semantic}");
    line("search, as the page waits for it", &report["search"]);
    line("search, inside the server", &report["search_server"]);
    line("a page of 50 memories", &report["browse_page"]);
    println!(
        "first search after start: {} ms (goal for each: < {GOAL_MS} ms)",
        report["first_search_ms"]
    );
}
