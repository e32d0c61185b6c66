//! Recall at scale: N memories of the seeded realistic corpus (`subcog_bench::corpus`)
//! with a vector each, then 100 queries through the whole hybrid recall (keywords, vectors,
//! time, fusion, loading the results) and through keywords alone, with the peak memory of
//! the process: first as a one-shot process searches (FTS5 scores the keywords), then as
//! a resident one does (after `prepare_keywords`: the in-memory keyword index). Vectors are synthetic unit vectors: search cost does not depend on their
//! values, and embedding a million texts would take hours.
//!
//! ```sh
//! cargo run --release -p subcog-bench --example scale -- 100000 [--json]
//! cargo run --release -p subcog-bench --example scale -- 1000000
//! cargo run --release -p subcog-bench --example scale -- 1000000 --keep /var/tmp/scale-1m
//! ```
//!
//! `--keep DIR` loads into DIR and leaves it there; a later run with the same DIR and N
//! reuses the store instead of loading it again (loading a million takes minutes).

use std::time::Instant;

use serde_json::json;
use subcog_core::config::RetrievalMode;
use subcog_core::embed::EmbeddingModel;
use subcog_core::model::{Memory, Namespace};
use subcog_core::recall::RecallQuery;
use subcog_core::service::ScopeKind;
use subcog_core::store::Vectors;

const QUERIES: &[&str] = &[
    "why did the orders service move to PostgreSQL",
    "retry policy for the billing worker",
    "which Kubernetes version is pinned",
    "who owns the search service",
    "feature flag naming for checkout",
    "payments deploy blocked health check",
    "connection pool cap for inventory",
    "flaky test race in the upload queue",
    "Redis keepalive idle connections",
    "Kafka credentials for the ledger migration",
];

fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()))
        })
        .map(|kib| kib / 1024)
        .unwrap_or(0)
}

fn percentiles(mut ms: Vec<f64>) -> serde_json::Value {
    ms.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| {
        ms.get(((ms.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    json!({"p50_ms": (at(0.5) * 100.0).round() / 100.0, "p95_ms": (at(0.95) * 100.0).round() / 100.0})
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let as_json = args.iter().any(|a| a == "--json");
    let identity = EmbeddingModel {
        id: "sentence-transformers/all-MiniLM-L6-v2".into(),
        dim: 384,
    };
    let keep = args
        .iter()
        .position(|a| a == "--keep")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from);
    let temp = tempfile::tempdir().expect("tempdir");
    let data = keep.clone().unwrap_or_else(|| temp.path().to_path_buf());
    let subcog = subcog_bench::populated(&data, 0);
    let store = subcog.store_for_write(ScopeKind::Project).expect("store");
    let base = chrono::Utc::now() - chrono::Duration::days(400);
    let start = Instant::now();
    let chunk = 10_000;
    let loaded = store.stats().expect("stats").total as usize;
    if loaded > n {
        eprintln!(
            "{} holds {loaded} memories, not {n}: use another directory",
            data.display()
        );
        std::process::exit(2);
    }
    let mut done = loaded;
    while done < n {
        let end = (done + chunk).min(n);
        let memories: Vec<Memory> = (done..end)
            .map(|i| {
                let g = subcog_bench::corpus::realistic(42, i);
                let ns = Namespace::parse(g.namespace).expect("built-in namespace");
                let mut m = Memory::new(
                    format!("{} (#{i})", g.content),
                    ns,
                    base + chrono::Duration::seconds((i as i64 * 400 * 86_400) / n as i64),
                );
                m.tags = g.tags;
                m
            })
            .collect();
        let vectors: Vec<Vec<f32>> = (done..end)
            .map(|i| subcog_bench::unit_vector(i as u64, identity.dim))
            .collect();
        store
            .insert_many(
                &memories,
                Some(Vectors {
                    model: &identity,
                    vectors: &vectors,
                }),
                false,
            )
            .expect("insert");
        done = end;
        if !as_json {
            eprint!("\rloaded {done}/{n}");
        }
    }
    let load_s = start.elapsed().as_secs_f64();
    if !as_json {
        eprintln!();
    }
    let db_mib = std::fs::metadata(subcog.scope_path(ScopeKind::Project))
        .map(|m| m.len() >> 20)
        .unwrap_or(0);
    let rss_after_load = peak_rss_mib();
    let query = |i: usize| RecallQuery {
        query: QUERIES[i % QUERIES.len()].to_string(),
        limit: Some(10),
        mode: Some(RetrievalMode::Standard),
        no_touch: true,
        ..Default::default()
    };
    // The first query builds the in-memory vector index.
    let start = Instant::now();
    let v = subcog_bench::unit_vector(10_000_000, identity.dim);
    subcog
        .recall_with_vector(&query(0), Some((&identity, &v)))
        .expect("recall");
    let first_ms = start.elapsed().as_secs_f64() * 1000.0;
    // One pass as a one-shot process searches (FTS5 scores keywords), one as a resident
    // process does (the daemon, the MCP server: the in-memory keyword index).
    let pass = || {
        let mut hybrid = Vec::new();
        let mut keywords = Vec::new();
        for i in 0..100 {
            let v = subcog_bench::unit_vector(10_000_001 + i as u64, identity.dim);
            let q = query(i);
            let start = Instant::now();
            let r = subcog.recall_with_vector(&q, Some((&identity, &v))).expect("recall");
            hybrid.push(start.elapsed().as_secs_f64() * 1000.0);
            assert!(!r.results.is_empty());
        }
        // A loop of its own: the store keeps its last keyword ranking, so the same query
        // right after a hybrid recall would not be measured.
        for i in 0..100 {
            let start = Instant::now();
            subcog.recall_with_vector(&query(i), None).expect("recall");
            keywords.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        (percentiles(hybrid), percentiles(keywords))
    };
    let (hybrid, keywords) = pass();
    let rss_before_index = peak_rss_mib();
    let start = Instant::now();
    subcog.prepare_keywords();
    let index_ms = start.elapsed().as_secs_f64() * 1000.0;
    let rss_index = peak_rss_mib();
    let (resident_hybrid, resident_keywords) = pass();
    let report = json!({
        "memories": n,
        "load_s": (load_s * 10.0).round() / 10.0,
        "database_mib": db_mib,
        "first_recall_ms": first_ms.round(),
        "hybrid": hybrid,
        "keywords_only": keywords,
        "keyword_index_build_ms": index_ms.round(),
        "resident_hybrid": resident_hybrid,
        "resident_keywords_only": resident_keywords,
        "peak_rss_mib_before_keyword_index": rss_before_index,
        "peak_rss_mib_with_keyword_index": rss_index,
        "peak_rss_mib_after_load": rss_after_load,
        "peak_rss_mib": peak_rss_mib(),
    });
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        println!("{report}");
    }
}
