//! Whole-process latency of `subcog recall` (start, open, search, print, exit) against a
//! store of 10k memories: an upper bound on "process start to first output".
//!
//! Needs the release binary: `scripts/bench` builds it first, or set SUBCOG_BIN.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::process::Command;
use subcog_bench::populated;

fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("SUBCOG_BIN") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/subcog");
    assert!(
        p.exists(),
        "{} not found: run `cargo build --release -p subcog` or scripts/bench",
        p.display()
    );
    p
}

fn bench(c: &mut Criterion) {
    let bin = binary();
    let dir = tempfile::tempdir().expect("tempdir");
    populated(dir.path(), 10_000);
    let project = dir.path().join("project");
    let run = |args: &[&str]| {
        let out = Command::new(&bin)
            .args(args)
            .arg("--data-dir")
            .arg(dir.path())
            .current_dir(&project)
            .output()
            .expect("run subcog");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout.len()
    };
    assert!(run(&["recall", "postgres latency", "-q"]) > 0, "recall found nothing");
    c.bench_function("process/recall_10k", |b| {
        b.iter(|| run(&["recall", "postgres latency", "-q"]))
    });
    c.bench_function("process/version", |b| b.iter(|| run(&["--version"])));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50);
    targets = bench
}
criterion_main!(benches);
