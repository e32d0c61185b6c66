//! Shared set-up for subcog's benchmarks: a synthetic but realistic corpus of project
//! memories and a service wired to a temporary data directory.
//!
//! Kept in its own crate so criterion never builds with the product.

pub mod corpus;

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

/// The embedding model for benchmarks: SUBCOG_MODEL_DIR, else the test copy that
/// `scripts/fetch-test-model` puts under target/.
pub fn model_dir() -> std::path::PathBuf {
    std::env::var_os("SUBCOG_MODEL_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-model/all-MiniLM-L6-v2"))
}

/// A deterministic pseudo-random unit vector (xorshift), standing in for embeddings where
/// only search cost matters: 100k real embeddings would take half an hour to compute.
pub fn unit_vector(seed: u64, dim: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v: Vec<f32> = (0..dim)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2000) as f32 / 1000.0 - 1.0
        })
        .collect();
    let n = v.iter().map(|a| a * a).sum::<f32>().sqrt().max(1e-6);
    v.iter_mut().for_each(|a| *a /= n);
    v
}

/// Like [`populated`], with a synthetic vector of `model` stored for every memory.
pub fn populated_with_vectors(data_dir: &Path, n: usize, model: &subcog_core::embed::EmbeddingModel) -> Subcog {
    let subcog = populated(data_dir, 0);
    if let Ok(store) = subcog.store_for_write(ScopeKind::Project) {
        let memories: Vec<Memory> = (0..n).map(memory).collect();
        let vectors: Vec<Vec<f32>> = (0..n).map(|i| unit_vector(i as u64, model.dim)).collect();
        for (m, v) in memories.chunks(5_000).zip(vectors.chunks(5_000)) {
            let with = subcog_core::store::Vectors { model, vectors: v };
            let _ = store.insert_many(m, Some(with), false);
        }
    }
    subcog
}

/// A service over `data_dir` whose project store holds `n` synthetic memories, in the
/// index alone (no git notes).
pub fn populated(data_dir: &Path, n: usize) -> Subcog {
    let project = data_dir.join("project");
    let _ = std::fs::create_dir_all(&project);
    let mut config = Config::default();
    config.storage.git_notes = false;
    let subcog = Subcog::new(config, DataLocation::resolve(data_dir, &project), Arc::new(SystemClock));
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

/// A service whose project is a git repository holding `n` synthetic memories as notes
/// (and in the index), written in batches as an import would.
pub fn populated_git(data_dir: &Path, n: usize) -> Subcog {
    let subcog = git_service(data_dir);
    let memories: Vec<Memory> = (0..n).map(memory).collect();
    for chunk in memories.chunks(5_000) {
        subcog
            .persist_insert(ScopeKind::Project, chunk, None, false)
            .expect("insert with notes");
    }
    subcog
}

/// A fresh service over `data_dir` whose project (`data_dir/project`) is a git repository.
pub fn git_service(data_dir: &Path) -> Subcog {
    let project = data_dir.join("project");
    if !project.join(".git").exists() {
        git2::Repository::init(&project).expect("git init");
    }
    Subcog::new(
        Config::default(),
        DataLocation::resolve(data_dir, &project),
        Arc::new(SystemClock),
    )
}

/// A vector near its topic's centre: memories about the same subject and verb land close
/// together (so clustering finds groups), each with its own noise.
pub fn topic_vector(i: usize, dim: usize) -> Vec<f32> {
    let topic = (i % SUBJECTS.len()) * VERBS.len() + (i / SUBJECTS.len()) % VERBS.len();
    let base = unit_vector(topic as u64 + 1_000_000, dim);
    let noise = unit_vector(i as u64, dim);
    let mut v: Vec<f32> = base.iter().zip(&noise).map(|(b, n)| b + 0.3 * n).collect();
    let n = v.iter().map(|a| a * a).sum::<f32>().sqrt().max(1e-6);
    v.iter_mut().for_each(|a| *a /= n);
    v
}

/// A git project with `n` synthetic memories (half captured by an agent, so the rules
/// apply to them) and a topic vector of `model` for each.
pub fn populated_for_consolidation(data_dir: &Path, n: usize, model: &subcog_core::embed::EmbeddingModel) -> Subcog {
    let subcog = git_service(data_dir);
    let memories: Vec<Memory> = (0..n)
        .map(|i| {
            let mut m = memory(i);
            if i % 2 == 0 {
                m.created_by = "claude-code".into();
            }
            m
        })
        .collect();
    for (chunk_no, chunk) in memories.chunks(5_000).enumerate() {
        let vectors: Vec<Vec<f32>> = (0..chunk.len())
            .map(|k| topic_vector(chunk_no * 5_000 + k, model.dim))
            .collect();
        let with = subcog_core::store::Vectors {
            model,
            vectors: &vectors,
        };
        subcog
            .persist_insert(ScopeKind::Project, chunk, Some(with), false)
            .expect("insert with notes");
    }
    subcog
}

/// Copies a directory tree (benchmarks restore the same starting state each iteration).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The binary a measurement example drives: `--bin PATH` among `args`, else the release
/// build; absolute, since commands run in a scratch project. Panics with the build
/// command when it is missing.
pub fn binary_arg(args: &[String]) -> std::path::PathBuf {
    let bin = args
        .iter()
        .position(|a| a == "--bin")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release/subcog"));
    assert!(
        bin.is_file(),
        "no binary at {}: cargo build --release -p subcog",
        bin.display()
    );
    bin.canonicalize().unwrap_or(bin)
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
