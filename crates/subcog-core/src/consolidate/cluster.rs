//! Stage 2: agglomerative clustering, average linkage on cosine distance (kodama), cut at
//! `1 − cluster_threshold`; clusters above the maximum size are split along the dendrogram.
//! Time plays no part (seed 003): related memories from different months group together.

use kodama::{Method, linkage};
use sha2::{Digest, Sha256};

use crate::embed::dot;

/// One cluster: indices into the clustered items and how tight it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// `cl_<hash of member ids>`: stable while the members stay the same.
    pub id: String,
    /// Member indices, ascending.
    pub members: Vec<usize>,
    /// Mean pairwise cosine similarity of the members.
    pub coherence: f32,
}

/// Pairs `(i, j, similarity)` with `i < j` at or above a similarity, found while building
/// the distance matrix (so later stages need no second pass over all pairs).
pub type NearPairs = Vec<(usize, usize, f32)>;

/// Clusters unit vectors. Only groups of at least `min` members are returned; groups
/// above `max` are split into their dendrogram children until they fit. Also returns the
/// pairs at or above `near`.
pub fn cluster(
    vectors: &[&[f32]],
    ids: &[String],
    threshold: f32,
    min: usize,
    max: usize,
    near: f32,
) -> (Vec<Cluster>, NearPairs) {
    let n = vectors.len();
    if n < 2 || n != ids.len() {
        return (Vec::new(), Vec::new());
    }
    let distances = tracing::info_span!("clustering.compute_distances", memories = n).entered();
    let mut condensed = Vec::with_capacity(n * (n - 1) / 2);
    let mut pairs = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let sim = dot(vectors[i], vectors[j]);
            if sim >= near {
                pairs.push((i, j, sim));
            }
            // Clamped: rounding can push 1 − cos slightly below zero.
            condensed.push((1.0 - sim).max(0.0));
        }
    }
    drop(distances);
    let _execute = tracing::info_span!("clustering.execute", memories = n).entered();
    let dendrogram = linkage(&mut condensed, n, Method::Average);
    let cut = 1.0 - threshold;
    // children[k] = the two clusters merged at step k (label n + k).
    let mut children: Vec<(usize, usize)> = Vec::with_capacity(n);
    let mut active: Vec<bool> = vec![true; 2 * n];
    for step in dendrogram.steps() {
        let label = n + children.len();
        children.push((step.cluster1, step.cluster2));
        if step.dissimilarity <= cut {
            active[step.cluster1] = false;
            active[step.cluster2] = false;
        } else {
            active[label] = false;
        }
    }
    // A label is a cut cluster when it was formed within the cut (or is a single memory)
    // and no merge within the cut absorbed it.
    let mut roots: Vec<usize> = (0..n + children.len()).filter(|&l| active[l]).collect();
    let mut out = Vec::new();
    while let Some(label) = roots.pop() {
        let members = leaves(label, n, &children);
        if members.len() > max && label >= n {
            let (a, b) = children[label - n];
            roots.push(a);
            roots.push(b);
            continue;
        }
        if members.len() >= min {
            out.push(members);
        }
    }
    let mut clusters: Vec<Cluster> = out
        .into_iter()
        .map(|mut members| {
            members.sort_unstable();
            let mut hasher = Sha256::new();
            let mut sorted_ids: Vec<&String> = members.iter().map(|&i| &ids[i]).collect();
            sorted_ids.sort();
            for id in sorted_ids {
                hasher.update(id.as_bytes());
                hasher.update(b"\n");
            }
            let digest = hasher.finalize();
            let id = format!(
                "cl_{}",
                digest.iter().take(8).map(|b| format!("{b:02x}")).collect::<String>()
            );
            let mut sum = 0.0;
            let mut pairs = 0usize;
            for (x, &i) in members.iter().enumerate() {
                for &j in &members[x + 1..] {
                    sum += dot(vectors[i], vectors[j]);
                    pairs += 1;
                }
            }
            let coherence = if pairs == 0 {
                1.0
            } else {
                (sum / pairs as f32).clamp(0.0, 1.0)
            };
            Cluster { id, members, coherence }
        })
        .collect();
    clusters.sort_by(|a, b| a.members.cmp(&b.members));
    (clusters, pairs)
}

/// The observations under a dendrogram label.
fn leaves(label: usize, n: usize, children: &[(usize, usize)]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![label];
    while let Some(l) = stack.pop() {
        if l < n {
            out.push(l);
        } else if let Some(&(a, b)) = children.get(l - n) {
            stack.push(a);
            stack.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = dot(v, v).sqrt();
        v.iter().map(|x| x / n).collect()
    }

    #[test]
    fn near_vectors_cluster_and_far_ones_do_not() {
        let vs: Vec<Vec<f32>> = [
            [1.0, 0.0, 0.0],
            [0.98, 0.1, 0.0],
            [0.97, 0.0, 0.12],
            [0.0, 1.0, 0.0],
            [0.05, 0.99, 0.0],
            [0.0, 0.0, 1.0],
        ]
        .iter()
        .map(|v| unit(v))
        .collect();
        let refs: Vec<&[f32]> = vs.iter().map(Vec::as_slice).collect();
        let ids: Vec<String> = (0..6).map(|i| format!("m{i}")).collect();
        let (clusters, near) = cluster(&refs, &ids, 0.85, 2, 20, 0.9);
        assert!(near.contains(&(0, 1, dot(refs[0], refs[1]))));
        let members: Vec<Vec<usize>> = clusters.iter().map(|c| c.members.clone()).collect();
        assert_eq!(members, vec![vec![0, 1, 2], vec![3, 4]]);
        assert!(clusters[0].coherence > 0.95);
        // Stable ids; splitting when too large.
        assert_eq!(cluster(&refs, &ids, 0.85, 2, 20, 1.0).0[0].id, clusters[0].id);
        let split = cluster(&refs, &ids, 0.85, 1, 2, 1.0).0;
        assert!(split.iter().all(|c| c.members.len() <= 2));
        assert_eq!(split.iter().map(|c| c.members.len()).sum::<usize>(), 6);
    }
}
