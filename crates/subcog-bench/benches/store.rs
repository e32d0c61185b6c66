//! Capture and keyword recall through the library, at 1k and 10k memories.
//!
//! Run with `scripts/bench` (or `cargo bench -p subcog-bench --bench store`).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use subcog_bench::{QUERIES, populated};
use subcog_core::capture::CaptureRequest;
use subcog_core::recall::RecallQuery;

fn bench(c: &mut Criterion) {
    for n in [1_000usize, 10_000] {
        // Capture grows its store, so recall gets a store of its own that stays at n.
        let dir = tempfile::tempdir().expect("tempdir");
        let subcog = populated(dir.path(), n);
        let recall_dir = tempfile::tempdir().expect("tempdir");
        let recall_subcog = populated(recall_dir.path(), n);

        let mut group = c.benchmark_group("capture");
        let mut i = 0u64;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                i += 1;
                let out = subcog
                    .capture(CaptureRequest {
                        content: format!("Benchmark capture {i}: the cache layer now uses Redis streams"),
                        namespace: "learnings".into(),
                        ..Default::default()
                    })
                    .expect("capture");
                black_box(out.memory.id)
            })
        });
        group.finish();

        let mut group = c.benchmark_group("recall_fts");
        let mut q = 0usize;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                q += 1;
                let query = RecallQuery {
                    query: QUERIES[q % QUERIES.len()].to_string(),
                    limit: Some(10),
                    ..Default::default()
                };
                black_box(recall_subcog.recall(&query).expect("recall").results.len())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
