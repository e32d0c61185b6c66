//! Tests of the SQLite store against real database files.

use super::*;
use crate::model::{Domain, Namespace, Status, Tier};
use chrono::{Duration as ChronoDuration, TimeZone, Utc};

fn store() -> (tempfile::TempDir, SqliteStore) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SqliteStore::open(&dir.path().join("sub/dir/subcog.db"), Duration::from_secs(5)).expect("open");
    (dir, store)
}

fn mem(content: &str, ns: &str) -> Memory {
    Memory::new(content, Namespace::parse(ns).expect("ns"), Utc::now())
}

fn terms(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn insert_get_round_trips_every_field() {
    let (_dir, store) = store();
    let mut m = mem("Use PostgreSQL for primary storage", "decisions");
    m.tags = vec!["db".into(), "infra".into()];
    m.source = Some("ADR-7".into());
    m.importance = Some(0.75);
    m.priority = crate::model::Priority::Critical;
    m.tier = Tier::Cold;
    m.retention.overall = 0.25;
    m.retention.importance = 0.5;
    m.activation_count = 3;
    m.last_accessed = Some(crate::timestamp::canonical(Utc::now()));
    m.superseded_by = Some(MemoryId::at(Utc::now()));
    m.cluster_id = Some("cluster_1".into());
    assert_eq!(store.insert(&m).expect("insert"), InsertOutcome::Inserted(m.id));
    assert_eq!(store.get(&m.id).expect("get"), Some(m));
}

#[test]
fn duplicates_by_id_and_by_content() {
    let (_dir, store) = store();
    let a = mem("Use PostgreSQL", "decisions");
    store.insert(&a).expect("insert");
    assert_eq!(store.insert(&a).expect("again"), InsertOutcome::DuplicateId(a.id));
    let same_text = mem("  use   postgresql ", "decisions");
    assert_eq!(
        store.insert(&same_text).expect("dup"),
        InsertOutcome::DuplicateContent(a.id)
    );
    // Same text in another namespace or domain is a different memory.
    let other_ns = mem("Use PostgreSQL", "learnings");
    assert_eq!(
        store.insert(&other_ns).expect("other ns"),
        InsertOutcome::Inserted(other_ns.id)
    );
    let mut other_domain = mem("Use PostgreSQL", "decisions");
    other_domain.domain = Domain::User;
    assert!(matches!(
        store.insert(&other_domain).expect("other domain"),
        InsertOutcome::Inserted(_)
    ));
    // A soft-deleted memory does not block capturing the text again.
    let mut deleted = store.get(&a.id).expect("get").expect("exists");
    deleted.status = Status::Deleted;
    assert!(store.update(&deleted, None).expect("soft delete"));
    let again = mem("Use PostgreSQL", "decisions");
    assert_eq!(
        store.insert(&again).expect("recapture"),
        InsertOutcome::Inserted(again.id)
    );
}

#[test]
fn insert_many_is_all_or_nothing_and_dry_run_writes_nothing() {
    let (_dir, store) = store();
    let batch: Vec<Memory> = (0..5).map(|i| mem(&format!("memory {i}"), "learnings")).collect();
    let outcomes = store.insert_many(&batch, None, true).expect("dry run");
    assert!(outcomes.iter().all(|o| matches!(o, InsertOutcome::Inserted(_))));
    assert_eq!(store.stats().expect("stats").total, 0);
    store.insert_many(&batch, None, false).expect("insert");
    assert_eq!(store.stats().expect("stats").total, 5);
    // Duplicates inside one batch are detected against rows inserted earlier in the batch.
    let dupes = vec![mem("fresh", "learnings"), mem("FRESH", "learnings")];
    let outcomes = store.insert_many(&dupes, None, false).expect("insert");
    assert_eq!(outcomes[1], InsertOutcome::DuplicateContent(dupes[0].id));
}

#[test]
fn search_ranks_by_bm25_and_filters_before_top_k() {
    let (_dir, store) = store();
    let target = mem("Use PostgreSQL for primary storage", "decisions");
    store.insert(&target).expect("insert");
    // Many better keyword matches in another namespace must not crowd out the filtered one.
    for i in 0..30 {
        store
            .insert(&mem(&format!("postgres postgres tuning note {i}"), "learnings"))
            .expect("insert");
    }
    let hits = store
        .search_text(&terms(&["postgres"]), &MemoryFilter::default(), 5)
        .expect("search");
    assert_eq!(hits.len(), 5);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(hits.iter().all(|h| h.score > 0.0));

    let filter = MemoryFilter {
        namespaces: vec![Namespace::parse("decisions").expect("ns")],
        ..Default::default()
    };
    let hits = store.search_text(&terms(&["postgres"]), &filter, 5).expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].id, target.id);
    assert!(
        store
            .search_text(&terms(&["mongodb"]), &MemoryFilter::default(), 5)
            .expect("search")
            .is_empty()
    );
}

#[test]
fn tag_time_and_status_filters() {
    let (_dir, store) = store();
    let day = |d: u32| Utc.with_ymd_and_hms(2023, 5, d, 12, 0, 0).single().expect("date");
    let mut a = Memory::new(
        "cache layer uses redis",
        Namespace::parse("decisions").expect("ns"),
        day(1),
    );
    a.tags = vec!["cache".into(), "infra".into()];
    let mut b = Memory::new(
        "redis cluster failover learned",
        Namespace::parse("learnings").expect("ns"),
        day(10),
    );
    b.tags = vec!["infra".into()];
    let mut c = Memory::new(
        "redis was archived",
        Namespace::parse("learnings").expect("ns"),
        day(20),
    );
    c.status = Status::Archived;
    for m in [&a, &b, &c] {
        store.insert(m).expect("insert");
    }
    let ids = |f: &MemoryFilter| -> Vec<MemoryId> {
        store
            .search_text(&terms(&["redis"]), f, 10)
            .expect("search")
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    let both_tags = MemoryFilter {
        tags: vec!["cache".into(), "infra".into()],
        ..Default::default()
    };
    assert_eq!(ids(&both_tags), vec![a.id]);
    let since = MemoryFilter {
        since: Some(day(5)),
        until: Some(day(15)),
        ..Default::default()
    };
    assert_eq!(ids(&since), vec![b.id]);
    let active = MemoryFilter {
        statuses: vec![Status::Active],
        ..Default::default()
    };
    assert_eq!(ids(&active).len(), 2);
    assert_eq!(ids(&MemoryFilter::default()).len(), 3);
    let listed = store
        .list(&MemoryFilter::default(), ListOrder::OldestFirst, Some(2))
        .expect("list");
    assert_eq!(listed.iter().map(|m| m.id).collect::<Vec<_>>(), vec![a.id, b.id]);
}

#[test]
fn updates_keep_the_index_in_sync() {
    let (_dir, store) = store();
    let mut m = mem("Use MySQL for storage", "decisions");
    store.insert(&m).expect("insert");
    m.content = "Use PostgreSQL for storage".into();
    m.summary = "Use PostgreSQL".into();
    m.content_hash = crate::content::content_hash(&m.content);
    m.tags = vec!["db".into()];
    m.updated_at += ChronoDuration::seconds(1);
    assert!(store.update(&m, None).expect("update"));
    assert!(
        store
            .search_text(&terms(&["mysql"]), &MemoryFilter::default(), 5)
            .expect("s")
            .is_empty()
    );
    assert_eq!(
        store
            .search_text(&terms(&["postgresql"]), &MemoryFilter::default(), 5)
            .expect("s")
            .len(),
        1
    );
    let tagged = MemoryFilter {
        tags: vec!["db".into()],
        ..Default::default()
    };
    assert_eq!(
        store.list(&tagged, ListOrder::NewestFirst, None).expect("list").len(),
        1
    );
    // Updating into another live memory's content is refused.
    let other = mem("Use SQLite locally", "decisions");
    store.insert(&other).expect("insert");
    let mut clash = other.clone();
    clash.content = "use postgresql for storage".into();
    clash.content_hash = crate::content::content_hash(&clash.content);
    assert!(matches!(store.update(&clash, None), Err(StoreError::Duplicate { existing }) if existing == m.id));
    // Hard delete removes the row and its index entries.
    assert!(store.delete_hard(&m.id).expect("delete"));
    assert!(!store.delete_hard(&m.id).expect("delete again"));
    assert!(store.get(&m.id).expect("get").is_none());
    assert!(
        store
            .search_text(&terms(&["postgresql"]), &MemoryFilter::default(), 5)
            .expect("s")
            .is_empty()
    );
    assert!(
        store
            .list(&tagged, ListOrder::NewestFirst, None)
            .expect("list")
            .is_empty()
    );
}

#[test]
fn stats_count_by_dimension() {
    let (_dir, store) = store();
    store.insert(&mem("a", "decisions")).expect("insert");
    store.insert(&mem("b", "decisions")).expect("insert");
    let mut deleted = mem("c", "learnings");
    deleted.status = Status::Deleted;
    store.insert(&deleted).expect("insert");
    let stats = store.stats().expect("stats");
    assert_eq!(stats.total, 3);
    assert_eq!(stats.by_namespace.get("decisions"), Some(&2));
    assert_eq!(stats.by_namespace.get("learnings"), None);
    assert_eq!(stats.by_status.get("deleted"), Some(&1));
    assert_eq!(stats.by_tier.get("hot"), Some(&2));
    assert_eq!(stats.schema_version, latest_version());
    assert!(stats.size_bytes > 0);
    assert_eq!(store.namespaces().expect("ns"), vec!["decisions"]);
}

#[test]
fn concurrent_writers_from_threads_lose_nothing() {
    let (dir, _store) = store();
    let path = dir.path().join("sub/dir/subcog.db");
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                // Each thread opens its own connection, as separate processes would.
                let store = SqliteStore::open(&path, Duration::from_secs(10)).expect("open");
                for i in 0..50 {
                    store
                        .insert(&mem(&format!("thread {t} memory {i}"), "progress"))
                        .expect("insert");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
    let store = SqliteStore::open(&path, Duration::from_secs(5)).expect("open");
    assert_eq!(store.stats().expect("stats").total, 200);
}

#[test]
fn a_file_that_is_not_a_database_is_reported_corrupt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("subcog.db");
    std::fs::write(
        &path,
        b"this is not a sqlite database, just some bytes that fill a header page",
    )
    .expect("write");
    let err = SqliteStore::open(&path, Duration::from_secs(1)).expect_err("corrupt");
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
}

#[test]
fn meta_values_persist() {
    let (_dir, store) = store();
    assert_eq!(store.meta("project_root").expect("meta"), None);
    store.set_meta("project_root", "/src/app").expect("set");
    store.set_meta("project_root", "/src/app2").expect("set");
    assert_eq!(store.meta("project_root").expect("meta").as_deref(), Some("/src/app2"));
}

#[test]
fn ranking_is_exact_when_the_filter_drops_top_candidates() {
    let (_dir, store) = store();
    // Best matches repeat the term most; the best half are in another namespace.
    let mut expected = Vec::new();
    for i in 0..60 {
        let reps = 60 - i;
        let ns = if i % 2 == 0 { "learnings" } else { "decisions" };
        let m = mem(&format!("{} filler {i}", "kafka ".repeat(reps)), ns);
        if ns == "decisions" {
            expected.push(m.id);
        }
        store.insert(&m).expect("insert");
    }
    let filter = MemoryFilter {
        namespaces: vec![Namespace::parse("decisions").expect("ns")],
        ..Default::default()
    };
    for limit in [1, 5, 10, 25] {
        let got: Vec<MemoryId> = store
            .search_text(&terms(&["kafka"]), &filter, limit)
            .expect("search")
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(got, expected[..limit].to_vec(), "limit {limit}");
    }
    let unfiltered = store
        .search_text(&terms(&["kafka"]), &MemoryFilter::default(), 60)
        .expect("search");
    assert_eq!(unfiltered.len(), 60);
    assert!(unfiltered.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn update_keeps_activation_written_meanwhile_and_drops_stale_vectors() {
    let (_dir, store) = store();
    let model = crate::embed::EmbeddingModel {
        id: "test/2".into(),
        dim: 2,
    };
    let m = mem("Use MySQL for storage", "decisions");
    store
        .insert_many(
            std::slice::from_ref(&m),
            Some(super::super::Vectors {
                model: &model,
                vectors: &[vec![1.0, 0.0]],
            }),
            false,
        )
        .expect("insert");
    // Another process records an access after our read...
    store.touch(&[m.id], Utc::now()).expect("touch");
    // ...and our edit, based on the earlier read, must not undo it.
    let mut edited = m.clone();
    edited.content = "Use PostgreSQL for storage".into();
    edited.content_hash = crate::content::content_hash(&edited.content);
    assert!(store.update(&edited, None).expect("update"));
    let stored = store.get(&m.id).expect("get").expect("exists");
    assert_eq!(stored.activation_count, 1);
    assert_eq!(stored.content, "Use PostgreSQL for storage");
    // The vector of the old text is gone.
    assert_eq!(store.missing_embeddings(&model, 10).expect("missing").len(), 1);
    assert!(!store.update(&mem("never stored", "decisions"), None).expect("update"));
}

#[test]
fn activation_never_overflows() {
    let (_dir, store) = store();
    let mut m = mem("busy memory", "decisions");
    m.activation_count = i64::MAX as u64;
    store.insert(&m).expect("insert");
    store.touch(&[m.id], Utc::now()).expect("touch");
    assert_eq!(
        store.get(&m.id).expect("get").expect("exists").activation_count,
        i64::MAX as u64
    );
}

#[test]
fn the_vector_index_follows_writes_of_other_connections() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("subcog.db");
    let reader = SqliteStore::open(&path, Duration::from_secs(5)).expect("open");
    let writer = SqliteStore::open(&path, Duration::from_secs(5)).expect("open");
    let model = crate::embed::EmbeddingModel {
        id: "test/2".into(),
        dim: 2,
    };
    let (a, b) = (mem("alpha", "decisions"), mem("beta", "decisions"));
    writer.insert(&a).expect("insert");
    writer.insert(&b).expect("insert");
    writer.put_embeddings(&model, &[(a.id, vec![1.0, 0.0])]).expect("put");
    let nearest = |q: [f32; 2]| -> Vec<MemoryId> {
        reader
            .search_vector(&model, &q, &MemoryFilter::default(), 5)
            .expect("search")
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    assert_eq!(nearest([0.0, 1.0]), vec![a.id], "the cached index is loaded");
    // A vector added by the other connection is seen at once.
    writer.put_embeddings(&model, &[(b.id, vec![0.0, 1.0])]).expect("put");
    assert_eq!(nearest([0.0, 1.0]), vec![b.id, a.id]);
    // A replaced vector moves its memory.
    writer.put_embeddings(&model, &[(b.id, vec![1.0, 0.0])]).expect("put");
    let hits = reader
        .search_vector(&model, &[1.0, 0.0], &MemoryFilter::default(), 5)
        .expect("search");
    assert!(hits.iter().all(|h| (h.score - 1.0).abs() < 1e-6), "{hits:?}");
    // A vector removed by a cascade (hard delete) leaves the index.
    assert!(writer.delete_hard(&a.id).expect("delete"));
    assert_eq!(nearest([1.0, 0.0]), vec![b.id]);
    // get_many loads what exists and skips the rest.
    let got = reader.get_many(&[a.id, b.id]).expect("get_many");
    assert_eq!(got.iter().map(|m| m.id).collect::<Vec<_>>(), vec![b.id]);
    assert_eq!(got[0].content, "beta");
}

#[test]
fn a_kept_keyword_ranking_never_outlives_a_write_here_or_elsewhere() {
    // Limit 1 keeps every look on the fast path that a kept ranking can answer (fewer
    // results than the limit would fall back to a full query).
    let (dir, store) = store();
    let top = |s: &SqliteStore, filter: &MemoryFilter| {
        s.search_text(&terms(&["redis"]), filter, 1)
            .expect("search")
            .into_iter()
            .map(|h| h.id)
            .collect::<Vec<_>>()
    };
    let all = MemoryFilter::default();
    let first = mem("Redis keepalive for idle connections in the session store", "learnings");
    store.insert(&first).expect("insert");
    assert_eq!(top(&store, &all), vec![first.id]);
    // The same query again is answered from the kept ranking, with the same score.
    let scores = |s: &SqliteStore| -> Vec<f64> {
        s.search_text(&terms(&["redis"]), &all, 1)
            .expect("search")
            .iter()
            .map(|h| h.score)
            .collect()
    };
    assert_eq!(scores(&store), scores(&store));

    // A better match written through this connection...
    let second = mem("Redis: pin redis", "decisions");
    store.insert(&second).expect("insert");
    assert_eq!(top(&store, &all), vec![second.id], "a memory inserted here is found");

    // ...and one committed by another connection (another process would do the same).
    let other = SqliteStore::open(&dir.path().join("sub/dir/subcog.db"), Duration::from_secs(5)).expect("open");
    let third = mem("Redis redis redis", "learnings");
    other.insert(&third).expect("insert elsewhere");
    assert_eq!(
        top(&store, &all),
        vec![third.id],
        "a memory inserted elsewhere is found"
    );
    assert!(other.delete_hard(&third.id).expect("delete elsewhere"));
    assert_eq!(top(&store, &all), vec![second.id], "a memory deleted elsewhere is gone");

    // A filtered look after an unfiltered one (a recall's two looks) filters the kept rows.
    let learnings = MemoryFilter {
        namespaces: vec![Namespace::parse("learnings").expect("ns")],
        ..Default::default()
    };
    assert_eq!(
        top(&store, &learnings),
        vec![first.id],
        "the best learning, not the best memory"
    );
}
