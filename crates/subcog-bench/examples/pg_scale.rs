//! PostgreSQL at scale (docs/PERFORMANCE.md): recall at N memories through the HNSW index,
//! how close HNSW comes to exact search, and concurrent writers losing nothing.
//!
//! ```sh
//! dir=$(mktemp -d); export SUBCOG_TEST_DATABASE_URL=$(scripts/pg-test-server start "$dir")
//! cargo run --release -p subcog-bench --features postgres --example pg_scale -- 100000
//! ```
//!
//! Vectors are the corpus's synthetic topic vectors (100k real embeddings would take half
//! an hour); queries are the corpus's queries with a topic vector each. The scratch scopes
//! are removed at the end, unless `--keep KEY` names the recall scope: then a scope of
//! that key already holding N memories is measured without loading it again, and kept
//! (the concurrent writers are skipped).

use std::sync::Arc;
use std::time::Instant;

use subcog_core::Subcog;
use subcog_core::clock::SystemClock;
use subcog_core::config::Config;
use subcog_core::embed::{EmbedError, Embedder, EmbeddingModel};
use subcog_core::location::DataLocation;
use subcog_core::model::MemoryId;
use subcog_core::service::ScopeKind;
use subcog_core::store::{MemoryFilter, Vectors};

/// Topic vectors for the synthetic corpus: a text's vector is that of the corpus item it names.
struct Topics(EmbeddingModel);

impl Embedder for Topics {
    fn model(&self) -> &EmbeddingModel {
        &self.0
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|t| subcog_bench::topic_vector(t.len() * 31 + t.bytes().map(usize::from).sum::<usize>(), self.0.dim))
            .collect())
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or(f64::NAN)
}

/// Whole-recall and keyword-channel latencies, printed under `label`.
fn recall_figures(
    subcog: &Subcog,
    store: &dyn subcog_core::store::Store,
    n: usize,
    model: &EmbeddingModel,
    label: &str,
) {
    let mut times = Vec::new();
    for round in 0..30 {
        for (qi, q) in subcog_bench::QUERIES.iter().enumerate() {
            let v = subcog_bench::topic_vector(qi * 101 + round, model.dim);
            let t = Instant::now();
            let r = subcog_core::eval::recall_question(subcog, q, 10, Some(&v)).expect("recall");
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(!r.results.is_empty());
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{label}: recall at {n}: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms ({} recalls)",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        percentile(&times, 1.0),
        times.len()
    );
    // The keyword channel alone, as recall asks it (the configured candidates, no filter
    // beyond the scope).
    let mut keyword_times = Vec::new();
    let candidates = subcog.config().recall.candidates;
    for _ in 0..3 {
        for q in subcog_bench::QUERIES {
            let terms = subcog_core::search::query_terms(q);
            let t = Instant::now();
            store
                .search_text(&terms, &MemoryFilter::default(), candidates)
                .expect("keywords");
            keyword_times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    keyword_times.sort_by(f64::total_cmp);
    println!(
        "{label}: keyword channel at {n}: p50 {:.1} ms, p95 {:.1} ms ({} searches of {candidates})",
        percentile(&keyword_times, 0.5),
        percentile(&keyword_times, 0.95),
        keyword_times.len()
    );
}

fn service(url: &str, key: &str, dir: &std::path::Path, model: &EmbeddingModel) -> Subcog {
    let project = dir.join("project");
    std::fs::create_dir_all(&project).expect("project dir");
    let mut config = Config::default();
    config.storage.git_notes = false;
    config.storage.url = url.to_string();
    config.storage.project_key = key.to_string();
    Subcog::new(config, DataLocation::resolve(dir, &project), Arc::new(SystemClock))
        .with_embedder(Some(Arc::new(Topics(model.clone()))))
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let url = std::env::var("SUBCOG_TEST_DATABASE_URL").expect("SUBCOG_TEST_DATABASE_URL (scripts/pg-test-server)");
    let model = EmbeddingModel {
        id: "bench/topics".into(),
        dim: 384,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let args: Vec<String> = std::env::args().collect();
    let kept = args
        .iter()
        .position(|a| a == "--keep")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let key = kept
        .clone()
        .unwrap_or_else(|| format!("bench:{}", MemoryId::at(chrono::Utc::now())));
    let subcog = service(&url, &key, dir.path(), &model);
    let store = subcog.store_for_write(ScopeKind::Project).expect("open postgres");

    // Load.
    let t = Instant::now();
    let present = store.stats().expect("stats").total;
    let from = if present >= n as u64 { n } else { 0 };
    if from == n {
        println!("reusing scope {key}: {present} memories");
    } else if present > 0 {
        store.purge().expect("purge a partial scope");
    }
    for start in (from..n).step_by(5_000) {
        let end = (start + 5_000).min(n);
        let memories: Vec<_> = (start..end).map(subcog_bench::memory).collect();
        let vectors: Vec<Vec<f32>> = (start..end).map(|i| subcog_bench::topic_vector(i, model.dim)).collect();
        store
            .insert_many(
                &memories,
                Some(Vectors {
                    model: &model,
                    vectors: &vectors,
                }),
                false,
            )
            .expect("insert");
        eprint!("\rloaded {end}/{n}");
    }
    if from < n {
        let load = t.elapsed().as_secs_f64();
        eprintln!();
        println!(
            "load: {n} memories with vectors in {load:.1} s ({:.0}/s)",
            n as f64 / load
        );
    }

    // Recall: the whole hybrid recall (keywords, HNSW, time, fusion, loading the results),
    // first as a one-shot process runs it (keywords scored in SQL), then as the MCP server
    // and the warm daemon do, with the resident keyword index.
    recall_figures(&subcog, &*store, n, &model, "SQL keywords (one-shot process)");
    let t = Instant::now();
    subcog.prepare_keywords();
    println!("resident keyword index built in {:.2} s", t.elapsed().as_secs_f64());
    recall_figures(
        &subcog,
        &*store,
        n,
        &model,
        "resident keyword index (MCP server, warm daemon)",
    );
    // The vector channel alone, and how close HNSW comes to an exact scan.
    let all = store.vectors(&model).expect("vectors");
    let mut agree = 0usize;
    let mut vector_times = Vec::new();
    let queries = 50;
    for qi in 0..queries {
        let q = subcog_bench::topic_vector(qi * 7919 + 13, model.dim);
        let t = Instant::now();
        let hits = store
            .search_vector(&model, &q, &MemoryFilter::default(), 10)
            .expect("search");
        vector_times.push(t.elapsed().as_secs_f64() * 1000.0);
        let mut exact: Vec<(f32, MemoryId)> = all
            .iter()
            .map(|(id, v)| (subcog_core::embed::dot(&q, v), *id))
            .collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0));
        let top: Vec<MemoryId> = exact.iter().take(10).map(|e| e.1).collect();
        agree += hits.iter().filter(|h| top.contains(&h.id)).count();
    }
    vector_times.sort_by(f64::total_cmp);
    println!(
        "vector channel at {n}: p50 {:.1} ms; recall@10 against exact search {:.3}",
        percentile(&vector_times, 0.5),
        agree as f64 / (queries * 10) as f64
    );
    if kept.is_some() {
        return;
    }
    store.purge().expect("purge");

    // Concurrent writers: 8 processes' worth of pools, each capturing one memory per
    // transaction with its vector; none may be lost or duplicated.
    let writers = 8;
    let per = 1_250;
    let key = format!("bench:{}", MemoryId::at(chrono::Utc::now()));
    let t = Instant::now();
    std::thread::scope(|s| {
        for w in 0..writers {
            let (url, key, model) = (url.clone(), key.clone(), model.clone());
            s.spawn(move || {
                let dir = tempfile::tempdir().expect("tempdir");
                let subcog = service(&url, &key, dir.path(), &model);
                let store = subcog.store_for_write(ScopeKind::Project).expect("open");
                for i in 0..per {
                    let m = subcog_bench::memory(1_000_000 + w * per + i);
                    let v = vec![subcog_bench::topic_vector(w * per + i, model.dim)];
                    store
                        .insert_many(
                            std::slice::from_ref(&m),
                            Some(Vectors {
                                model: &model,
                                vectors: &v,
                            }),
                            false,
                        )
                        .expect("insert");
                }
            });
        }
    });
    let secs = t.elapsed().as_secs_f64();
    let check = service(&url, &key, dir.path(), &model);
    let store = check.store_for_write(ScopeKind::Project).expect("open");
    let stored = store.stats().expect("stats").total;
    let vectors = store.vectors(&model).expect("vectors").len();
    println!(
        "{writers} concurrent writers, {} captures: {stored} memories and {vectors} vectors stored in {secs:.1} s ({:.0}/s)",
        writers * per,
        (writers * per) as f64 / secs
    );
    store.purge().expect("purge");
    assert_eq!(stored as usize, writers * per, "a capture was lost");
}
