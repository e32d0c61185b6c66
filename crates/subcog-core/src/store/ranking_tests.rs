//! What the resident keyword indexes of both backends are tested with: a corpus of
//! memories built from a small vocabulary (stems, prefixes, diacritics, numbers,
//! stopwords), questions over it, and the check that two stores rank alike.

use chrono::Utc;

use super::{MemoryFilter, Store};
use crate::model::{Memory, MemoryId, Namespace};
use crate::search::query_terms;

pub(crate) const WORDS: &[&str] = &[
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

pub(crate) const QUESTIONS: &[&str] = &[
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

/// A small deterministic generator (xorshift).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn text(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| WORDS[self.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Memory `i` of the corpus: some in another namespace, some long, some with a summary,
/// tags or context.
pub(crate) fn memory(rng: &mut Rng, i: usize) -> Memory {
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

/// Every hit of `terms` (the limit is above the corpus), by score (to nine digits: the
/// paths add in different orders) then id.
pub(crate) fn all_hits(store: &dyn Store, terms: &[String], filter: &MemoryFilter) -> Vec<(MemoryId, f64)> {
    let mut hits: Vec<(MemoryId, f64)> = store
        .search_text(terms, filter, 100_000)
        .expect("search")
        .into_iter()
        .map(|h| (h.id, h.score))
        .collect();
    let key = |s: f64| (s * 1e9).round();
    hits.sort_by(|a, b| key(b.1).total_cmp(&key(a.1)).then(a.0.cmp(&b.0)));
    hits
}

/// Asserts that both stores rank every question alike, unfiltered and filtered, in full
/// and at a small limit; returns how many hits were compared.
pub(crate) fn assert_same_rankings(reference: &dyn Store, resident: &dyn Store, when: &str) -> usize {
    let learnings = MemoryFilter {
        namespaces: vec![Namespace::parse("learnings").expect("ns")],
        ..MemoryFilter::default()
    };
    let mut compared = 0;
    for q in QUESTIONS {
        let terms = query_terms(q);
        for filter in [MemoryFilter::default(), learnings.clone()] {
            let (a, b) = (
                all_hits(reference, &terms, &filter),
                all_hits(resident, &terms, &filter),
            );
            assert_eq!(
                a.len(),
                b.len(),
                "{when}: {q:?} matched {} by the reference, {} resident",
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
            // A small limit goes through the filter of the best few: the same scores, in order.
            let top = |s: &dyn Store| -> Vec<f64> {
                s.search_text(&terms, &filter, 7)
                    .expect("search")
                    .iter()
                    .map(|h| h.score)
                    .collect()
            };
            let (ta, tb) = (top(reference), top(resident));
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
