//! Properties of whole runs on random corpora: a second run at the same moment changes
//! nothing, and a dry run writes nothing.

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

use super::{ConsolidateOptions, ScopeOutcome};
use crate::capture::CaptureRequest;
use crate::clock::FixedClock;
use crate::config::Config;
use crate::embed::{EmbedError, Embedder, EmbeddingModel};
use crate::location::DataLocation;
use crate::model::Status;
use crate::service::{ScopeKind, Subcog};
use crate::store::{ListOrder, MemoryFilter};

/// Bag-of-words vectors over a tiny vocabulary: close texts get close vectors.
struct Words(EmbeddingModel);

const VOCAB: &[&str] = &[
    "mysql",
    "postgresql",
    "redis",
    "cache",
    "deploy",
    "friday",
    "webpack",
    "vite",
    "jenkins",
    "ci",
    "session",
    "ttl",
    "lockfile",
    "hash",
    "sprint",
    "billing",
];

impl Embedder for Words {
    fn model(&self) -> &EmbeddingModel {
        &self.0
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|t| {
                let lower = t.to_lowercase();
                let mut v: Vec<f32> = VOCAB
                    .iter()
                    .map(|w| if lower.contains(w) { 1.0 } else { 0.0 })
                    .collect();
                v.push(0.05);
                let n = crate::embed::dot(&v, &v).sqrt();
                v.iter().map(|x| x / n).collect()
            })
            .collect())
    }
}

fn service(dir: &std::path::Path, now: chrono::DateTime<Utc>) -> Subcog {
    let project = dir.join("project");
    std::fs::create_dir_all(&project).expect("dir");
    git2::Repository::init(&project).expect("git init");
    let e: Arc<dyn Embedder> = Arc::new(Words(EmbeddingModel {
        id: "test/words".into(),
        dim: VOCAB.len() + 1,
    }));
    Subcog::new(
        Config::default(),
        DataLocation::resolve(dir, &project),
        Arc::new(FixedClock(now)),
    )
    .with_embedder(Some(e))
}

const TEMPLATES: &[&str] = &[
    "Use {a} for the main store",
    "Switched to {b} because {a} lacked JSON support",
    "No {a} deploys on Friday anymore",
    "The {a} cache key must include the lockfile hash",
    "{a} cache key has to include the lockfile hash",
    "Sprint note: {a} half done, {b} started",
    "We no longer use {a}; {b} runs CI now",
    "Update: {a} session TTL is now 60 minutes",
];
const NAMESPACES: &[&str] = &["decisions", "learnings", "progress", "patterns"];

fn snapshot(
    s: &Subcog,
) -> (
    Vec<crate::model::Memory>,
    Vec<crate::model::MemorySummary>,
    usize,
    Vec<String>,
) {
    let store = s.store_for_write(ScopeKind::Project).expect("store");
    let all = store
        .list(
            &MemoryFilter {
                statuses: Status::ALL.to_vec(),
                ..Default::default()
            },
            ListOrder::OldestFirst,
            None,
        )
        .expect("list");
    let edges = store.edges(None).expect("edges").len();
    let repo = git2::Repository::open(s.location().project_root.clone()).expect("repo");
    let refs: Vec<String> = ["mem", "mem-meta", "mem-summaries", "mem-edges"]
        .iter()
        .map(|r| {
            repo.refname_to_id(&format!("refs/notes/{r}"))
                .map(|o| o.to_string())
                .unwrap_or_default()
        })
        .collect();
    (all, store.summaries().expect("summaries"), edges, refs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn a_second_run_changes_nothing(
        items in proptest::collection::vec((0usize..TEMPLATES.len(), 0usize..VOCAB.len(), 0usize..VOCAB.len(), 0usize..NAMESPACES.len(), 0i64..400), 2..30),
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let now = Utc.with_ymd_and_hms(2025, 1, 15, 0, 0, 0).single().expect("date");
        let s = service(dir.path(), now);
        for (t, a, b, ns, age) in items {
            let content = TEMPLATES[t].replace("{a}", VOCAB[a]).replace("{b}", VOCAB[b]);
            let _ = s.capture(CaptureRequest {
                content,
                namespace: NAMESPACES[ns].into(),
                created_by: Some("agent".into()),
                at: Some(now - Duration::days(age)),
                ..Default::default()
            });
        }
        let opts = ConsolidateOptions::default();
        let before_dry = snapshot(&s);
        let dry = s.consolidate(&ConsolidateOptions { dry_run: true, ..ConsolidateOptions::default() }, &mut |_, _, _| {}).expect("dry run");
        prop_assert_eq!(dry.len(), 1);
        prop_assert_eq!(&snapshot(&s), &before_dry, "a dry run writes nothing");

        s.consolidate(&opts, &mut |_, _, _| {}).expect("first run");
        let first = snapshot(&s);
        let second = s.consolidate(&opts, &mut |_, _, _| {}).expect("second run");
        let ScopeOutcome::Completed { result, .. } = &second[0] else {
            return Err(TestCaseError::fail("second run did not complete"));
        };
        prop_assert_eq!(result.memories_changed, 0);
        prop_assert_eq!(result.summaries_created, 0);
        prop_assert!(result.tier_transitions.is_empty());
        prop_assert_eq!(&snapshot(&s), &first, "the second run changed the stored state");
    }
}

#[test]
fn a_completed_run_is_announced_on_the_event_bus() {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = Utc.with_ymd_and_hms(2025, 1, 15, 0, 0, 0).single().expect("date");
    let s = service(dir.path(), now);
    s.capture(CaptureRequest {
        content: "Use mysql for the main store".into(),
        namespace: "decisions".into(),
        at: Some(now - Duration::days(40)),
        ..Default::default()
    })
    .expect("capture");
    s.capture(CaptureRequest {
        content: "Switched to postgresql because mysql lacked JSON support".into(),
        namespace: "decisions".into(),
        at: Some(now - Duration::days(10)),
        ..Default::default()
    })
    .expect("capture");
    let events = s.events().subscribe();
    s.consolidate(&ConsolidateOptions::default(), &mut |_, _, _| {})
        .expect("run");
    match events.try_recv() {
        Ok(crate::events::Event::ConsolidationCompleted {
            scope,
            memories_processed,
            supersessions_detected,
            ..
        }) => {
            assert_eq!(scope, "project");
            assert_eq!(memories_processed, 2);
            assert_eq!(supersessions_detected, 1);
        }
        other => panic!("expected a ConsolidationCompleted event, got {other:?}"),
    }
}

/// Scoped runs, rule edits and runs without a model keep what they should.
mod scoped_and_rules {
    use super::*;
    use crate::model::{EdgeType, Namespace};

    fn now() -> chrono::DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 1, 15, 0, 0, 0).single().expect("date")
    }

    fn cap(s: &Subcog, content: &str, ns: &str, days: i64, tags: &[&str]) -> crate::model::Memory {
        s.capture(CaptureRequest {
            content: content.into(),
            namespace: ns.into(),
            created_by: Some("agent".into()),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            at: Some(now() - Duration::days(days)),
            ..Default::default()
        })
        .expect("capture")
        .memory
    }

    fn run(s: &Subcog, o: &ConsolidateOptions) -> crate::model::ConsolidationResult {
        match s.consolidate(o, &mut |_, _, _| {}).expect("run").remove(0) {
            ScopeOutcome::Completed { result, .. } => *result,
            other => panic!("{other:?}"),
        }
    }

    fn references(s: &Subcog) -> usize {
        let store = s.store_for_write(ScopeKind::Project).expect("store");
        store
            .edges(None)
            .expect("edges")
            .into_iter()
            .filter(|e| e.edge_type == EdgeType::References)
            .count()
    }

    #[test]
    fn a_promoted_pattern_keeps_its_link_on_later_runs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = service(dir.path(), now());
        let m = cap(
            &s,
            "The redis cache key must include the lockfile hash",
            "patterns",
            30,
            &[],
        );
        let store = s.store_for_write(ScopeKind::Project).expect("store");
        for _ in 0..6 {
            store.touch(&[m.id], now() - Duration::days(1)).expect("touch");
        }
        let first = run(&s, &ConsolidateOptions::default());
        assert!(
            first.actions.iter().any(|a| a.action == "promote"),
            "{:?}",
            first.actions
        );
        assert_eq!(references(&s), 1);
        let second = run(&s, &ConsolidateOptions::default());
        assert_eq!(references(&s), 1, "the second run dropped the promotion link");
        assert_eq!(second.memories_changed, 0);
    }

    #[test]
    fn an_until_run_keeps_a_supersession_whose_replacement_is_outside_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = service(dir.path(), now());
        let old = cap(&s, "Use mysql for the main store", "decisions", 40, &[]);
        cap(
            &s,
            "Switched to postgresql because mysql lacked JSON support",
            "decisions",
            10,
            &[],
        );
        run(&s, &ConsolidateOptions::default());
        let store = s.store_for_write(ScopeKind::Project).expect("store");
        let before = store.get(&old.id).expect("get").expect("memory");
        assert!(before.superseded_by.is_some());
        run(
            &s,
            &ConsolidateOptions {
                until: Some(now() - Duration::days(20)),
                ..Default::default()
            },
        );
        let after = store.get(&old.id).expect("get").expect("memory");
        assert_eq!(after.superseded_by, before.superseded_by);
        assert_eq!(after.tier, before.tier);
        assert_eq!(store.supersessions().expect("supersessions").len(), 1);
    }

    #[test]
    fn a_namespace_run_keeps_links_and_summaries_outside_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = service(dir.path(), now());
        cap(
            &s,
            "The redis cache key must include the lockfile hash",
            "learnings",
            30,
            &["x"],
        );
        cap(
            &s,
            "Redis cache key has to include the lockfile hash value",
            "patterns",
            20,
            &["y"],
        );
        run(&s, &ConsolidateOptions::default());
        let store = s.store_for_write(ScopeKind::Project).expect("store");
        let count = |t: EdgeType| {
            store
                .edges(None)
                .expect("edges")
                .iter()
                .filter(|e| e.edge_type == t)
                .count()
        };
        let (related, summaries) = (count(EdgeType::RelatesTo), store.summaries().expect("summaries"));
        run(
            &s,
            &ConsolidateOptions {
                namespaces: vec![Namespace::parse("learnings").expect("ns")],
                ..Default::default()
            },
        );
        assert_eq!(
            count(EdgeType::RelatesTo),
            related,
            "a namespace run dropped a cross-namespace edge"
        );
        assert_eq!(store.summaries().expect("summaries"), summaries);
    }

    #[test]
    fn a_merge_without_a_loaded_model_is_idempotent() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = service(dir.path(), now());
        cap(
            &s,
            "The redis cache key must include the lockfile hash",
            "learnings",
            30,
            &["a", "b", "c", "d", "e", "f"],
        );
        cap(
            &s,
            "Redis cache key has to include the lockfile hash",
            "learnings",
            20,
            &["a", "b", "c", "d", "e"],
        );
        // Same data, no embedder loaded: stored vectors only.
        let s2 = Subcog::new(Config::default(), s.location().clone(), Arc::new(FixedClock(now()))).with_embedder(None);
        let store = s2.store_for_write(ScopeKind::Project).expect("store");
        let vectors = store.embedding_counts().expect("counts");
        let first = run(&s2, &ConsolidateOptions::default());
        assert!(first.actions.iter().any(|a| a.action == "merge"), "{:?}", first.actions);
        assert_eq!(
            store.embedding_counts().expect("counts"),
            vectors,
            "a tag-only edit dropped a vector"
        );
        let second = run(&s2, &ConsolidateOptions::default());
        assert!(
            second.tier_transitions.is_empty() && second.memories_changed == 0,
            "{second:?}"
        );
    }
}
