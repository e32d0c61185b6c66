//! Consolidation with no LLM: a first run over 1,000 and 10,000 memories in a git
//! repository (every stage, notes and index written), from the same starting state each
//! time. Vectors are synthetic topic vectors (200 topics), so clustering has real work.
//!
//! Run with `scripts/bench consolidate`.

use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use subcog_bench::{copy_dir, git_service, populated_for_consolidation};
use subcog_core::clock::FixedClock;
use subcog_core::consolidate::ConsolidateOptions;
use subcog_core::embed::EmbeddingModel;

fn bench(c: &mut Criterion) {
    let model = EmbeddingModel {
        id: "bench/topics".into(),
        dim: 384,
    };
    let mut group = c.benchmark_group("consolidate");
    group.sample_size(10);
    for n in [1_000usize, 10_000] {
        // Built where it runs (the index is keyed by the project's path), then kept aside.
        let work = tempfile::tempdir().expect("tempdir");
        drop(populated_for_consolidation(work.path(), n, &model));
        let template = tempfile::tempdir().expect("tempdir");
        copy_dir(work.path(), template.path());
        let now = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2025, 6, 1, 0, 0, 0)
            .single()
            .expect("date");
        group.bench_function(format!("first_run_{n}"), |b| {
            b.iter_batched(
                || {
                    let _ = std::fs::remove_dir_all(work.path());
                    copy_dir(template.path(), work.path());
                    let s = git_service(work.path());
                    subcog_core::Subcog::new(s.config().clone(), s.location().clone(), Arc::new(FixedClock(now)))
                        .with_embedder(None)
                },
                |s| {
                    let out = s
                        .consolidate(&ConsolidateOptions::default(), &mut |_, _, _| {})
                        .expect("consolidate");
                    assert_eq!(out.len(), 1);
                    out
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
