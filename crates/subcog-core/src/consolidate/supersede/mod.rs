//! Stage 4 without an LLM: does a newer memory replace an older one?
//!
//! A memory replaces another about **its own subject**: each memory is compared only with
//! its closest older memories of the same namespace and domain ([`neighbours`]: by meaning,
//! else by shared words), in the order memories were captured, and replaces at most one of
//! them — so one note cannot mark seven unrelated decisions stale, and in a chain A → B → C
//! the memory C replaces B (A, replaced by B earlier in the pass, is no candidate).
//!
//! Each candidate pair is judged on what the two assert ([`features`]): the same subject
//! (similar, sharing rare words, the closest candidate by a margin), a different value (an
//! old number or name gone or left behind — "from MySQL", "Graphite was turned off" — and
//! a new one), and what the newer's words do (replace, change a value, correct a cause,
//! resolve a blocker — or add beside it, keep it, reject a proposal). A logistic function
//! of that evidence, fitted on the development half of a labelled set, gives a score; a
//! pair is a supersession when the score reaches `consolidation.supersession_min_evidence`
//! (or a lower bar, [`features::SAME_KIND_EVIDENCE`], when the newer swaps a product for
//! one of its kind — "Card payments go through Adyen" after "… processed by Braintree" —
//! [`features::PERSONAL_EVIDENCE`] when both state the speaker's own fact of one slot, and
//! [`features::SETTLED_EVIDENCE`] when the newer clears the older's blocker or denies the
//! cause it named, [`settled`])
//! — unless the newer only states the same slot of another component, with no word of
//! change, or the two are about different things: each names what it is about and they
//! share no word ([`Features::linkable`]).
//! Without an LLM the bar is set to prefer missing a replacement to inventing one. The
//! reason recorded names the subject, the old and new values, the cues and the score.
//!
//! `heuristic` keeps the marker-based check that finds contradictions across namespaces
//! (edges, not supersessions).

pub mod cues;
pub mod features;
mod heuristic;
pub mod personal;
pub mod qualifiers;
pub mod settled;
pub mod values;

use std::collections::{BTreeSet, HashSet};

pub use features::{Features, Reading};
pub use heuristic::{Pair, Verdict, has_marker, judge_pair};
pub use values::Idf;

use crate::embed::dot;
use crate::model::{Memory, SupersessionKind};

/// Closest older candidates looked at per memory.
pub const CANDIDATES: usize = 3;

/// A pair scoring at least this, but under the bar, whose newer memory has words of change,
/// is ambiguous: with an LLM configured it goes to the LLM (every call costs, so only
/// these); without one it stays unlinked.
pub const AMBIGUOUS: f32 = 0.1;

impl Candidate {
    /// Whether an LLM should decide this pair (see [`AMBIGUOUS`]).
    pub fn ambiguous(&self) -> bool {
        let f = &self.features;
        self.score >= AMBIGUOUS && (f.replace || f.value || f.correct || f.resolve || f.left || f.negates)
    }
}

/// One judged candidate.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Index of the older memory.
    pub older: usize,
    /// The evidence.
    pub features: Features,
    /// The evidence combined, in `[0, 1]`.
    pub score: f32,
}

/// What one memory was judged against.
#[derive(Debug, Clone)]
pub struct Judged {
    /// Index of the newer memory.
    pub newer: usize,
    /// Its candidates, closest first.
    pub candidates: Vec<Candidate>,
    /// The candidate it replaces, if any (index into `candidates`).
    pub chosen: Option<usize>,
}

/// For each memory, up to `k` older memories of the same namespace and domain, most
/// similar first, at least `floor` similar: by cosine where both have vectors, else by the
/// overlap of their subject words.
pub fn neighbours(
    ms: &[&Memory],
    vecs: &[Option<&[f32]>],
    readings: &[Reading],
    floor: f32,
    k: usize,
) -> Vec<Vec<(usize, f32)>> {
    let order = time_order(ms);
    let mut rank = vec![0usize; ms.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let mut out: Vec<Vec<(usize, f32)>> = vec![Vec::new(); ms.len()];
    // Group by namespace and domain: only those pairs are ever compared.
    let mut groups: std::collections::HashMap<(String, String), Vec<usize>> = std::collections::HashMap::new();
    for &i in &order {
        groups
            .entry((ms[i].namespace.to_string(), ms[i].domain.as_str().to_string()))
            .or_default()
            .push(i);
    }
    for members in groups.values() {
        for (a, &i) in members.iter().enumerate() {
            let mut best: Vec<(usize, f32)> = Vec::with_capacity(k + 1);
            for &j in &members[..a] {
                debug_assert!(rank[j] < rank[i]);
                let sim = match (vecs[i], vecs[j]) {
                    (Some(x), Some(y)) => dot(x, y),
                    _ => super::terms::jaccard(&readings[i].words, &readings[j].words),
                };
                if sim < floor {
                    continue;
                }
                if best.len() < k || best.last().is_some_and(|(_, s)| sim > *s) {
                    let at = best.partition_point(|(_, s)| *s >= sim);
                    best.insert(at, (j, sim));
                    best.truncate(k);
                }
            }
            out[i] = best;
        }
    }
    out
}

/// Indices in capture order (ties by id).
fn time_order(ms: &[&Memory]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ms.len()).collect();
    order.sort_by(|&a, &b| (ms[a].created_at, ms[a].id).cmp(&(ms[b].created_at, ms[b].id)));
    order
}

/// Judges every live memory against its neighbours, in capture order (see the module
/// docs). `refused(newer, older)` is true for pairs a user undid; `threshold` is the score
/// a supersession needs.
pub fn judge_all(
    ms: &[&Memory],
    neighbours: &[Vec<(usize, f32)>],
    readings: &[Reading],
    idf: &Idf,
    threshold: f32,
    refused: &dyn Fn(usize, usize) -> bool,
) -> Vec<Judged> {
    let mut replaced: HashSet<usize> = HashSet::new();
    let mut out = Vec::new();
    for i in time_order(ms) {
        if !ms[i].is_live() {
            continue;
        }
        let open: Vec<(usize, f32)> = neighbours[i]
            .iter()
            .copied()
            .filter(|(j, _)| ms[*j].is_live() && !replaced.contains(j) && !refused(i, *j))
            .collect();
        if open.is_empty() {
            continue;
        }
        let mut candidates: Vec<Candidate> = open
            .iter()
            .enumerate()
            .map(|(r, &(j, sim))| {
                let mut f = Features::of((ms[j], &readings[j]), (ms[i], &readings[i]), sim, idf);
                f.top = r == 0;
                f.margin = if r == 0 {
                    sim - open.get(1).map_or(0.0, |(_, s)| *s)
                } else {
                    sim - open[0].1
                };
                let score = f.score();
                Candidate {
                    older: j,
                    features: f,
                    score,
                }
            })
            .collect();
        let effective = |c: &Candidate| c.features.effective(c.score, threshold);
        let chosen = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| effective(c) >= threshold && c.features.linkable())
            .max_by(|a, b| effective(a.1).total_cmp(&effective(b.1)))
            .map(|(k, _)| k);
        if let Some(k) = chosen {
            replaced.insert(candidates[k].older);
        }
        candidates.shrink_to_fit();
        out.push(Judged {
            newer: i,
            candidates,
            chosen,
        });
    }
    out
}

/// The supersession a chosen candidate records: its kind, confidence and reason (subject,
/// old and new values, cues, score).
pub fn verdict(c: &Candidate, newer: &Memory) -> Verdict {
    let f = &c.features;
    let mut parts = Vec::new();
    if !f.subject.is_empty() {
        parts.push(format!("subject: {}", f.subject.join(", ")));
    }
    if !f.old_values.is_empty() {
        parts.push(format!("old value: {}", f.old_values.join(", ")));
    }
    if !f.new_values.is_empty() {
        parts.push(format!(
            "new value: {}",
            f.new_values.iter().take(4).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    let mut rules: Vec<&str> = cues::named(&newer.content);
    if f.blocker_resolved {
        rules.push("blocker resolved");
    }
    if f.cause_corrected {
        rules.push("cause corrected");
    }
    if f.name_replaced || f.number_replaced {
        rules.push("different value");
    }
    let kind;
    if let Some((old, new, k)) = &f.same_kind
        && f.swaps_kind()
    {
        kind = format!("{k}: {old} -> {new}");
        rules.push(&kind);
    }
    if let Some(settled) = f.settles() {
        rules.push(settled);
    }
    let slot;
    if let Some(s) = f.personal_slot
        && f.restates_personal_slot()
    {
        slot = format!("the speaker's {s}");
        rules.push(&slot);
    }
    if rules.is_empty() {
        // Close enough to count as the same statement again: the newer restates the older.
        rules.push("restated");
    }
    let rules: BTreeSet<&str> = rules.into_iter().collect();
    parts.push(format!(
        "rule: {} (similarity {:.2}, evidence {:.2})",
        rules.into_iter().collect::<Vec<_>>().join(", "),
        f.similarity,
        c.score
    ));
    Verdict {
        kind: SupersessionKind::Full,
        confidence: c.score,
        reason: parts.join("; "),
    }
}
