//! The resident keyword index against FTS5 itself: two stores on one database file, one
//! searching through FTS5's `bm25()`, the other through the index, must rank alike —
//! before and after writes from either connection.

use super::*;
use crate::model::Namespace;
use crate::search::query_terms;
use chrono::Utc;

const WORDS: &[&str] = &[
    "service",
    "services",
    "serviced",
    "server",
    "serve",
    "deploy",
    "deployment",
    "deploys",
    "postgres",
    "postgresql",
    "cache",
    "caching",
    "cached",
    "retry",
    "retries",
    "queue",
    "queued",
    "worker",
    "workers",
    "ci",
    "cicd",
    "kubernetes",
    "redis",
    "billing",
    "orders",
    "órders",
    "naïve",
    "café",
    "2024",
    "v1",
    "30",
    "the",
    "a",
    "of",
    "upload",
    "race",
    "timezone",
    "flaky",
    "pool",
    "connections",
];

const QUESTIONS: &[&str] = &[
    "why did the orders service move to postgres",
    "retry policy for the billing worker",
    "ser",
    "de",
    "flaky upload race",
    "cafe naive",
    "café",
    "2024 v1",
    "kubernetes 30",
    "nothing matches zzzz",
    "queue workers caching connections pool",
    "Services deployed",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn text(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn memory(rng: &mut Rng, i: usize) -> Memory {
    let ns = if i.is_multiple_of(9) { "learnings" } else { "decisions" };
    let len = 3 + rng.below(if i.is_multiple_of(7) { 60 } else { 12 });
    let mut m = Memory::new(
        format!("{} (#{i})", rng.text(len)),
        Namespace::parse(ns).expect("ns"),
        Utc::now(),
    );
    if i.is_multiple_of(3) {
        m.summary = rng.text(4);
    }
    if i.is_multiple_of(4) {
        let tag = WORDS[rng.below(WORDS.len())];
        m.tags = if tag == "ci" {
            vec![tag.into()]
        } else {
            vec![tag.into(), "ci".into()]
        };
    }
    if i.is_multiple_of(5) {
        m.context = Some(rng.text(8));
    }
    m
}

/// Every hit of `terms` (the limit is above the corpus), by score then id.
fn all_hits(store: &SqliteStore, terms: &[String], filter: &MemoryFilter) -> Vec<(MemoryId, f64)> {
    let mut hits: Vec<(MemoryId, f64)> = store
        .search_text(terms, filter, 100_000)
        .expect("search")
        .into_iter()
        .map(|h| (h.id, h.score))
        .collect();
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    hits
}

fn assert_same_rankings(fts: &SqliteStore, resident: &SqliteStore, when: &str) {
    let learnings = MemoryFilter {
        namespaces: vec![Namespace::parse("learnings").expect("ns")],
        ..MemoryFilter::default()
    };
    let mut compared = 0;
    for q in QUESTIONS {
        let terms = query_terms(q);
        for filter in [MemoryFilter::default(), learnings.clone()] {
            let (a, b) = (all_hits(fts, &terms, &filter), all_hits(resident, &terms, &filter));
            assert_eq!(
                a.len(),
                b.len(),
                "{when}: {q:?} matched {} by FTS5, {} resident",
                a.len(),
                b.len()
            );
            for ((ia, sa), (ib, sb)) in a.iter().zip(&b) {
                assert_eq!(ia, ib, "{when}: {q:?} ranks differ");
                assert!(
                    (sa - sb).abs() <= 1e-9 * sa.abs().max(1.0),
                    "{when}: {q:?} score {sa} vs {sb}"
                );
            }
            compared += a.len();
            // A small limit: the same scores, in the same order, through the widening loop.
            let top = |s: &SqliteStore| -> Vec<f64> {
                s.search_text(&terms, &filter, 7)
                    .expect("search")
                    .iter()
                    .map(|h| h.score)
                    .collect()
            };
            let (ta, tb) = (top(fts), top(resident));
            assert_eq!(ta.len(), tb.len(), "{when}: {q:?} top 7");
            for (sa, sb) in ta.iter().zip(&tb) {
                assert!(
                    (sa - sb).abs() <= 1e-9 * sa.abs().max(1.0),
                    "{when}: {q:?} top score {sa} vs {sb}"
                );
            }
        }
    }
    assert!(compared > 500, "{when}: the corpus should match many rows ({compared})");
}

fn resident_count(store: &SqliteStore) -> usize {
    store
        .keywords
        .lock()
        .expect("lock")
        .as_ref()
        .map_or(0, |c| c.index.documents())
}

#[test]
fn the_resident_index_ranks_as_fts5_before_and_after_writes_from_either_connection() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("subcog.db");
    let fts = SqliteStore::open(&path, Duration::from_secs(5)).expect("open");
    let resident = SqliteStore::open(&path, Duration::from_secs(5)).expect("open");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let first: Vec<Memory> = (0..400).map(|i| memory(&mut rng, i)).collect();
    fts.insert_many(&first, None, false).expect("insert");
    resident.prepare_keywords().expect("build");
    assert!(resident.has_keyword_index() && !fts.has_keyword_index());
    assert_eq!(resident_count(&resident), 400);
    assert_same_rankings(&fts, &resident, "built");

    // Appends, edits and deletions, from the other connection and from its own.
    let more: Vec<Memory> = (400..460).map(|i| memory(&mut rng, i)).collect();
    fts.insert_many(&more, None, false).expect("insert");
    for (i, m) in first.iter().enumerate().take(40) {
        let mut edited = m.clone();
        edited.content = format!("{} (edited #{i})", rng.text(6));
        if i.is_multiple_of(2) {
            edited.tags = vec!["redis".into()];
        }
        let writer = if i.is_multiple_of(2) { &fts } else { &resident };
        assert!(writer.update(&edited, None).expect("update"));
    }
    for (i, m) in first.iter().enumerate().skip(100).take(20) {
        let writer = if i.is_multiple_of(2) { &fts } else { &resident };
        assert!(writer.delete_hard(&m.id).expect("delete"));
    }
    // A status change is not a text change: it leaves no log entry.
    let mut archived = first[300].clone();
    archived.status = crate::model::Status::Archived;
    fts.update(&archived, None).expect("archive");
    assert_same_rankings(&fts, &resident, "after writes");

    // Appends are folded into the base; rankings stay the same.
    resident
        .keywords
        .lock()
        .expect("lock")
        .as_mut()
        .expect("index")
        .index
        .compact();
    assert_same_rankings(&fts, &resident, "after compaction");

    // A log trimmed past what the index read: it rebuilds instead of missing an edit.
    let mut edited = first[200].clone();
    edited.content = "a brand new text about flaky uploads".into();
    fts.update(&edited, None).expect("update");
    let mut edited = first[201].clone();
    edited.content = "another new text about postgres".into();
    fts.update(&edited, None).expect("update");
    {
        let conn = fts.lock().expect("conn");
        let first_new: i64 = conn
            .query_row("SELECT max(id) - 1 FROM memories_text_log", [], |r| r.get(0))
            .expect("log");
        conn.execute("DELETE FROM memories_text_log WHERE id <= ?1", [first_new])
            .expect("trim");
    }
    assert_same_rankings(&fts, &resident, "after the log was trimmed");
    assert_eq!(resident_count(&resident), 440, "rebuilt: every live row once");
}

#[test]
fn the_weights_of_the_index_are_those_fts5_is_given() {
    let parsed: Vec<f64> = BM25_WEIGHTS
        .split(',')
        .map(|w| w.trim().parse().expect("number"))
        .collect();
    assert_eq!(parsed, BM25_WEIGHT_VALUES.to_vec());
}
