//! What a user's session waits for, as whole processes of the release binary: `subcog
//! import` of a seeded realistic corpus (embedding included), then each Claude Code hook
//! run 25 times in a row as a fresh process with Claude Code's payload on stdin — without
//! the warm path, and with it (the first hook starts the daemon) — plus `recall` and
//! `capture` as processes. Reports p50 of runs 6–25, the import rate and the warm
//! process's peak memory.
//!
//! ```sh
//! cargo build --release -p subcog
//! cargo run --release -p subcog-bench --example session -- 10000 [--json]
//! ```
//!
//! `--bin PATH` measures another binary; `--cold-only` skips the warm path (a binary that
//! predates it); `--smoke` (CI) runs a short session and fails only on a gross regression:
//! ten times the goals.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};

/// Runs 1–5 warm things up; the figures are of the runs after them.
const SKIP: usize = 5;

/// The goals of a session (ms, texts/s), of which `--smoke` allows ten times.
const GOAL_HOOK_WARM_MS: f64 = 30.0;
const GOAL_IMPORT_PER_S: f64 = 200.0;

const PROMPTS: &[&str] = &[
    "why did we move the orders service off MySQL?",
    "what is the retry policy for the billing worker",
    "which version of Kubernetes are we pinned to",
    "who owns the search service",
    "how do feature flags get named",
    "what broke the checkout deploy last time",
    "why is the payments pool capped",
    "where does the retry helper live",
];

struct Bench {
    bin: PathBuf,
    /// Whether the binary knows the warm path (`daemon.enabled`).
    warm_aware: bool,
    root: tempfile::TempDir,
    project: PathBuf,
    data: PathBuf,
    log: PathBuf,
}

impl Bench {
    fn command(&self, args: &[&str], warm: bool) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args(args)
            .current_dir(&self.project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.root.path().join("home"))
            .env("SUBCOG_DATA_DIR", &self.data)
            .env("SUBCOG_EMBEDDING_MODEL_DIR", subcog_bench::model_dir())
            .env("SUBCOG_HOOKS_DEBUG_LOG", &self.log)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.warm_aware {
            cmd.env("SUBCOG_DAEMON_ENABLED", if warm { "true" } else { "false" });
        }
        cmd
    }

    /// One whole process with `input` on stdin: milliseconds, stdout.
    fn time(&self, args: &[&str], input: &str, warm: bool) -> (f64, String) {
        let start = Instant::now();
        let mut child = self
            .command(args, warm)
            .stdin(Stdio::piped())
            .spawn()
            .expect("spawn subcog");
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(input.as_bytes());
        }
        let out = child.wait_with_output().expect("wait");
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (ms, String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn payload(&self, event: &str, session: &str, i: usize) -> String {
        let cwd = self.project.display().to_string();
        let mut p = json!({
            "session_id": session,
            "transcript_path": self.root.path().join("transcript.jsonl"),
            "cwd": cwd,
            "hook_event_name": event,
            "permission_mode": "default",
        });
        match event {
            "SessionStart" => p["source"] = json!("startup"),
            "UserPromptSubmit" => p["prompt"] = json!(format!("{} ({i})", PROMPTS[i % PROMPTS.len()])),
            _ => {
                let file = format!("{cwd}/src/{}.rs", ["billing", "orders", "search", "auth"][i % 4]);
                p["tool_name"] = json!("Read");
                p["tool_input"] = json!({"file_path": file});
                p["tool_response"] = json!({"type": "text", "file": {"filePath": file, "content": "fn main() {}"}});
                p["tool_use_id"] = json!(format!("toolu_{i}"));
            }
        }
        p.to_string()
    }

    /// The pid that answered the last hook (the hooks debug log names it).
    fn last_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(&self.log).ok()?;
        let line: Value = serde_json::from_str(text.lines().last()?).ok()?;
        line["pid"].as_u64().map(|p| p as u32)
    }
}

/// Median of runs 6–25, p95 of the same, and the first run.
fn summary(times: &[f64]) -> Value {
    let mut steady: Vec<f64> = times.iter().skip(SKIP).copied().collect();
    steady.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| {
        steady
            .get(((steady.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let round = |v: f64| (v * 10.0).round() / 10.0;
    json!({"p50_ms": round(at(0.5)), "p95_ms": round(at(0.95)), "first_ms": round(times.first().copied().unwrap_or(0.0))})
}

/// Peak resident memory of a process, from /proc (KiB).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(10_000);
    let as_json = args.iter().any(|a| a == "--json");
    let smoke = args.iter().any(|a| a == "--smoke");
    let cold_only = args.iter().any(|a| a == "--cold-only");
    let runs: usize = if smoke { 10 } else { 25 };
    let bin = subcog_bench::binary_arg(&args);
    let root = tempfile::tempdir().expect("tempdir");
    let project = root.path().join("project");
    std::fs::create_dir_all(project.join("src")).expect("project");
    std::fs::create_dir_all(root.path().join("home")).expect("home");
    let git = Command::new("git").args(["init", "-q"]).current_dir(&project).status();
    assert!(git.is_ok_and(|s| s.success()), "git init");
    let b = Bench {
        bin,
        warm_aware: !cold_only,
        data: root.path().join("data"),
        log: root.path().join("hooks.jsonl"),
        project,
        root,
    };

    let corpus = b.root.path().join("corpus.jsonl");
    std::fs::write(&corpus, subcog_bench::corpus::jsonl(42, n)).expect("write corpus");
    eprintln!("importing {n} memories…");
    let (import_ms, out) = b.time(&["import", "--json", &corpus.display().to_string()], "", false);
    let imported = serde_json::from_str::<Value>(&out)
        .ok()
        .and_then(|v| v["imported"].as_u64())
        .unwrap_or(0);
    let rate = imported as f64 / (import_ms / 1000.0);

    let mut report = json!({
        "memories": imported,
        "import_s": (import_ms / 100.0).round() / 10.0,
        "import_texts_per_s": rate.round(),
        "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
    });
    let modes: &[bool] = if cold_only { &[false] } else { &[false, true] };
    for &warm in modes {
        let mode = if warm { "warm" } else { "cold" };
        let mut section = json!({});
        for (event, arg) in [
            ("SessionStart", "session-start"),
            ("UserPromptSubmit", "user-prompt-submit"),
            ("PostToolUse", "post-tool-use"),
        ] {
            eprintln!("{mode}: {event} ×{runs}…");
            let times: Vec<f64> = (0..runs)
                .map(|i| {
                    let payload = b.payload(event, &format!("{mode}-{event}-{i}"), i);
                    b.time(&["hook", arg], &payload, warm).0
                })
                .collect();
            section[event] = summary(&times);
        }
        eprintln!("{mode}: recall ×{runs}…");
        let times: Vec<f64> = (0..runs)
            .map(|i| b.time(&["recall", PROMPTS[i % PROMPTS.len()], "-q"], "", warm).0)
            .collect();
        section["recall"] = summary(&times);
        eprintln!("{mode}: capture ×{runs}…");
        let times: Vec<f64> = (0..runs)
            .map(|i| {
                let text = format!("Benchmark note {i} ({mode}): the orders service retries twice before failing over");
                b.time(&["capture", "-n", "learnings", "-q", &text], "", warm).0
            })
            .collect();
        section["capture"] = summary(&times);
        if warm && let Some(pid) = b.last_pid() {
            section["warm_process_peak_rss_mib"] = json!(peak_kib(pid).map(|k| k / 1024));
        }
        report[mode] = section;
    }
    if !cold_only {
        let _ = b.command(&["daemon", "--stop"], true).output();
    }
    if smoke {
        // Ten times the goals: only a gross regression fails CI.
        let mut failures = Vec::new();
        if rate < GOAL_IMPORT_PER_S / 10.0 {
            failures.push(format!("import {rate:.0} texts/s < {}", GOAL_IMPORT_PER_S / 10.0));
        }
        for event in ["SessionStart", "UserPromptSubmit", "PostToolUse"] {
            let p50 = report["warm"][event]["p50_ms"].as_f64().unwrap_or(f64::MAX);
            if p50 > GOAL_HOOK_WARM_MS * 10.0 {
                failures.push(format!("warm {event} p50 {p50} ms > {} ms", GOAL_HOOK_WARM_MS * 10.0));
            }
        }
        println!("{report}");
        if !failures.is_empty() {
            eprintln!("performance smoke test failed: {}", failures.join("; "));
            std::process::exit(1);
        }
        eprintln!("performance smoke test passed (limits: ten times the goals)");
        return;
    }

    if as_json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        return;
    }
    println!(
        "import: {imported} memories in {:.1} s = {rate:.0} texts/s",
        import_ms / 1000.0
    );
    println!(
        "{:<18} {:>22} {:>22}",
        format!("p50 (p95), runs 6-{runs}"),
        "cold",
        "warm"
    );
    for what in ["SessionStart", "UserPromptSubmit", "PostToolUse", "recall", "capture"] {
        let cell = |mode: &str| {
            let v = &report[mode][what];
            if v.is_null() {
                "-".to_string()
            } else {
                format!("{} ms ({})", v["p50_ms"], v["p95_ms"])
            }
        };
        println!("{what:<18} {:>22} {:>22}", cell("cold"), cell("warm"));
    }
    println!(
        "warm process peak RSS: {} MiB",
        report["warm"]["warm_process_peak_rss_mib"]
    );
}
