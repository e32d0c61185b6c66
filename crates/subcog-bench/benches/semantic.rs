//! Recall by meaning: model load, embedding throughput, and hybrid recall latency at 1k,
//! 10k and 100k memories (query embedding excluded; store vectors are synthetic unit
//! vectors, which cost the same to search as real ones).
//!
//! Needs the model: `scripts/bench` fetches the test copy first (or set SUBCOG_MODEL_DIR).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use subcog_bench::{QUERIES, model_dir, populated_with_vectors, unit_vector};
use subcog_core::config::RetrievalMode;
use subcog_core::embed::{Embedder, MiniLm};
use subcog_core::recall::RecallQuery;

fn bench(c: &mut Criterion) {
    let dir = model_dir();
    let mut group = c.benchmark_group("model");
    group.sample_size(20);
    group.bench_function("load", |b| {
        b.iter(|| black_box(MiniLm::load(&dir).expect("model loads")))
    });
    group.finish();

    let model = MiniLm::load(&dir).expect("model loads");
    let short: Vec<String> = (0..32).map(|i| subcog_bench::memory(i).content).collect();
    let short: Vec<&str> = short.iter().map(String::as_str).collect();
    let long_text = "The deploy pipeline retries flaky steps and reports them to the on-call channel. ".repeat(14);
    let long: Vec<&str> = vec![long_text.as_str(); 8];
    let mut group = c.benchmark_group("embed");
    group.sample_size(10);
    group.throughput(Throughput::Elements(short.len() as u64));
    group.bench_function("short_x32", |b| {
        b.iter(|| black_box(model.embed(&short).expect("embeds")))
    });
    group.throughput(Throughput::Elements(long.len() as u64));
    group.bench_function("long_x8", |b| b.iter(|| black_box(model.embed(&long).expect("embeds"))));
    group.throughput(Throughput::Elements(1));
    group.bench_function("query", |b| {
        b.iter(|| black_box(model.embed_one("why did we move the session cache")))
    });
    group.finish();

    let identity = model.model().clone();
    let mut group = c.benchmark_group("recall_hybrid");
    for n in [1_000usize, 10_000, 100_000] {
        let data = tempfile::tempdir().expect("tempdir");
        let subcog = populated_with_vectors(data.path(), n, &identity);
        let mut q = 0usize;
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                q += 1;
                let query = RecallQuery {
                    query: QUERIES[q % QUERIES.len()].to_string(),
                    limit: Some(10),
                    mode: Some(RetrievalMode::Standard),
                    no_touch: true,
                    ..Default::default()
                };
                let v = unit_vector(1_000_000 + q as u64, identity.dim);
                black_box(
                    subcog
                        .recall_with_vector(&query, Some((&identity, &v)))
                        .expect("recall")
                        .results
                        .len(),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
