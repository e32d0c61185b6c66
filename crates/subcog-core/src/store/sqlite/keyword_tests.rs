//! The resident keyword index against FTS5 itself: two stores on one database file, one
//! searching through FTS5's `bm25()`, the other through the index, must rank alike —
//! before and after writes from either connection (corpus and check in
//! `store/ranking_tests.rs`).

use super::*;
use crate::store::ranking_tests::{Rng, assert_same_rankings, memory};

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
    assert!(
        assert_same_rankings(&fts, &resident, "built") > 500,
        "the corpus should match many rows"
    );

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
