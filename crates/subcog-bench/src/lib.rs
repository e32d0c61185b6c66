//! Shared set-up for subcog's benchmarks: a synthetic but realistic corpus of project
//! memories and a service wired to a temporary data directory.
//!
//! Kept in its own crate so criterion never builds with the product.

use std::path::Path;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use subcog_core::Subcog;
use subcog_core::clock::SystemClock;
use subcog_core::config::Config;
use subcog_core::location::DataLocation;
use subcog_core::model::{Memory, Namespace};
use subcog_core::service::ScopeKind;

const SUBJECTS: &[&str] = &[
    "PostgreSQL",
    "the session cache",
    "Redis",
    "the auth service",
    "GraphQL gateway",
    "the CI pipeline",
    "Kubernetes deploys",
    "the billing worker",
    "feature flags",
    "the search index",
    "S3 uploads",
    "the mobile API",
    "rate limiting",
    "the event bus",
    "error reporting",
    "database migrations",
    "the React dashboard",
    "log retention",
    "TLS certificates",
    "the job scheduler",
];
const VERBS: &[&str] = &[
    "must stay behind",
    "was moved to",
    "now depends on",
    "should not call",
    "times out when talking to",
    "was rewritten to use",
    "is cached in front of",
    "is monitored through",
    "replaced",
    "is tested against",
];
const DETAILS: &[&str] = &[
    "because p99 latency doubled under load",
    "after the outage in March",
    "to keep costs predictable",
    "since the vendor deprecated the old API",
    "so that retries stay idempotent",
    "which halved the build time",
    "until the migration is finished",
    "as agreed in the architecture review",
];
const NAMESPACES: &[&str] = &["decisions", "learnings", "patterns", "blockers", "progress", "context"];

/// Realistic queries for recall benchmarks.
pub const QUERIES: &[&str] = &[
    "postgres latency",
    "why did we move the session cache",
    "redis outage",
    "auth service timeouts",
    "ci pipeline build time",
    "kubernetes deploy",
    "billing worker retries",
    "feature flags vendor",
    "search index migration",
    "tls certificates",
];

/// The `i`-th synthetic memory (deterministic).
pub fn memory(i: usize) -> Memory {
    let s = SUBJECTS[i % SUBJECTS.len()];
    let v = VERBS[(i / SUBJECTS.len()) % VERBS.len()];
    let o = SUBJECTS[(i * 7 + 3) % SUBJECTS.len()];
    let d = DETAILS[(i / 3) % DETAILS.len()];
    let ns = NAMESPACES[i % NAMESPACES.len()];
    let content = format!("{s} {v} {o} {d}. Note {i}: checked by the on-call engineer.");
    let base = Utc
        .with_ymd_and_hms(2024, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_else(Utc::now);
    let namespace = Namespace::parse(ns).expect("built-in namespace");
    let mut m = Memory::new(content, namespace, base + Duration::minutes(i as i64 * 37));
    m.tags = vec![format!("area{}", i % 12)];
    m
}

/// A service over `data_dir` whose project store holds `n` synthetic memories.
pub fn populated(data_dir: &Path, n: usize) -> Subcog {
    let project = data_dir.join("project");
    let _ = std::fs::create_dir_all(project.join(".git"));
    let subcog = Subcog::new(
        Config::default(),
        DataLocation::resolve(data_dir, &project),
        Arc::new(SystemClock),
    );
    if n > 0 {
        let memories: Vec<Memory> = (0..n).map(memory).collect();
        if let Ok(store) = subcog.store_for_write(ScopeKind::Project) {
            for chunk in memories.chunks(5_000) {
                let _ = store.insert_many(chunk, None, false);
            }
        }
    }
    subcog
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_is_distinct_and_loads() {
        let dir = tempfile::tempdir().expect("tempdir");
        let subcog = populated(dir.path(), 300);
        let status = subcog.status().expect("status");
        assert_eq!(status.by_status.get("active"), Some(&300));
        assert_ne!(memory(1).content_hash, memory(2).content_hash);
    }
}
