//! Where SessionStart's time goes at 10k memories: `cargo run --release -p subcog-bench --example context_stages`.

use std::time::Instant;
use subcog_bench::populated;
use subcog_core::context::{ContextRequest, tokens};
use subcog_core::service::ScopeKind;
use subcog_core::store::{ListOrder, MemoryFilter};

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    drop(populated(dir.path(), 10_000));
    let t = Instant::now();
    let subcog = populated(dir.path(), 0);
    let store = subcog.store_for_write(ScopeKind::Project).expect("store");
    println!("open store        {:>8.2} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let _ = store.stats().expect("stats");
    println!("stats             {:>8.2} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let l = store
        .list(&MemoryFilter::default(), ListOrder::Retention, Some(420))
        .expect("list");
    println!(
        "list retention 420 {:>7.2} ms ({} rows)",
        t.elapsed().as_secs_f64() * 1e3,
        l.len()
    );
    let t = Instant::now();
    let filter = MemoryFilter {
        statuses: vec![subcog_core::model::Status::Active],
        tiers: vec![subcog_core::model::Tier::Hot, subcog_core::model::Tier::Warm],
        ..Default::default()
    };
    let l2 = store.list(&filter, ListOrder::Retention, Some(420)).expect("list");
    println!(
        "list filtered 420 {:>8.2} ms ({} rows)",
        t.elapsed().as_secs_f64() * 1e3,
        l2.len()
    );
    let t = Instant::now();
    let _ = store.edges(None).expect("edges");
    println!("edges             {:>8.2} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let _ = subcog.runs(ScopeKind::Project, 1).expect("runs");
    println!("runs              {:>8.2} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    tokens::count("warm");
    println!("tokenizer load    {:>8.2} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let n: usize = l.iter().map(|m| tokens::count(&m.content)).sum();
    println!(
        "count 420 texts   {:>8.2} ms ({n} tokens)",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let ctx = subcog.session_context(&ContextRequest::default()).expect("context");
    println!(
        "session_context   {:>8.2} ms ({} memories, {} tokens)",
        t.elapsed().as_secs_f64() * 1e3,
        ctx.included.len(),
        ctx.tokens_used
    );
}
