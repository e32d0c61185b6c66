//! What tracing costs recall: hybrid recall over 10,000 memories with no subscriber, and
//! with the binary's own setup at info level (the text log layer, here writing to a sink,
//! and the metrics layer timing every span). The acceptance of issue 28: within 5 %.
//! Also what a hook pays to record its injections in the activity log (10 memories, one
//! transaction, on an existing `activity.db`).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use subcog_bench::{QUERIES, populated_with_vectors, unit_vector};
use subcog_core::config::RetrievalMode;
use subcog_core::embed::EmbeddingModel;
use subcog_core::recall::RecallQuery;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::{EnvFilter, Layer, filter::LevelFilter};

fn bench(c: &mut Criterion) {
    let identity = EmbeddingModel {
        id: "bench-model".into(),
        dim: 384,
    };
    let data = tempfile::tempdir().expect("tempdir");
    let subcog = populated_with_vectors(data.path(), 10_000, &identity);
    let recall = |q: usize| {
        let query = RecallQuery {
            query: QUERIES[q % QUERIES.len()].to_string(),
            limit: Some(10),
            mode: Some(RetrievalMode::Standard),
            no_touch: true,
            ..Default::default()
        };
        let v = unit_vector(1_000_000 + q as u64, identity.dim);
        subcog
            .recall_with_vector(&query, Some((&identity, &v)))
            .expect("recall")
            .results
            .len()
    };
    let mut group = c.benchmark_group("recall_tracing_10k");
    let mut q = 0usize;
    group.bench_function("off", |b| {
        b.iter(|| {
            q += 1;
            black_box(recall(q))
        })
    });
    let subscriber = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::sink)
                .with_ansi(false)
                .with_filter(EnvFilter::new("info")),
        )
        .with(subcog_core::metrics::SpanTimer.with_filter(LevelFilter::INFO));
    tracing::subscriber::with_default(subscriber, || {
        group.bench_function("info", |b| {
            b.iter(|| {
                q += 1;
                black_box(recall(q))
            })
        });
    });
    group.finish();

    let dir = tempfile::tempdir().expect("tempdir");
    let log = subcog_core::activity::ActivityLog::new(dir.path());
    let mut n = 0u64;
    let mut group = c.benchmark_group("activity");
    group.bench_function("record_10_injections", |b| {
        b.iter(|| {
            n += 1;
            let at = chrono::Utc::now();
            let records: Vec<subcog_core::activity::ActivityRecord> = (0..10)
                .map(|i| subcog_core::activity::ActivityRecord {
                    memory_id: format!("01M8D4D11F61HAQXACPPS{n:05}"),
                    kind: subcog_core::activity::ActivityKind::Injected,
                    at,
                    via: "SessionStart".into(),
                    session: Some("bench".into()),
                    query: None,
                    rank: i + 1,
                    score: 0.5,
                })
                .collect();
            log.record(&records).expect("record")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
