//! Latency through MCP against a warm `subcog mcp` (stdio, the embedding model loaded, a
//! store of 10,000 memories with vectors), driven by the rmcp client: capture with its
//! embedding (target < 40 ms p50) and hybrid recall with the query's embedding (target
//! < 15 ms p50). Each sample is one tool call and its answer.
//!
//! Needs the release binary (`scripts/bench` builds it; or set SUBCOG_BIN) and the model.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp_client::ServiceExt;
use rmcp_client::model::CallToolRequestParams;
use rmcp_client::service::{RoleClient, RunningService};
use rmcp_client::transport::TokioChildProcess;
use subcog_bench::{model_dir, populated_with_vectors};
use subcog_core::embed::{Embedder, MiniLm};

fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SUBCOG_BIN") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/subcog");
    assert!(p.exists(), "{} not found: run scripts/bench", p.display());
    p
}

const QUERIES: [&str; 8] = [
    "why is the session cache slow under load",
    "which database did we choose for events",
    "how do we rotate the signing keys",
    "what broke the nightly build",
    "retry policy for the payment webhook",
    "who owns the deployment pipeline",
    "pattern for paginating large exports",
    "latency budget of the search endpoint",
];

fn call(
    rt: &tokio::runtime::Runtime,
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: serde_json::Value,
) -> String {
    let serde_json::Value::Object(map) = args else {
        panic!("arguments are an object")
    };
    let result = rt
        .block_on(client.call_tool(CallToolRequestParams::new(tool).with_arguments(map)))
        .expect("tool call");
    let text = serde_json::to_string(&result.content).expect("content");
    assert_ne!(result.is_error, Some(true), "{tool} failed: {text}");
    text
}

fn bench(c: &mut Criterion) {
    let model = model_dir();
    let identity = MiniLm::load(&model).expect("model").model().clone();
    let dir = tempfile::tempdir().expect("tempdir");
    drop(populated_with_vectors(dir.path(), 10_000, &identity));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let mut cmd = tokio::process::Command::new(binary());
    cmd.args(["mcp", "--no-schedule", "--data-dir"])
        .arg(dir.path())
        .current_dir(dir.path().join("project"))
        .env("SUBCOG_EMBEDDING_MODEL_DIR", &model)
        .stderr(std::process::Stdio::null());
    let client = rt
        .block_on(async { ().serve(TokioChildProcess::new(cmd)?).await.map_err(std::io::Error::other) })
        .expect("start subcog mcp");
    // Warm: the first call waits for the model.
    let first = call(&rt, &client, "recall", serde_json::json!({"query": QUERIES[0]}));
    assert!(first.contains("\\\"semantic\\\":true"), "recall by meaning: {first}");

    let mut group = c.benchmark_group("mcp");
    group.sample_size(50);
    let n = AtomicUsize::new(0);
    group.bench_function("recall_10k_with_query_embedding", |b| {
        b.iter(|| {
            let i = n.fetch_add(1, Ordering::Relaxed);
            // A fresh query text every call: nothing is served from a cache.
            call(
                &rt,
                &client,
                "recall",
                serde_json::json!({"query": format!("{} #{i}", QUERIES[i % QUERIES.len()]), "limit": 10}),
            )
        })
    });
    group.bench_function("capture_10k_with_embedding", |b| {
        b.iter(|| {
            let i = n.fetch_add(1, Ordering::Relaxed);
            call(
                &rt,
                &client,
                "capture",
                serde_json::json!({
                    "content": format!("Benchmark learning {i}: the export job retries three times before paging."),
                    "namespace": "learnings",
                    "tags": ["bench"],
                }),
            )
        })
    });
    group.bench_function("status", |b| {
        b.iter(|| call(&rt, &client, "status", serde_json::json!({})))
    });
    group.finish();
    rt.block_on(client.cancel()).expect("stop the server");
}

criterion_group!(benches, bench);
criterion_main!(benches);
