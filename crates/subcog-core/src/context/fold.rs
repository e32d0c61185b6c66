//! Near-duplicates shown once: which members of a summarized cluster a chosen memory
//! already stands for.
//!
//! Seed 004 merges duplicates above 80 % similarity; consolidation's merge rule does that
//! only for old memories with the same tags, so a cluster can hold several memories that
//! say nearly the same thing. In the session context the first of them (the best ranked)
//! is shown, marked with how many it stands for, and the others are left to their
//! cluster's summary, which the summary block then always includes. Near-duplicates are
//! the `relates_to` edges consolidation drew at or above the merge similarity between two
//! members of the same summary; memories outside a summary are never folded, so nothing
//! disappears without a summary that covers it.

use std::collections::HashMap;

use crate::model::{EdgeType, MemoryEdge, MemorySummary};

/// Near-duplicate pairs inside summaries.
#[derive(Debug, Default)]
pub struct Fold {
    /// Memory id → (near-duplicate id, index of the summary both belong to).
    neighbours: HashMap<String, Vec<(String, usize)>>,
}

impl Fold {
    /// Pairs of `edges` at or above `min_similarity` whose two memories share one of
    /// `summaries` (indices refer to that slice).
    pub fn new(summaries: &[&MemorySummary], edges: &[MemoryEdge], min_similarity: f32) -> Self {
        let mut member_of: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, s) in summaries.iter().enumerate() {
            for id in &s.source_ids {
                member_of.entry(id.as_str()).or_default().push(k);
            }
        }
        let mut neighbours: HashMap<String, Vec<(String, usize)>> = HashMap::new();
        for e in edges {
            if e.edge_type != EdgeType::RelatesTo || e.weight < min_similarity {
                continue;
            }
            let (Some(a), Some(b)) = (member_of.get(e.source_id.as_str()), member_of.get(e.target_id.as_str())) else {
                continue;
            };
            if let Some(&k) = a.iter().find(|k| b.contains(k)) {
                neighbours
                    .entry(e.source_id.clone())
                    .or_default()
                    .push((e.target_id.clone(), k));
                neighbours
                    .entry(e.target_id.clone())
                    .or_default()
                    .push((e.source_id.clone(), k));
            }
        }
        Fold { neighbours }
    }

    /// No pair at all.
    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// The chosen near-duplicate that already stands for `id`, and their summary's index.
    pub fn covered_by(&self, id: &str, chosen: impl Fn(&str) -> bool) -> Option<(String, usize)> {
        self.neighbours
            .get(id)?
            .iter()
            .find(|(other, _)| chosen(other))
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn summary(ids: &[&str]) -> MemorySummary {
        MemorySummary {
            id: "sum_a".into(),
            cluster_id: "a".into(),
            namespace: "learnings".into(),
            title: "Retries".into(),
            summary: "Retries.".into(),
            key_facts: Vec::new(),
            decisions: Vec::new(),
            superseded_facts: Vec::new(),
            source_ids: ids.iter().map(|s| s.to_string()).collect(),
            start: Utc::now(),
            end: Utc::now(),
            confidence: 0.8,
            method: "extractive".into(),
            tier: crate::model::Tier::Warm,
            run_id: "r".into(),
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    fn edge(a: &str, b: &str, weight: f32, edge_type: EdgeType) -> MemoryEdge {
        MemoryEdge {
            source_id: a.into(),
            target_id: b.into(),
            edge_type,
            weight,
            reason: String::new(),
            run_id: "r".into(),
        }
    }

    #[test]
    fn only_close_pairs_inside_one_summary_fold() {
        let s = summary(&["a", "b", "c"]);
        let edges = [
            edge("a", "b", 0.86, EdgeType::RelatesTo),
            // Below the merge similarity: both stay.
            edge("a", "c", 0.78, EdgeType::RelatesTo),
            // Close, but "d" is in no summary: nothing would cover it.
            edge("a", "d", 0.95, EdgeType::RelatesTo),
            // Not a similarity edge.
            edge("c", "b", 0.99, EdgeType::Supersedes),
        ];
        let fold = Fold::new(&[&s], &edges, 0.8);
        let chosen = |id: &str| id == "a";
        assert_eq!(fold.covered_by("b", chosen), Some(("a".to_string(), 0)));
        assert_eq!(fold.covered_by("c", chosen), None);
        assert_eq!(fold.covered_by("d", chosen), None);
        // Nothing chosen yet: the first one is shown.
        assert_eq!(fold.covered_by("a", |_| false), None);
    }
}
