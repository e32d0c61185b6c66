//! Embeddings: the [`Embedder`] trait, the model identity stored beside every vector, and
//! the default offline model (all-MiniLM-L6-v2 run with candle, feature `embed-minilm`).
//!
//! This module owns turning text into unit vectors and the one similarity function every
//! other module uses. Installing model files is `embed::install`'s job; searching vectors
//! is `vector`'s.

#[cfg(feature = "embed-minilm")]
mod bert;
pub mod install;
#[cfg(feature = "embed-minilm")]
mod minilm;
#[cfg(all(test, feature = "embed-minilm"))]
pub(crate) use minilm::test_model_dir;

#[cfg(feature = "embed-minilm")]
pub use minilm::MiniLm;

use std::path::PathBuf;
use thiserror::Error;

/// Which model made a vector; vectors of different models are never compared.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EmbeddingModel {
    /// Stable model identifier, e.g. `sentence-transformers/all-MiniLM-L6-v2`.
    pub id: String,
    /// Vector length.
    pub dim: usize,
}

/// An embedding failure.
#[derive(Debug, Error)]
pub enum EmbedError {
    /// No model files where they were expected.
    #[error("no embedding model at {path}: run `subcog model install`")]
    Missing {
        /// The model directory.
        path: PathBuf,
    },
    /// The model files are damaged or not the expected model.
    #[error("embedding model at {path} is corrupt: {message} (run `subcog model install` again)")]
    Corrupt {
        /// The model directory.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Installing the model failed.
    #[error("model install failed: {message}")]
    Install {
        /// What went wrong.
        message: String,
    },
    /// The embedding code was built out (`--no-default-features`).
    #[error("this subcog was built without the embedding model (feature embed-minilm)")]
    NotBuilt,
    /// Inference failed.
    #[error("embedding failed: {0}")]
    Inference(String),
}

/// Turns texts into L2-normalized vectors.
pub trait Embedder: Send + Sync {
    /// The model identity recorded with each vector.
    fn model(&self) -> &EmbeddingModel;

    /// Embeds a batch; one vector of `model().dim` per text, in input order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// Embeds one text.
    fn embed_one(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        self.embed(&[text])?
            .pop()
            .ok_or_else(|| EmbedError::Inference("no vector returned".into()))
    }
}

/// Dot product; for unit vectors, the cosine similarity. Written as a plain loop over
/// chunks so the compiler vectorizes it.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let chunks_a = a.chunks_exact(8);
    let chunks_b = b.chunks_exact(8);
    let tail: f32 = chunks_a
        .remainder()
        .iter()
        .zip(chunks_b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (ca, cb) in chunks_a.zip(chunks_b) {
        for i in 0..8 {
            acc[i] += ca[i] * cb[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Cosine similarity of two vectors of any length.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (na, nb) = (dot(a, a).sqrt(), dot(b, b).sqrt());
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot(a, b) / (na * nb)
    }
}

/// Vectors as little-endian f32 bytes (the stored form).
pub fn to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The stored form back to a vector; `None` when the length is not a multiple of 4.
pub fn from_bytes(bytes: &[u8]) -> Option<Vec<f32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// Loads the default embedder from a model directory.
pub fn load_default(dir: &std::path::Path) -> Result<Box<dyn Embedder>, EmbedError> {
    #[cfg(feature = "embed-minilm")]
    {
        Ok(Box::new(MiniLm::load(dir)?))
    }
    #[cfg(not(feature = "embed-minilm"))]
    {
        let _ = dir;
        Err(EmbedError::NotBuilt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_cosine() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let naive: f32 = a.iter().map(|x| x * x).sum();
        assert!((dot(&a, &a) - naive).abs() < 1e-3);
        assert!((cosine(&[1.0, 0.0], &[2.0, 0.0]) - 1.0).abs() < 1e-6);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
    }

    #[test]
    fn bytes_round_trip() {
        let v = vec![0.5f32, -1.25, 3.0e-8];
        assert_eq!(from_bytes(&to_bytes(&v)), Some(v));
        assert_eq!(from_bytes(&[1, 2, 3]), None);
    }
}
