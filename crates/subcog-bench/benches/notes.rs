//! Git notes: the note write on capture, a whole capture in a git repository, and a
//! rebuild of the index from 10k notes (without embeddings), all at 10k existing notes.
//!
//! Run with `scripts/bench notes` (or `cargo bench -p subcog-bench --bench notes`).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use subcog_bench::{git_service, memory, populated_git};
use subcog_core::capture::CaptureRequest;
use subcog_core::notes::format::memory_note;
use subcog_core::notes::{Anchor, NoteEdit, NotesRef};
use subcog_core::service::ScopeKind;

const N: usize = 10_000;

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let subcog = populated_git(dir.path(), N).with_embedder(None);
    let repo = subcog
        .notes_repo(ScopeKind::Project, false)
        .expect("repo")
        .expect("a git repository");
    let refname = NotesRef::Memories.refname();
    assert_eq!(repo.entries(&refname).expect("entries").len(), N);

    let mut i = N;
    c.bench_function("notes/write_one_at_10k", |b| {
        b.iter(|| {
            i += 1;
            let m = memory(i);
            let edit = NoteEdit {
                anchor: Anchor::memory(&m.id.to_string()),
                body: Some(memory_note(&m).into_bytes()),
            };
            black_box(repo.write(&refname, &[edit], "bench").expect("write"))
        })
    });

    let mut k = 0u64;
    c.bench_function("notes/capture_in_git_repo_at_10k", |b| {
        b.iter(|| {
            k += 1;
            let out = subcog
                .capture(CaptureRequest {
                    content: format!("Benchmark capture {k}: the cache layer now uses Redis streams"),
                    namespace: "learnings".into(),
                    ..Default::default()
                })
                .expect("capture");
            black_box(out.memory.id)
        })
    });

    // A rebuild reads every note into a fresh index.
    let rebuild = tempfile::tempdir().expect("tempdir");
    populated_git(rebuild.path(), N);
    let db_dir = rebuild.path().join("projects");
    let mut group = c.benchmark_group("notes");
    group.sample_size(10);
    group.bench_function("reindex_10k_notes", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(&db_dir);
                git_service(rebuild.path()).with_embedder(None)
            },
            |fresh| {
                let report = fresh.reindex_from_notes(&mut |_, _| {}).expect("reindex");
                assert_eq!(report.scopes[0].inserted, N);
                report
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
