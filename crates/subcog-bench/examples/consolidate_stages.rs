//! Prints the time each consolidation stage takes on the synthetic corpus:
//! `cargo run --release -p subcog-bench --example consolidate_stages -- 10000`
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let model = subcog_core::embed::EmbeddingModel {
        id: "bench/topics".into(),
        dim: 384,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let s = subcog_bench::populated_for_consolidation(dir.path(), n, &model).with_embedder(None);
    let t = std::time::Instant::now();
    let out = s
        .consolidate(
            &subcog_core::consolidate::ConsolidateOptions::default(),
            &mut |_, _, _| {},
        )
        .expect("consolidate");
    let total = t.elapsed();
    drop(s);
    println!("with closing the store: {:?}", t.elapsed());
    if let Some(subcog_core::consolidate::ScopeOutcome::Completed { result, .. }) = out.first() {
        println!("{n} memories: {:?} total; stages (ms): {:?}", total, result.stage_ms);
        println!(
            "clusters {} supersessions {} edges {} changed {}",
            result.clusters_found, result.supersessions_detected, result.edges, result.memories_changed
        );
    }
}
