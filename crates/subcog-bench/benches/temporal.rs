//! Resolving time expressions in 10,000 memories' text against their own dates (issue 7's
//! target: under 1 s), and a reasoned answer (retrieval plus the offline answer) over a
//! store of 10,000 memories.
//!
//! Run with `scripts/bench temporal`.

use chrono::NaiveDate;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use subcog_bench::populated;
use subcog_core::consolidate::LlmMode;
use subcog_core::recall::RecallQuery;
use subcog_core::temporal::resolve::{DateOrder, resolve_all};

const PHRASES: &[&str] = &[
    "I went to the support group yesterday",
    "we shipped the billing worker last week and it broke two days ago",
    "the migration ran on 8 May 2023; the rollback was the day before yesterday",
    "next Friday we demo; last weekend was quiet",
    "a few months ago the cache was replaced",
    "nothing about time in this memory at all, just a decision about Redis",
];

fn bench(c: &mut Criterion) {
    let texts: Vec<(String, NaiveDate)> = (0..10_000)
        .map(|i| {
            let base = NaiveDate::from_ymd_opt(2023, 1, 1).unwrap_or_default();
            (
                format!("{} (note {i})", PHRASES[i % PHRASES.len()]),
                base + chrono::Duration::days(i as i64 % 700),
            )
        })
        .collect();
    c.bench_function("temporal/resolve_10k_memories", |b| {
        b.iter(|| {
            let n: usize = texts
                .iter()
                .map(|(t, at)| resolve_all(t, *at, DateOrder::Mdy).len())
                .sum();
            black_box(n)
        })
    });

    let dir = tempfile::tempdir().expect("tempdir");
    let subcog = populated(dir.path(), 10_000).with_embedder(None);
    let query = RecallQuery {
        query: "When was the billing worker moved to Redis?".into(),
        no_touch: true,
        ..Default::default()
    };
    c.bench_function("temporal/recall_reason_10k_keyword", |b| {
        b.iter(|| {
            let r = subcog.recall_reasoned(&query, LlmMode::Off).expect("reason");
            black_box(r.answer.confidence)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
