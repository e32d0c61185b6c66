//! Embedding throughput on the seeded realistic corpus: texts per second for one call of
//! N texts (the batch path `import` and `reindex` take) and for the same texts one by one,
//! and the time to embed one query of one, two and ten words.
//! `cargo run --release -p subcog-bench --example embed_rate -- 1000 [--json]`

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1000);
    let as_json = args.iter().any(|a| a == "--json");
    let model = subcog_core::embed::load_default(&subcog_bench::model_dir()).expect("model (scripts/fetch-test-model)");
    let texts: Vec<String> = (0..n).map(|i| subcog_bench::corpus::realistic(42, i).content).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let _ = model.embed(&refs[..refs.len().min(64)]);
    let start = Instant::now();
    let batch = model.embed(&refs).expect("embeds");
    let batch_s = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for t in refs.iter().take(200) {
        let _ = model.embed_one(t).expect("embeds");
    }
    let one_s = start.elapsed().as_secs_f64();
    // A query's embedding, as recall waits for it: the median of 50 runs per length.
    let queries: Vec<(usize, f64)> = QUERIES
        .iter()
        .map(|q| {
            let mut ms: Vec<f64> = (0..50)
                .map(|_| {
                    let t = Instant::now();
                    let _ = model.embed_one(q).expect("embeds");
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            (q.split_whitespace().count(), ms[ms.len() / 2])
        })
        .collect();
    if as_json {
        let report = serde_json::json!({
            "texts": batch.len(),
            "batch_texts_per_s": (batch.len() as f64 / batch_s).round(),
            "one_by_one_texts_per_s": (200.0_f64.min(n as f64) / one_s).round(),
            "threads": rayon_threads(),
            "query_ms_p50": queries.iter().map(|(words, ms)| serde_json::json!({"words": words, "ms": (ms * 100.0).round() / 100.0})).collect::<Vec<_>>(),
        });
        println!("{report}");
        return;
    }
    println!(
        "{} texts in one call: {:.2} s = {:.0} texts/s; one by one (200): {:.0} texts/s",
        batch.len(),
        batch_s,
        batch.len() as f64 / batch_s,
        200.0_f64.min(n as f64) / one_s
    );
    for (words, ms) in queries {
        println!("a query of {words} words: {ms:.2} ms (p50 of 50)");
    }
}

/// Queries of one, two and ten words.
const QUERIES: [&str; 3] = [
    "postgres",
    "session cache",
    "why did we move the session cache to redis last week",
];

/// The thread count the embedding runs on (`RAYON_NUM_THREADS`, else the CPUs).
fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1))
}
