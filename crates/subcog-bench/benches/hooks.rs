//! Whole-process latency of Claude Code hooks (stdin to stdout, process start included)
//! against a project of 10,000 memories: SessionStart (target < 50 ms p50) and
//! UserPromptSubmit with the embedding model loaded by the process (target < 300 ms p50).
//!
//! Needs the release binary (`scripts/bench` builds it; or set SUBCOG_BIN) and the model.

use criterion::{Criterion, criterion_group, criterion_main};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use subcog_bench::{model_dir, populated, populated_with_vectors};
use subcog_core::embed::{Embedder, MiniLm};

fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SUBCOG_BIN") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/subcog");
    assert!(p.exists(), "{} not found: run scripts/bench", p.display());
    p
}

/// Runs one hook as Claude Code does; returns stdout.
fn hook(bin: &Path, data: &Path, event: &str, payload: &str, model: Option<&Path>) -> String {
    let mut cmd = Command::new(bin);
    cmd.args(["hook", event, "--data-dir"])
        .arg(data)
        .current_dir(data.join("project"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(dir) = model {
        cmd.env("SUBCOG_EMBEDDING_MODEL_DIR", dir);
    }
    let mut child = cmd.spawn().expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(payload.as_bytes()).expect("stdin");
    }
    let out = child.wait_with_output().expect("wait");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn bench(c: &mut Criterion) {
    let bin = binary();
    let mut group = c.benchmark_group("hooks");
    group.sample_size(20);

    let dir = tempfile::tempdir().expect("tempdir");
    drop(populated(dir.path(), 10_000));
    let payload = format!(
        r#"{{"session_id":"bench","cwd":"{}","hook_event_name":"SessionStart","source":"startup"}}"#,
        dir.path().join("project").display()
    );
    let first = hook(&bin, dir.path(), "session-start", &payload, None);
    assert!(
        first.contains("<subcog-context>") && first.contains("memory-group"),
        "{first}"
    );
    // Every run is its own event (as in Claude Code): an identical payload within seconds
    // would be answered as a second registration of the hook, doing no work.
    let counter = std::cell::Cell::new(0u64);
    let unique = |payload: &str| {
        counter.set(counter.get() + 1);
        payload.replacen('{', &format!("{{\"prompt_id\":\"bench-{}\",", counter.get()), 1)
    };
    group.bench_function("session_start_10k_process", |b| {
        b.iter(|| hook(&bin, dir.path(), "session-start", &unique(&payload), None))
    });

    let model = model_dir();
    let identity = MiniLm::load(&model).expect("model").model().clone();
    let semantic = tempfile::tempdir().expect("tempdir");
    drop(populated_with_vectors(semantic.path(), 10_000, &identity));
    let prompt = format!(
        r#"{{"session_id":"bench","cwd":"{}","hook_event_name":"UserPromptSubmit","prompt":"why is the session cache slow under load?"}}"#,
        semantic.path().join("project").display()
    );
    let first = hook(&bin, semantic.path(), "user-prompt-submit", &prompt, Some(&model));
    assert!(first.contains("UserPromptSubmit"), "{first}");
    group.bench_function("user_prompt_submit_10k_process_with_model", |b| {
        b.iter(|| {
            hook(
                &bin,
                semantic.path(),
                "user-prompt-submit",
                &unique(&prompt),
                Some(&model),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
