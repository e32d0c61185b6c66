//! The learned judgement: what no rule holds is scored by a logistic regression on the
//! memory's all-MiniLM-L6-v2 vector (the one the index stores anyway, so it costs one dot
//! product). It reads what a note is about rather than its words, so it carries further to
//! a writer the rules never saw, at the price of holding more notes *about* attacks
//! (injection defences, secret policies). Trained by `tools/train_quarantine_meaning.py`;
//! the bar and its figures are in docs/RELIABILITY.md. Vectors of another model are not
//! scored.

use super::weights::{BIAS, WEIGHTS};
use crate::embed::EmbeddingModel;
use crate::embed::install::MINILM_ID;

/// A memory whose score reaches this is held. Chosen before the last hold-out set was read,
/// by a rule fixed before the first: the lowest bar at which, leaving each outside writer's
/// set out of training, at most 1.5 % of their plain notes and 0.5 % of the LongMemEval
/// chat turns are held.
pub const BAR: f32 = 0.9;

/// The default of `[quarantine] context_bar`: from this score a live memory is left out of
/// what hooks inject ([`crate::withhold`]). The lowest bar, in steps of 0.05, at which at
/// most 2 % of the ordinary project notes of `data/supersession*` and the consolidation
/// fixture (6,815 notes never trained on) and 0.5 % of the LoCoMo turns would be left out;
/// chosen before `data/quarantine/holdout13.jsonl` was read (docs/RELIABILITY.md).
pub const CONTEXT_BAR: f32 = 0.6;

/// Length of the vectors it scores (all-MiniLM-L6-v2's).
pub const DIM: usize = WEIGHTS.len();

/// How much the vector reads as an attack, 0–1; `None` for another model's vectors.
pub fn score(model: &EmbeddingModel, vector: &[f32]) -> Option<f32> {
    if model.id != MINILM_ID || vector.len() != WEIGHTS.len() {
        return None;
    }
    let z: f32 = vector.iter().zip(WEIGHTS.iter()).map(|(x, w)| x * w).sum::<f32>() + BIAS;
    Some(1.0 / (1.0 + (-z).exp()))
}

/// A unit vector the judgement scores as high as any can (`sign` 1.0) or as low (-1.0):
/// a stored vector of known score for tests of what reads it.
#[cfg(test)]
pub(crate) fn extreme_vector(sign: f32) -> Vec<f32> {
    let norm = WEIGHTS.iter().map(|w| w * w).sum::<f32>().sqrt();
    WEIGHTS.iter().map(|w| sign * w / norm).collect()
}

/// A vector the judgement scores `target` (0–1, exclusive): the direction of
/// [`extreme_vector`], scaled.
#[cfg(test)]
pub(crate) fn vector_scoring(target: f32) -> Vec<f32> {
    let norm = WEIGHTS.iter().map(|w| w * w).sum::<f32>().sqrt();
    let logit = (target / (1.0 - target)).ln();
    let scale = (logit - BIAS) / norm;
    WEIGHTS.iter().map(|w| scale * w / norm).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_models_vectors_are_not_scored() {
        let other = EmbeddingModel {
            id: "hash-embedder".into(),
            dim: 384,
        };
        assert_eq!(score(&other, &[0.1; 384]), None);
        let minilm = EmbeddingModel {
            id: MINILM_ID.into(),
            dim: 384,
        };
        assert_eq!(score(&minilm, &[0.1; 16]), None);
        let s = score(&minilm, &[0.0; 384]).expect("scored");
        assert!((0.0..=1.0).contains(&s));
        let s = score(&minilm, &vector_scoring(0.4)).expect("scored");
        assert!((s - 0.4).abs() < 1e-3, "{s}");
    }
}
