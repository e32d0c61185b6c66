//! Consolidation of 1,000 memories with an LLM that takes 200 ms per answer: a scripted
//! OpenAI-compatible server on 127.0.0.1 (no network), default concurrency (4) and rate
//! limits. Measures what bounded concurrency and candidate selection buy.
//!
//! Run with `scripts/bench llm`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use subcog_bench::{copy_dir, git_service, populated_for_consolidation};
use subcog_core::clock::FixedClock;
use subcog_core::consolidate::{ConsolidateOptions, LlmMode, ScopeOutcome};
use subcog_core::embed::EmbeddingModel;

/// Serves OpenAI chat completions, each after 200 ms.
fn scripted_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}/v1", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(conn.try_clone().expect("clone"));
                let mut len = 0usize;
                let mut line = String::new();
                while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    line.clear();
                }
                let mut body = vec![0u8; len];
                let _ = reader.read_exact(&mut body);
                let body = String::from_utf8_lossy(&body);
                std::thread::sleep(Duration::from_millis(200));
                let content = if body.contains("supersedes the older") {
                    r#"{"supersedes": true, "kind": "full", "confidence": "high", "reason": "newer decision"}"#
                } else {
                    r#"{"title": "Topic", "summary": "A summary of the cluster.", "key_facts": ["fact"], "decisions": [], "superseded_facts": []}"#
                };
                let answer = serde_json::json!({
                    "model": "gpt-5-nano",
                    "choices": [{"message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 300, "completion_tokens": 60}
                })
                .to_string();
                let mut conn = conn;
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                    answer.len()
                );
            });
        }
    });
    base
}

fn bench(c: &mut Criterion) {
    let base = scripted_server();
    let model = EmbeddingModel {
        id: "bench/topics".into(),
        dim: 384,
    };
    let work = tempfile::tempdir().expect("tempdir");
    drop(populated_for_consolidation(work.path(), 1_000, &model));
    let template = tempfile::tempdir().expect("tempdir");
    copy_dir(work.path(), template.path());
    let now = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2025, 6, 1, 0, 0, 0)
        .single()
        .expect("date");
    let mut group = c.benchmark_group("consolidate_llm");
    group.sample_size(10);
    group.bench_function("first_run_1000_at_200ms", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(work.path());
                copy_dir(template.path(), work.path());
                let s = git_service(work.path());
                let mut config = s.config().clone();
                config.llm.provider = "openai".into();
                config.llm.openai_base_url = base.clone();
                config.llm.run_cost_cap_usd = 0.0;
                config.llm.day_cost_cap_usd = 0.0;
                config.llm.day_token_cap = 0;
                config.llm.run_token_cap = 0;
                subcog_core::Subcog::new(config, s.location().clone(), Arc::new(FixedClock(now)))
                    .with_embedder(None)
                    .with_keys(Arc::new(|_: &str| Some("bench-key".to_string())))
            },
            |s| {
                let opts = ConsolidateOptions {
                    llm: LlmMode::Required,
                    ..Default::default()
                };
                let out = s.consolidate(&opts, &mut |_, _, _| {}).expect("consolidate");
                if let Some(ScopeOutcome::Completed { result, .. }) = out.first() {
                    assert!(result.llm.as_ref().is_some_and(|l| l.usage.calls > 0));
                }
                out
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
