//! Recall of the vector index's sign-bit first look (used from
//! `subcog_core::vector::APPROXIMATE_MIN_ROWS` rows on) against the exact scan, and what
//! each costs.
//!
//! ```sh
//! cargo run --release -p subcog-bench --example vector_recall -- synthetic 1000000 [--json]
//! cargo run --release -p subcog-bench --example vector_recall -- real 10000 [--json]
//! ```
//!
//! `synthetic`: N pseudo-random unit vectors and random queries, the hard case (every
//! vector nearly orthogonal to every other, so the true neighbours barely stand out).
//! `real`: MiniLM embeddings of the LongMemEval subset's turns (`data/longmemeval`) and N
//! notes of the realistic corpus (seed 7, not the benchmarks' 42), queried with the
//! LongMemEval questions; the rows handed to the exact steps are scaled to N as a
//! million-row index would hand them (`RESCORE_ROWS` · N / 1,000,000).

use std::time::Instant;

use serde_json::json;
use subcog_core::vector::{FlatIndex, RESCORE_ROWS, VectorIndex};

const K: usize = 10;

fn p50(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    let v = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
    (v * 100.0).round() / 100.0
}

fn real_vectors(n: usize) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let model = subcog_core::embed::load_default(&subcog_bench::model_dir()).expect("model (scripts/fetch-test-model)");
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/longmemeval/longmemeval-oracle-151.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("LongMemEval subset")).expect("JSON");
    let items = data.as_array().cloned().unwrap_or_default();
    let mut texts: Vec<String> = Vec::new();
    let mut questions: Vec<String> = Vec::new();
    for item in &items {
        if let Some(q) = item["question"].as_str() {
            questions.push(q.to_string());
        }
        for session in item["haystack_sessions"].as_array().into_iter().flatten() {
            for turn in session.as_array().into_iter().flatten() {
                if let Some(t) = turn["content"].as_str() {
                    texts.push(t.to_string());
                }
            }
        }
    }
    texts.extend((0..n).map(|i| subcog_bench::corpus::realistic(7, i).content));
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    eprintln!("embedding {} texts and {} questions", refs.len(), questions.len());
    let vectors = model.embed(&refs).expect("embeds");
    let q: Vec<&str> = questions.iter().map(String::as_str).collect();
    (vectors, model.embed(&q).expect("embeds"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let as_json = args.iter().any(|a| a == "--json");
    let real = args.iter().any(|a| a == "real");
    let n: usize = args
        .iter()
        .find_map(|a| a.parse().ok())
        .unwrap_or(if real { 10_000 } else { 1_000_000 });
    let dim = 384;
    let (vectors, queries) = if real {
        real_vectors(n)
    } else {
        let v = (0..n).map(|i| subcog_bench::unit_vector(i as u64, dim)).collect();
        let q = (0..50)
            .map(|i| subcog_bench::unit_vector(50_000_000 + i, dim))
            .collect();
        (v, q)
    };
    let start = Instant::now();
    let mut index = FlatIndex::new(dim);
    for (i, v) in vectors.iter().enumerate() {
        index.push(i as i64, v);
    }
    let build_s = start.elapsed().as_secs_f64();
    let rows = index.len();
    let mut exact_ms = Vec::new();
    let exact: Vec<Vec<i64>> = queries
        .iter()
        .map(|q| {
            let t = Instant::now();
            let top = index.search_exact(q, K);
            exact_ms.push(t.elapsed().as_secs_f64() * 1e3);
            top.into_iter().map(|(k, _)| k).collect()
        })
        .collect();
    let mut search_ms = Vec::new();
    for q in &queries {
        let t = Instant::now();
        let _ = index.search(q, None, 50);
        search_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    // A million-row index hands RESCORE_ROWS to the exact steps; a smaller one is measured
    // with the same share.
    let scale = if real { rows as f64 / 1_000_000.0 } else { 1.0 };
    let mut by_rescore = Vec::new();
    for equivalent in [RESCORE_ROWS / 2, RESCORE_ROWS, RESCORE_ROWS * 2] {
        let rescore = ((equivalent as f64 * scale).round() as usize).max(K);
        let mut ms = Vec::new();
        let mut found = 0usize;
        let mut worst = K;
        for (q, truth) in queries.iter().zip(&exact) {
            let t = Instant::now();
            let got = index.search_approximate(q, K, rescore);
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            let hit = got.iter().filter(|(k, _)| truth.contains(k)).count();
            found += hit;
            worst = worst.min(hit);
        }
        by_rescore.push(json!({
            "rescore_rows_at_1m": equivalent,
            "rescore_rows": rescore,
            "recall_at_10": (found as f64 / (K * queries.len()) as f64 * 1000.0).round() / 1000.0,
            "worst_query": worst,
            "p50_ms": p50(ms),
        }));
    }
    let report = json!({
        "set": if real { "real" } else { "synthetic" },
        "rows": rows,
        "queries": queries.len(),
        "build_s": (build_s * 10.0).round() / 10.0,
        "exact_f32_scan_p50_ms": p50(exact_ms),
        "search_p50_ms (k 50, the path recall takes)": p50(search_ms),
        "approximate": by_rescore,
    });
    if as_json {
        println!("{report}");
    } else {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    }
}
