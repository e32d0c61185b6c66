//! The store conformance suite: every behaviour the [`Store`] trait promises, run against
//! SQLite (a real file) and, with the `postgres` feature, against a real PostgreSQL with
//! pgvector (`SUBCOG_TEST_DATABASE_URL`, started by `scripts/pg-test-server`). Both
//! backends must give the same answers, ranking included.

use chrono::{TimeZone, Utc};

use super::*;
use crate::model::{
    ConsolidationResult, EdgeType, MemoryEdge, MemorySummary, Namespace, Phase, Priority, Supersession,
    SupersessionKind, Tier, TierTransition,
};

/// Opens fresh, empty stores of one backend; every store of one opener shares a database.
pub(crate) trait Opener {
    /// A new empty store (a new scope of the same database where the backend has scopes).
    fn open(&self) -> Box<dyn Store>;
}

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 3, day, hour, 0, 0)
        .single()
        .expect("valid date")
}

fn mem(content: &str, ns: &str, day: u32) -> Memory {
    Memory::new(content, Namespace::parse(ns).expect("namespace"), at(day, 12))
}

fn terms(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn ids(hits: &[SearchHit]) -> Vec<MemoryId> {
    hits.iter().map(|h| h.id).collect()
}

fn model() -> EmbeddingModel {
    EmbeddingModel {
        id: "test/model".into(),
        dim: 4,
    }
}

fn unit(v: [f32; 4]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

/// Every field survives a write and a read.
pub(crate) fn round_trips_every_field(o: &dyn Opener) {
    let s = o.open();
    let mut m = mem("Use PostgreSQL for primary storage since 2 March 2024", "decisions", 5);
    m.tags = vec!["db".into(), "infra".into()];
    m.source = Some("ADR-7".into());
    m.importance = Some(0.75);
    m.priority = Priority::Critical;
    m.tier = Tier::Cold;
    m.retention.overall = 0.25;
    m.retention.importance = 0.5;
    m.activation_count = 3;
    m.last_accessed = Some(at(6, 1));
    m.superseded_by = Some(MemoryId::at(at(7, 1)));
    m.cluster_id = Some("cluster_1".into());
    m.context = Some("what was said around it".into());
    assert!(!m.time_refs.is_empty(), "the content names a date");
    assert_eq!(s.insert(&m).expect("insert"), InsertOutcome::Inserted(m.id));
    assert_eq!(s.get(&m.id).expect("get"), Some(m.clone()));
    assert_eq!(s.get_many(&[m.id, MemoryId::at(at(1, 1))]).expect("get_many"), vec![m]);
}

/// Duplicates by id and by live content are refused; other namespaces and domains are not.
pub(crate) fn refuses_duplicates(o: &dyn Opener) {
    let s = o.open();
    let a = mem("Use PostgreSQL", "decisions", 1);
    s.insert(&a).expect("insert");
    assert_eq!(s.insert(&a).expect("again"), InsertOutcome::DuplicateId(a.id));
    let same = mem("  use   postgresql ", "decisions", 2);
    assert_eq!(s.insert(&same).expect("dup"), InsertOutcome::DuplicateContent(a.id));
    let other_ns = mem("Use PostgreSQL", "learnings", 2);
    assert_eq!(s.insert(&other_ns).expect("ns"), InsertOutcome::Inserted(other_ns.id));
    let mut other_domain = mem("Use PostgreSQL", "decisions", 3);
    other_domain.domain = Domain::User;
    assert_eq!(
        s.insert(&other_domain).expect("domain"),
        InsertOutcome::Inserted(other_domain.id)
    );
    // A deleted memory's content may be captured again.
    let mut gone = a.clone();
    gone.status = Status::Deleted;
    assert!(s.update(&gone, None).expect("delete"));
    let again = mem("Use PostgreSQL", "decisions", 4);
    assert_eq!(s.insert(&again).expect("again"), InsertOutcome::Inserted(again.id));
    // An update onto another live memory's content is refused.
    let b = mem("Use MySQL", "decisions", 4);
    s.insert(&b).expect("b");
    let mut clash = b.clone();
    clash.content = again.content.clone();
    clash.content_hash = again.content_hash.clone();
    assert!(matches!(s.update(&clash, None), Err(StoreError::Duplicate { existing }) if existing == again.id));
}

/// A batch is all or nothing; a dry run and a failing before-commit step write nothing.
pub(crate) fn batches_are_atomic(o: &dyn Opener) {
    let s = o.open();
    let batch = vec![mem("one", "learnings", 1), mem("two", "learnings", 2)];
    let dry = s.insert_many(&batch, None, true).expect("dry run");
    assert_eq!(dry.len(), 2);
    assert!(s.get(&batch[0].id).expect("get").is_none(), "dry run wrote");
    let failed = s.insert_many_then(&batch, None, false, &mut |_| {
        Err(StoreError::Aborted {
            reason: "note failed".into(),
        })
    });
    assert!(failed.is_err());
    assert!(
        s.list(&MemoryFilter::default(), ListOrder::NewestFirst, None)
            .expect("list")
            .is_empty()
    );
    let vectors = vec![unit([1.0, 0.0, 0.0, 0.0]), unit([0.0, 1.0, 0.0, 0.0])];
    let m = model();
    let out = s
        .insert_many(
            &batch,
            Some(Vectors {
                model: &m,
                vectors: &vectors,
            }),
            false,
        )
        .expect("insert");
    assert_eq!(
        out,
        vec![
            InsertOutcome::Inserted(batch[0].id),
            InsertOutcome::Inserted(batch[1].id)
        ]
    );
    assert_eq!(s.vectors(&m).expect("vectors").len(), 2);
    // By id: only those asked for that have one, of this model.
    let stranger = Memory::new(
        "no such memory",
        Namespace::parse("learnings").expect("ns"),
        batch[0].created_at,
    );
    let of = s.vectors_of(&m, &[batch[1].id, stranger.id]).expect("vectors of");
    assert_eq!(of, vec![(batch[1].id, vectors[1].clone())]);
    let other = EmbeddingModel {
        id: "another-model".into(),
        dim: m.dim,
    };
    assert!(s.vectors_of(&other, &[batch[1].id]).expect("other model").is_empty());
    assert!(s.vectors_of(&m, &[]).expect("none asked").is_empty());
    // A failing step keeps the memory on delete and the old text on update.
    assert!(
        s.delete_hard_then(&batch[0].id, &mut || Err(StoreError::Aborted { reason: "x".into() }))
            .is_err()
    );
    assert!(s.get(&batch[0].id).expect("get").is_some());
    let mut edited = batch[0].clone();
    edited.content = "changed".into();
    assert!(
        s.update_then(&edited, None, &mut || Err(StoreError::Aborted { reason: "x".into() }))
            .is_err()
    );
    assert_eq!(s.get(&batch[0].id).expect("get").map(|m| m.content), Some("one".into()));
    assert!(s.delete_hard(&batch[0].id).expect("delete"));
    assert!(!s.delete_hard(&batch[0].id).expect("again"));
    assert_eq!(
        s.vectors(&m).expect("vectors").len(),
        1,
        "the vector went with the memory"
    );
}

/// Filters and orders of `list`.
pub(crate) fn lists_with_filters_and_orders(o: &dyn Opener) {
    let s = o.open();
    let mut a = mem("Alpha decision", "decisions", 1);
    a.tags = vec!["db".into(), "infra".into()];
    a.tier = Tier::Warm;
    a.retention.overall = 0.9;
    let mut b = mem("Beta learning", "learnings", 2);
    b.tags = vec!["db".into()];
    b.tier = Tier::Hot;
    b.retention.overall = 0.2;
    let mut c = mem("Gamma decision on 10 March 2024", "decisions", 20);
    c.tier = Tier::Hot;
    c.retention.overall = 0.5;
    let mut d = mem("Delta archived", "decisions", 3);
    d.status = Status::Archived;
    d.tier = Tier::Archived;
    let mut e = mem("Epsilon deleted", "decisions", 4);
    e.status = Status::Deleted;
    for m in [&a, &b, &c, &d, &e] {
        s.insert(m).expect("insert");
    }
    let list = |f: MemoryFilter, order: ListOrder| -> Vec<MemoryId> {
        s.list(&f, order, None).expect("list").iter().map(|m| m.id).collect()
    };
    assert_eq!(
        list(MemoryFilter::default(), ListOrder::NewestFirst),
        vec![c.id, d.id, b.id, a.id]
    );
    assert_eq!(
        list(MemoryFilter::default(), ListOrder::OldestFirst),
        vec![a.id, b.id, d.id, c.id]
    );
    assert_eq!(
        list(MemoryFilter::default(), ListOrder::Retention),
        vec![c.id, b.id, a.id, d.id]
    );
    let ns = MemoryFilter {
        namespaces: vec![Namespace::parse("learnings").expect("ns")],
        ..Default::default()
    };
    assert_eq!(list(ns, ListOrder::NewestFirst), vec![b.id]);
    let tags = MemoryFilter {
        tags: vec!["db".into(), "infra".into()],
        ..Default::default()
    };
    assert_eq!(list(tags, ListOrder::NewestFirst), vec![a.id]);
    let deleted = MemoryFilter {
        statuses: vec![Status::Deleted],
        ..Default::default()
    };
    assert_eq!(list(deleted, ListOrder::NewestFirst), vec![e.id]);
    let window = MemoryFilter {
        since: Some(at(2, 0)),
        until: Some(at(4, 0)),
        ..Default::default()
    };
    assert_eq!(list(window, ListOrder::NewestFirst), vec![d.id, b.id]);
    // Event time: c names 10 March although captured on the 20th; a was captured in the window.
    let happened = MemoryFilter {
        happened: Some((at(10, 0), at(11, 0))),
        ..Default::default()
    };
    assert_eq!(list(happened, ListOrder::NewestFirst), vec![c.id]);
    let happened_early = MemoryFilter {
        happened: Some((at(1, 0), at(2, 0))),
        ..Default::default()
    };
    assert_eq!(list(happened_early, ListOrder::NewestFirst), vec![a.id]);
    let tiers = MemoryFilter {
        tiers: vec![Tier::Hot],
        ..Default::default()
    };
    assert_eq!(list(tiers, ListOrder::NewestFirst), vec![c.id, b.id]);
    assert_eq!(
        s.list(&MemoryFilter::default(), ListOrder::NewestFirst, Some(2))
            .expect("list")
            .len(),
        2
    );
    assert_eq!(
        s.namespaces().expect("namespaces"),
        vec!["decisions".to_string(), "learnings".to_string()]
    );
    let stats = s.stats().expect("stats");
    assert_eq!(stats.total, 5);
    assert_eq!(stats.by_namespace.get("decisions"), Some(&3));
    assert_eq!(stats.by_status.get("deleted"), Some(&1));
    assert_eq!(s.tier_counts(Status::Active).expect("tiers").get("hot"), Some(&2));
    let short = a.id.to_string();
    let tail = short.get(short.len() - 8..).expect("suffix").to_ascii_lowercase();
    assert_eq!(s.ids_with_suffix(&tail, 5).expect("suffix"), vec![a.id]);
}

/// The keyword channel: BM25 with the same column weights, prefix matching, filters before
/// the top k, and the keyword statistics of prompt recall.
pub(crate) fn ranks_keywords_like_bm25(o: &dyn Opener) {
    let s = o.open();
    let docs = [
        "Redis caches the session tokens for the web app",
        "The deploy pipeline runs on GitHub Actions",
        "Redis also backs the rate limiter; Redis cluster mode is off",
        "Sessions expire after thirty minutes",
        "We deploy the web app twice a day",
    ];
    let mut ms: Vec<Memory> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| mem(d, "learnings", 1 + i as u32))
        .collect();
    ms[3].context = Some("redis was discussed".into());
    ms[4].tags = vec!["deploying".into()];
    for m in &ms {
        s.insert(m).expect("insert");
    }
    let hits = s
        .search_text(&terms(&["redis"]), &MemoryFilter::default(), 10)
        .expect("search");
    // Two mentions beat one; the content beats the context.
    assert_eq!(ids(&hits), vec![ms[2].id, ms[0].id, ms[3].id]);
    assert!(hits[0].score > hits[1].score && hits[1].score > hits[2].score);
    // Prefix and stem: "deploy" finds "deploy", "deploying" (a tag).
    let hits = s
        .search_text(&terms(&["deploy"]), &MemoryFilter::default(), 10)
        .expect("search");
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].id, ms[4].id, "content and tag beat content alone");
    let hits = s
        .search_text(&terms(&["sess"]), &MemoryFilter::default(), 10)
        .expect("prefix");
    assert_eq!(hits.len(), 2);
    let only_early = MemoryFilter {
        until: Some(at(2, 0)),
        ..Default::default()
    };
    assert_eq!(
        ids(&s.search_text(&terms(&["redis"]), &only_early, 1).expect("filtered")),
        vec![ms[0].id]
    );
    assert!(
        s.search_text(&terms(&["nothingmatches"]), &MemoryFilter::default(), 5)
            .expect("none")
            .is_empty()
    );
    let stats = s
        .term_stats(&terms(&["redis", "deploy", "absent"]), &[ms[0].id, ms[4].id])
        .expect("stats");
    assert_eq!(stats.docs, 5);
    assert_eq!(stats.df, vec![3, 2, 0]);
    assert_eq!(stats.present.get(&ms[0].id), Some(&0b01));
    assert_eq!(stats.present.get(&ms[4].id), Some(&0b10));
}

/// Filters apply before the top k even when every best-ranked match is filtered out.
pub(crate) fn filters_beyond_the_best_candidates(o: &dyn Opener) {
    let s = o.open();
    for i in 0..40 {
        s.insert(&mem(&format!("kafka kafka kafka topic {i}"), "learnings", 1))
            .expect("strong");
    }
    let weak = mem(
        "a long note that mentions kafka once among many other words about queues and consumers",
        "decisions",
        2,
    );
    s.insert(&weak).expect("weak");
    let only_decisions = MemoryFilter {
        namespaces: vec![Namespace::parse("decisions").expect("ns")],
        ..Default::default()
    };
    assert_eq!(
        ids(&s.search_text(&terms(&["kafka"]), &only_decisions, 1).expect("text")),
        vec![weak.id]
    );
    let m = model();
    let mut items: Vec<(MemoryId, Vec<f32>)> = Vec::new();
    for x in s
        .list(&MemoryFilter::default(), ListOrder::OldestFirst, None)
        .expect("list")
    {
        let v = if x.id == weak.id {
            unit([0.0, 1.0, 0.0, 0.0])
        } else {
            unit([1.0, 0.0, 0.0, 0.0])
        };
        items.push((x.id, v));
    }
    s.put_embeddings(&m, &items).expect("vectors");
    let near_strong = unit([1.0, 0.01, 0.0, 0.0]);
    assert_eq!(
        ids(&s.search_vector(&m, &near_strong, &only_decisions, 1).expect("vector")),
        vec![weak.id]
    );
}

/// The vector channel: cosine order, filters before the top k, models kept apart.
pub(crate) fn ranks_vectors_by_cosine(o: &dyn Opener) {
    let s = o.open();
    let m = model();
    let ms: Vec<Memory> = (0..6)
        .map(|i| mem(&format!("memory number {i}"), "learnings", 1 + i))
        .collect();
    let vectors = [
        [1.0, 0.0, 0.0, 0.0],
        [0.9, 0.1, 0.0, 0.0],
        [0.5, 0.5, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.7, 0.0, 0.7, 0.0],
    ];
    for x in &ms {
        s.insert(x).expect("insert");
    }
    let items: Vec<(MemoryId, Vec<f32>)> = ms.iter().zip(vectors).map(|(x, v)| (x.id, unit(v))).collect();
    assert_eq!(s.put_embeddings(&m, &items).expect("put"), 6);
    let q = unit([1.0, 0.05, 0.0, 0.0]);
    let hits = s.search_vector(&m, &q, &MemoryFilter::default(), 3).expect("search");
    assert_eq!(ids(&hits), vec![ms[0].id, ms[1].id, ms[2].id]);
    assert!((hits[0].score - 0.9988).abs() < 1e-3, "cosine, got {}", hits[0].score);
    let late = MemoryFilter {
        since: Some(at(3, 0)),
        ..Default::default()
    };
    assert_eq!(
        ids(&s.search_vector(&m, &q, &late, 2).expect("filtered")),
        vec![ms[2].id, ms[5].id]
    );
    let other = EmbeddingModel {
        id: "other".into(),
        dim: 4,
    };
    assert!(
        s.search_vector(&other, &q, &MemoryFilter::default(), 3)
            .expect("other")
            .is_empty()
    );
    s.put_embeddings(&other, &items[..1]).expect("other put");
    assert_eq!(s.embedding_counts().expect("counts").len(), 2);
    assert_eq!(s.missing_embeddings(&other, 10).expect("missing").len(), 5);
    assert_eq!(s.drop_other_embeddings(&m).expect("drop"), 1);
    assert_eq!(s.embedding_counts().expect("counts").len(), 1);
    // New content drops the old vector.
    let mut edited = ms[0].clone();
    edited.content = "something else".into();
    edited.summary = "something else".into();
    edited.content_hash = crate::content::content_hash(&edited.content);
    assert!(s.update(&edited, None).expect("update"));
    assert_eq!(s.missing_embeddings(&m, 10).expect("missing").len(), 1);
    // The keyword index follows the new text.
    assert_eq!(
        ids(&s
            .search_text(&terms(&["something"]), &MemoryFilter::default(), 5)
            .expect("new")),
        vec![edited.id]
    );
    let old_words = s
        .search_text(&terms(&["number"]), &MemoryFilter::default(), 10)
        .expect("old");
    assert!(!ids(&old_words).contains(&edited.id) && old_words.len() == 5);
}

/// The time channel: captures and dated references in the window, nearest the middle first.
pub(crate) fn ranks_by_time(o: &dyn Opener) {
    let s = o.open();
    let a = mem("captured on the 9th", "learnings", 9);
    let b = mem("captured on the 14th", "learnings", 14);
    let c = mem("the launch on 10 March 2024 went well", "learnings", 25);
    let d = mem("captured much later", "learnings", 28);
    for m in [&a, &b, &c, &d] {
        s.insert(m).expect("insert");
    }
    let hits = s
        .search_time(at(8, 0), at(13, 0), &MemoryFilter::default(), 10)
        .expect("time");
    assert_eq!(ids(&hits), vec![c.id, a.id]);
    assert!(hits[0].score > hits[1].score && hits[1].score > 0.0);
}

/// Recall counts, edits that keep enrichment, rebuilds from notes.
pub(crate) fn keeps_activation_and_enrichment(o: &dyn Opener) {
    let s = o.open();
    let m = mem("Use Kafka for events", "decisions", 1);
    s.insert(&m).expect("insert");
    s.touch(&[m.id], at(2, 0)).expect("touch");
    s.touch(&[m.id], at(3, 0)).expect("touch");
    let stored = s.get(&m.id).expect("get").expect("stored");
    assert_eq!(stored.activation_count, 2);
    assert_eq!(stored.last_accessed, Some(at(3, 0)));
    // An edit from a copy read before the touches keeps them.
    let mut edited = m.clone();
    edited.tags = vec!["events".into()];
    assert!(s.update(&edited, None).expect("update"));
    let stored = s.get(&m.id).expect("get").expect("stored");
    assert_eq!(
        (stored.activation_count, stored.tags.clone()),
        (2, vec!["events".to_string()])
    );
    // A rebuild keeps the larger count and reports what it did.
    let mut from_notes = stored.clone();
    from_notes.activation_count = 1;
    from_notes.summary = "changed in the note".into();
    from_notes.updated_at = at(4, 0);
    let fresh = mem("Only in the notes", "decisions", 5);
    let out = s
        .put_records(&[from_notes.clone(), fresh.clone(), fresh.clone()])
        .expect("put");
    assert_eq!(
        out,
        vec![PutOutcome::Replaced, PutOutcome::Inserted, PutOutcome::Unchanged]
    );
    let stored = s.get(&m.id).expect("get").expect("stored");
    assert_eq!(
        (stored.activation_count, stored.summary.as_str()),
        (2, "changed in the note")
    );
}

/// A consolidation run's writes, and what reads them back.
pub(crate) fn applies_consolidation(o: &dyn Opener) {
    let s = o.open();
    let old = mem("Use Jenkins for CI", "decisions", 1);
    let new = mem("Moved CI from Jenkins to GitHub Actions", "decisions", 2);
    s.insert(&old).expect("old");
    s.insert(&new).expect("new");
    let mut enriched = old.clone();
    enriched.tier = Tier::Archived;
    enriched.superseded_by = Some(new.id);
    enriched.cluster_id = Some("c1".into());
    let mut edit = new.clone();
    edit.tags = vec!["ci".into()];
    let mut stale_edit = old.clone();
    stale_edit.summary = "should not land".into();
    let summary = MemorySummary {
        id: "sum1".into(),
        cluster_id: "c1".into(),
        namespace: "decisions".into(),
        title: "CI".into(),
        summary: "CI moved.".into(),
        key_facts: vec!["GitHub Actions".into()],
        decisions: Vec::new(),
        superseded_facts: Vec::new(),
        source_ids: vec![old.id.to_string(), new.id.to_string()],
        start: at(1, 12),
        end: at(2, 12),
        confidence: 0.8,
        method: "extractive".into(),
        tier: Tier::Warm,
        run_id: "run1".into(),
        created_at: at(3, 0),
        updated_at: at(3, 0),
    };
    let write = ConsolidationWrite {
        enrichment: vec![enriched],
        edits: vec![(edit, new.updated_at), (stale_edit, at(1, 1))],
        summaries: vec![summary.clone()],
        edge_sources: vec![new.id.to_string()],
        edges: vec![MemoryEdge {
            source_id: new.id.to_string(),
            target_id: old.id.to_string(),
            edge_type: EdgeType::Supersedes,
            weight: 0.9,
            reason: "replaced".into(),
            run_id: "run1".into(),
        }],
        supersession_scope: vec![old.id.to_string()],
        supersessions: vec![Supersession {
            superseder_id: new.id.to_string(),
            superseded_id: old.id.to_string(),
            kind: SupersessionKind::Full,
            confidence: 0.95,
            reason: "rule".into(),
            method: "offline".into(),
        }],
        transitions: vec![TierTransition {
            memory_id: old.id.to_string(),
            from_tier: Tier::Hot,
            to_tier: Tier::Archived,
            reason: "superseded".into(),
            retention_score: 0.1,
        }],
        ..Default::default()
    };
    let result = ConsolidationResult {
        completed_at: Some(at(3, 1)),
        phase: Phase::Completed,
        ..run("run1", at(3, 0))
    };
    assert_eq!(
        s.apply_consolidation(&write, &result, &mut || Ok(())).expect("apply"),
        1
    );
    let stored_old = s.get(&old.id).expect("get").expect("old");
    assert_eq!(
        (stored_old.tier, stored_old.superseded_by),
        (Tier::Archived, Some(new.id))
    );
    assert_eq!(stored_old.summary, old.summary, "a stale edit is skipped");
    assert_eq!(s.get(&new.id).expect("get").expect("new").tags, vec!["ci".to_string()]);
    assert_eq!(s.summaries().expect("summaries"), vec![summary]);
    assert_eq!(s.edges(Some(&old.id.to_string())).expect("edges").len(), 1);
    assert_eq!(s.supersessions().expect("supersessions").len(), 1);
    let transitions = s.transitions(10).expect("transitions");
    assert_eq!((transitions.len(), transitions[0].run_id.as_str()), (1, "run1"));
    // One memory's history holds its own changes only.
    let of_old = s.transitions_of(&old.id.to_string(), 10).expect("transitions of");
    assert_eq!(of_old.len(), 1);
    assert_eq!(of_old[0].transition.to_tier, Tier::Archived);
    assert!(
        s.transitions_of(&new.id.to_string(), 10)
            .expect("transitions of")
            .is_empty()
    );
    assert_eq!(s.runs(5).expect("runs")[0].run_id, "run1");
    // A checkpoint with a plan is an unfinished run until it completes.
    let pending = run("run2", at(4, 0));
    s.save_run(&pending, Some("{\"plan\":1}")).expect("checkpoint");
    let (run, plan) = s.unfinished_run().expect("unfinished").expect("one");
    assert_eq!((run.run_id.as_str(), plan.as_str()), ("run2", "{\"plan\":1}"));
    // A failing before-commit step writes nothing of the run.
    let mut again = write.clone();
    again.summaries[0].id = "sum2".into();
    let run3 = ConsolidationResult {
        run_id: "run3".into(),
        ..result.clone()
    };
    assert!(
        s.apply_consolidation(&again, &run3, &mut || Err(StoreError::Aborted { reason: "x".into() }))
            .is_err()
    );
    assert_eq!(s.summaries().expect("summaries").len(), 1);
    // Deleting a memory removes its edges and supersessions.
    assert!(s.delete_hard(&old.id).expect("delete"));
    assert!(s.edges(None).expect("edges").is_empty());
    assert!(s.supersessions().expect("supersessions").is_empty());
}

pub(crate) fn run(id: &str, started_at: DateTime<Utc>) -> ConsolidationResult {
    ConsolidationResult {
        run_id: id.into(),
        trigger: "manual".into(),
        scope: "project".into(),
        started_at,
        completed_at: None,
        phase: Phase::Scan,
        dry_run: false,
        full: false,
        memories_processed: 0,
        clusters_found: 0,
        summaries_created: 0,
        supersessions_detected: 0,
        edges: 0,
        tier_transitions: Vec::new(),
        actions: Vec::new(),
        memories_changed: 0,
        errors: Vec::new(),
        stage_ms: Vec::new(),
        llm: None,
    }
}

/// Concurrent writers (threads sharing one store) lose nothing and never duplicate content.
pub(crate) fn concurrent_writers_lose_nothing(o: &dyn Opener) {
    let s = o.open();
    let s: &dyn Store = s.as_ref();
    std::thread::scope(|scope| {
        for t in 0..4 {
            scope.spawn(move || {
                for i in 0..15 {
                    let m = mem(&format!("writer {t} memory {i}"), "learnings", 1);
                    assert!(matches!(s.insert(&m).expect("insert"), InsertOutcome::Inserted(_)));
                    // Every writer also tries one shared text: exactly one copy survives.
                    let shared = mem("the shared text", "learnings", 1);
                    s.insert(&shared).expect("shared");
                }
            });
        }
    });
    assert_eq!(s.stats().expect("stats").total, 61);
    assert_eq!(s.purge().expect("purge"), 61);
    assert_eq!(s.stats().expect("stats").total, 0);
    assert!(
        s.search_text(&terms(&["writer"]), &MemoryFilter::default(), 5)
            .expect("text")
            .is_empty()
    );
}

/// Runs every conformance check against one backend.
macro_rules! conformance_tests {
    ($opener:expr) => {
        #[test]
        fn round_trips_every_field() {
            $crate::store::conformance::round_trips_every_field(&$opener);
        }
        #[test]
        fn refuses_duplicates() {
            $crate::store::conformance::refuses_duplicates(&$opener);
        }
        #[test]
        fn batches_are_atomic() {
            $crate::store::conformance::batches_are_atomic(&$opener);
        }
        #[test]
        fn lists_with_filters_and_orders() {
            $crate::store::conformance::lists_with_filters_and_orders(&$opener);
        }
        #[test]
        fn ranks_keywords_like_bm25() {
            $crate::store::conformance::ranks_keywords_like_bm25(&$opener);
        }
        #[test]
        fn filters_beyond_the_best_candidates() {
            $crate::store::conformance::filters_beyond_the_best_candidates(&$opener);
        }
        #[test]
        fn ranks_vectors_by_cosine() {
            $crate::store::conformance::ranks_vectors_by_cosine(&$opener);
        }
        #[test]
        fn ranks_by_time() {
            $crate::store::conformance::ranks_by_time(&$opener);
        }
        #[test]
        fn keeps_activation_and_enrichment() {
            $crate::store::conformance::keeps_activation_and_enrichment(&$opener);
        }
        #[test]
        fn applies_consolidation() {
            $crate::store::conformance::applies_consolidation(&$opener);
        }
        #[test]
        fn concurrent_writers_lose_nothing() {
            $crate::store::conformance::concurrent_writers_lose_nothing(&$opener);
        }
    };
}

/// SQLite: a fresh file per store; with `resident`, as a long-lived process uses it (the
/// in-memory keyword index built at open, on an empty store, so every row the suite writes
/// reaches keyword search through its refresh).
struct SqliteFiles {
    dirs: std::sync::Mutex<Vec<tempfile::TempDir>>,
    resident: bool,
}

impl Opener for SqliteFiles {
    fn open(&self) -> Box<dyn Store> {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = super::sqlite::SqliteStore::open(&dir.path().join("subcog.db"), std::time::Duration::from_secs(10))
            .expect("open sqlite");
        if self.resident {
            store.prepare_keywords().expect("keyword index");
        }
        self.dirs.lock().expect("lock").push(dir);
        Box::new(store)
    }
}

mod sqlite {
    use super::*;

    conformance_tests!(SqliteFiles {
        dirs: std::sync::Mutex::new(Vec::new()),
        resident: false,
    });
}

mod sqlite_resident {
    use super::*;

    conformance_tests!(SqliteFiles {
        dirs: std::sync::Mutex::new(Vec::new()),
        resident: true,
    });
}

/// PostgreSQL: a fresh scope per store in the database of `SUBCOG_TEST_DATABASE_URL`.
#[cfg(feature = "postgres")]
pub(crate) mod postgres {
    use super::*;
    use crate::store::postgres::{PgOptions, PgStore};

    /// The test database; its absence fails the test (CI starts one with scripts/pg-test-server).
    pub(crate) fn url() -> String {
        match std::env::var("SUBCOG_TEST_DATABASE_URL") {
            Ok(url) if !url.is_empty() => url,
            _ => panic!(
                "SUBCOG_TEST_DATABASE_URL is not set: the postgres tests need a server \
                 (scripts/pg-test-server start DIR prints its URL)"
            ),
        }
    }

    /// A scope no other test uses.
    pub(crate) fn fresh_scope() -> String {
        format!("test:{}", ulid::Ulid::generate())
    }

    /// Fresh scopes; with `resident`, as a long-lived process uses them (the keyword index
    /// built on the empty scope, so every row the suite writes reaches it through the log).
    pub(crate) struct Scopes {
        pub resident: bool,
    }

    impl Opener for Scopes {
        fn open(&self) -> Box<dyn Store> {
            let store = PgStore::open(&url(), &fresh_scope(), &PgOptions::default()).expect("open postgres");
            if self.resident {
                store.prepare_keywords().expect("keyword index");
            }
            Box::new(store)
        }
    }

    conformance_tests!(Scopes { resident: false });

    mod resident {
        use super::*;

        conformance_tests!(Scopes { resident: true });
    }

    #[test]
    fn one_scope_never_reads_another() {
        let url = url();
        let a = PgStore::open(&url, &fresh_scope(), &PgOptions::default()).expect("a");
        let b = PgStore::open(&url, &fresh_scope(), &PgOptions::default()).expect("b");
        let m = mem("Project A uses Redis for sessions", "decisions", 1);
        a.insert(&m).expect("insert");
        a.put_embeddings(&model(), &[(m.id, unit([1.0, 0.0, 0.0, 0.0]))])
            .expect("vector");
        assert!(b.get(&m.id).expect("get").is_none());
        assert!(
            b.list(&MemoryFilter::default(), ListOrder::NewestFirst, None)
                .expect("list")
                .is_empty()
        );
        assert!(
            b.search_text(&terms(&["redis"]), &MemoryFilter::default(), 5)
                .expect("text")
                .is_empty()
        );
        assert!(
            b.search_vector(&model(), &unit([1.0, 0.0, 0.0, 0.0]), &MemoryFilter::default(), 5)
                .expect("vec")
                .is_empty()
        );
        assert!(
            b.search_time(at(1, 0), at(2, 0), &MemoryFilter::default(), 5)
                .expect("time")
                .is_empty()
        );
        assert_eq!(b.stats().expect("stats").total, 0);
        assert!(!b.delete_hard(&m.id).expect("delete"));
        // The same id may live in both scopes (two projects importing one export).
        assert_eq!(b.insert(&m).expect("insert b"), InsertOutcome::Inserted(m.id));
        assert_eq!(a.stats().expect("stats").total, 1);
    }

    #[test]
    fn a_missing_server_is_a_clear_error() {
        let options = PgOptions {
            connect_timeout: std::time::Duration::from_secs(2),
            ..Default::default()
        };
        let err = PgStore::open("postgres://nobody:secret@127.0.0.1:1/none", "x", &options).expect_err("no server");
        let text = err.to_string();
        assert!(text.contains("cannot connect"), "{text}");
        assert!(!text.contains("secret"), "the password leaked: {text}");
    }

    #[test]
    fn the_run_lock_keeps_two_processes_apart() {
        let url = url();
        let scope = fresh_scope();
        let a = PgStore::open(&url, &scope, &PgOptions::default()).expect("a");
        let b = PgStore::open(&url, &scope, &PgOptions::default()).expect("b");
        let held = a.try_lock_runs().expect("lock").expect("free");
        assert!(b.try_lock_runs().expect("try").is_none(), "a second holder");
        drop(held);
        assert!(b.try_lock_runs().expect("try").is_some(), "released on drop");
    }
}
