//! The resident keyword index against the SQL path on a real PostgreSQL: three stores on
//! one scope (a resident reader, a SQL reader, a writer standing for another machine)
//! must rank alike before and after inserts, edits and deletions, after a transaction
//! that commits late, and after the log was trimmed past the reader.

use chrono::Utc;

use super::*;
use crate::model::Namespace;
use crate::search::query_terms;
use crate::store::conformance::postgres::{fresh_scope, url};

const WORDS: &[&str] = &[
    "service",
    "services",
    "serviced",
    "server",
    "deploy",
    "deployment",
    "deploys",
    "postgres",
    "postgresql",
    "cache",
    "caching",
    "retry",
    "retries",
    "queue",
    "worker",
    "workers",
    "ci",
    "kubernetes",
    "redis",
    "billing",
    "orders",
    "órders",
    "café",
    "2024",
    "v1",
    "30",
    "the",
    "of",
    "upload",
    "race",
    "flaky",
    "pool",
];

const QUESTIONS: &[&str] = &[
    "why did the orders service move to postgres",
    "retry policy for the billing worker",
    "ser",
    "flaky upload race",
    "café",
    "2024 v1",
    "nothing matches zzzz",
    "queue workers caching pool",
    "Services deployed",
    "zebra",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn text(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| WORDS[(self.next() % WORDS.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn memory(rng: &mut Rng, i: usize) -> Memory {
    let ns = if i.is_multiple_of(9) { "learnings" } else { "decisions" };
    let len = 3 + (rng.next() % if i.is_multiple_of(7) { 50 } else { 10 }) as usize;
    let mut m = Memory::new(
        format!("{} (#{i})", rng.text(len)),
        Namespace::parse(ns).expect("ns"),
        Utc::now(),
    );
    if i.is_multiple_of(3) {
        m.summary = rng.text(4);
    }
    if i.is_multiple_of(4) {
        m.tags = vec!["ci".into()];
    }
    if i.is_multiple_of(5) {
        m.context = Some(rng.text(6));
    }
    m
}

/// Every hit (the limit is above the corpus), by score (to nine digits: the two paths add
/// in different orders) then id.
fn all_hits(store: &PgStore, terms: &[String], filter: &MemoryFilter) -> Vec<(f64, MemoryId)> {
    let mut hits: Vec<(f64, MemoryId)> = store
        .search_text(terms, filter, 100_000)
        .expect("search")
        .into_iter()
        .map(|h| (h.score, h.id))
        .collect();
    let key = |s: f64| (s * 1e9).round();
    hits.sort_by(|a, b| key(b.0).total_cmp(&key(a.0)).then(a.1.cmp(&b.1)));
    hits
}

fn assert_same_rankings(sql: &PgStore, resident: &PgStore, when: &str) -> usize {
    let learnings = MemoryFilter {
        namespaces: vec![Namespace::parse("learnings").expect("ns")],
        ..MemoryFilter::default()
    };
    let mut compared = 0;
    for q in QUESTIONS {
        let terms = query_terms(q);
        for filter in [MemoryFilter::default(), learnings.clone()] {
            let (a, b) = (all_hits(sql, &terms, &filter), all_hits(resident, &terms, &filter));
            assert_eq!(
                a.len(),
                b.len(),
                "{when}: {q:?} matched {} by SQL, {} resident",
                a.len(),
                b.len()
            );
            for ((sa, ia), (sb, ib)) in a.iter().zip(&b) {
                assert_eq!(ia, ib, "{when}: {q:?} ranks differ");
                assert!(
                    (sa - sb).abs() <= 1e-9 * sa.abs().max(1.0),
                    "{when}: {q:?} score {sa} vs {sb}"
                );
            }
            compared += a.len();
            // A small limit goes through the chunked filter: the same scores in the same order.
            let top = |s: &PgStore| -> Vec<f64> {
                s.search_text(&terms, &filter, 7)
                    .expect("search")
                    .iter()
                    .map(|h| h.score)
                    .collect()
            };
            let (ta, tb) = (top(sql), top(resident));
            assert_eq!(ta.len(), tb.len(), "{when}: {q:?} top 7");
            for (sa, sb) in ta.iter().zip(&tb) {
                assert!(
                    (sa - sb).abs() <= 1e-9 * sa.abs().max(1.0),
                    "{when}: {q:?} top score {sa} vs {sb}"
                );
            }
        }
    }
    compared
}

fn resident_count(store: &PgStore) -> Option<usize> {
    store
        .keywords
        .lock()
        .expect("lock")
        .as_ref()
        .map(keywords::Resident::documents)
}

#[test]
fn the_resident_index_ranks_as_the_sql_path_across_writers_late_commits_and_a_trimmed_log() {
    let (url, scope) = (url(), fresh_scope());
    let open = || PgStore::open(&url, &scope, &PgOptions::default()).expect("open");
    let (sql, resident, writer) = (open(), open(), open());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let first: Vec<Memory> = (0..300).map(|i| memory(&mut rng, i)).collect();
    writer.insert_many(&first, None, false).expect("insert");
    resident.prepare_keywords().expect("build");
    assert_eq!(resident_count(&resident), Some(300));
    assert_eq!(resident_count(&sql), None, "only prepare_keywords builds the index");
    assert!(
        assert_same_rankings(&sql, &resident, "built") > 300,
        "the corpus should match many rows"
    );

    // Another machine writes: appends, edits, deletions.
    let more: Vec<Memory> = (300..360).map(|i| memory(&mut rng, i)).collect();
    writer.insert_many(&more, None, false).expect("insert");
    for (i, m) in first.iter().enumerate().take(30) {
        let mut edited = m.clone();
        edited.content = format!("{} (edited #{i})", rng.text(6));
        assert!(writer.update(&edited, None).expect("update"));
    }
    for m in first.iter().skip(100).take(20) {
        assert!(writer.delete_hard(&m.id).expect("delete"));
    }
    assert_same_rankings(&sql, &resident, "after another machine's writes");

    // A transaction that started before a later write commits after the reader looked:
    // its change must still reach the index.
    let mut late = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    let mut tx = late.transaction().expect("begin");
    // The transaction takes its id now, before the other machine's write...
    tx.query_one("SELECT pg_current_xact_id()", &[]).expect("xid");
    writer
        .insert(&memory(&mut rng, 999))
        .expect("insert while the other runs");
    assert_same_rankings(&sql, &resident, "while a transaction runs");
    // ...and logs its change, under that older id, after the reader looked.
    tx.execute(
        "UPDATE subcog_memories SET tsv = to_tsvector('subcog', 'zebra crossing'), doclen = 2
          WHERE scope = $1 AND id = $2",
        &[&scope, &first[50].id.to_string()],
    )
    .expect("late update");
    tx.commit().expect("commit late");
    assert_eq!(
        all_hits(&resident, &query_terms("zebra"), &MemoryFilter::default()).len(),
        1
    );
    assert_same_rankings(&sql, &resident, "after the late commit");

    // The log trimmed past the reader's horizon: it rebuilds instead of missing an edit.
    let mut edited = first[200].clone();
    edited.content = "a brand new text about flaky uploads".into();
    writer.update(&edited, None).expect("update");
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    keywords::trim(&mut c, &scope, "0 seconds").expect("trim");
    let left: i64 = c
        .query_one("SELECT count(*) FROM subcog_terms_log WHERE scope = $1", &[&scope])
        .and_then(|r| r.try_get(0))
        .expect("count");
    assert_eq!(left, 0, "every entry was older than nothing");
    assert_same_rankings(&sql, &resident, "after the log was trimmed");
    assert_eq!(resident_count(&resident), Some(341), "rebuilt: every live memory once");
    writer.purge().expect("purge");
}
