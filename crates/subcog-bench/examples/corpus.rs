//! Prints N seeded realistic memories as `subcog import` JSON Lines (the corpus of the
//! scale and session benchmarks): `cargo run --release -p subcog-bench --example corpus
//! -- 100000 [SEED] > corpus.jsonl`.

use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(42);
    let _ = std::io::stdout()
        .lock()
        .write_all(subcog_bench::corpus::jsonl(seed, n).as_bytes());
}
