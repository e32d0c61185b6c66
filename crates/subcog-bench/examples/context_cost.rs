//! What a session start costs: the `<subcog-context>` block at 100, 2,000 and 10,000 typical
//! project memories (the 198 memories of `crates/subcog/tests/fixtures/project_memories.jsonl`,
//! cycled with a ticket number so each copy is distinct, captured over 18 months, then
//! consolidated offline so tiers are real), with the default budget.
//!
//! `cargo run --release -p subcog-bench --example context_cost [-- BASE_BUDGET]`

use chrono::{Duration, TimeZone, Utc};
use subcog_core::consolidate::ConsolidateOptions;
use subcog_core::context::ContextRequest;
use subcog_core::model::{Memory, Namespace};
use subcog_core::service::ScopeKind;

fn main() {
    let budget: Option<usize> = std::env::args().nth(1).and_then(|a| a.parse().ok());
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../subcog/tests/fixtures/project_memories.jsonl");
    let text = std::fs::read_to_string(&fixture).expect("fixture");
    let base: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            Some((
                v.get("content")?.as_str()?.to_string(),
                v.get("namespace")?.as_str()?.to_string(),
            ))
        })
        .collect();
    println!(
        "| memories | included | tokens | block chars | memory text chars | overhead chars / memory | summaries tokens |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in [100usize, 2_000, 10_000] {
        let dir = tempfile::tempdir().expect("tempdir");
        let subcog = subcog_bench::populated(dir.path(), 0);
        let start = Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).single().expect("date");
        let step = Duration::minutes((18 * 30 * 24 * 60 / n as i64).max(1));
        let memories: Vec<Memory> = (0..n)
            .map(|i| {
                let (content, ns) = &base[i % base.len()];
                let content = if i < base.len() {
                    content.clone()
                } else {
                    format!("{content} (LUM-{})", 1000 + i)
                };
                Memory::new(content, Namespace::parse(ns).expect("ns"), start + step * i as i32)
            })
            .collect();
        let store = subcog.store_for_write(ScopeKind::Project).expect("store");
        for chunk in memories.chunks(5_000) {
            store.insert_many(chunk, None, false).expect("insert");
        }
        subcog
            .consolidate(&ConsolidateOptions::default(), &mut |_, _, _| {})
            .expect("consolidate");
        let req = ContextRequest {
            project: Some("/home/dev/lumen".into()),
            base_budget: budget,
        };
        let ctx = subcog.session_context(&req).expect("context");
        // In-process time of the context (the hook adds process start and store open).
        let mut times: Vec<f64> = (0..9)
            .map(|_| {
                let t = std::time::Instant::now();
                subcog.session_context(&req).expect("context");
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        eprintln!("{n} memories: session_context median {:.1} ms", times[4]);
        let included: std::collections::HashSet<&str> = ctx.included.iter().map(|m| m.id.as_str()).collect();
        let text_chars: usize = memories
            .iter()
            .filter(|m| included.contains(m.id.to_string().as_str()))
            .map(|m| m.content.trim().chars().count())
            .sum();
        let block = ctx.context_block.chars().count();
        if std::env::var_os("SUBCOG_SHOW_BLOCK").is_some() {
            eprintln!("{}", ctx.context_block);
        }
        let per = if ctx.included.is_empty() {
            0.0
        } else {
            (block as f64 - text_chars as f64) / ctx.included.len() as f64
        };
        println!(
            "| {n} | {} | {} | {block} | {text_chars} | {per:.0} | {} |",
            ctx.included.len(),
            ctx.tokens_used,
            ctx.summary_tokens
        );
    }
}
