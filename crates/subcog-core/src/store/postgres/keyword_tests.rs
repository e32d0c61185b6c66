//! The resident keyword index against the SQL path on a real PostgreSQL: three stores on
//! one scope (a resident reader, a SQL reader, a writer standing for another machine)
//! must rank alike before and after inserts, edits and deletions, after a transaction
//! that commits late, and after the log was trimmed past the reader.

use super::*;
use crate::search::query_terms;
use crate::store::conformance::postgres::{fresh_scope, url};
use crate::store::ranking_tests::{Rng, all_hits, assert_same_rankings, memory};

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
