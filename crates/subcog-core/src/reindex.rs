//! Rebuilding derived data: re-embedding memories when the model changes or vectors are
//! missing. Vectors of any other model are removed, so two models' vectors are never
//! compared.

use serde::Serialize;

use crate::error::Result;
use crate::service::Subcog;

/// What `reindex --embeddings` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EmbeddingReindex {
    /// The model now used.
    pub model_id: String,
    /// Memories embedded.
    pub embedded: usize,
    /// Vectors of other models removed.
    pub removed_other_models: usize,
}

/// How many memories are embedded per store transaction.
const BATCH: usize = 256;

impl Subcog {
    /// Embeds every live memory that lacks a vector of the current model (all of them with
    /// `force`), reporting `(done, total)`. Fails when no model is available.
    pub fn reindex_embeddings(&self, force: bool, progress: &mut dyn FnMut(usize, usize)) -> Result<EmbeddingReindex> {
        let _span = tracing::info_span!("reindex.embeddings", force).entered();
        let embedder = match self.embedder_state() {
            crate::service::EmbedderState::Ready(e) => e.clone(),
            crate::service::EmbedderState::Unavailable(why) => {
                return Err(crate::embed::EmbedError::Install { message: why.clone() }.into());
            }
        };
        let model = embedder.model().clone();
        let mut report = EmbeddingReindex {
            model_id: model.id.clone(),
            ..Default::default()
        };
        let stores = self.existing_stores()?;
        let mut total = 0;
        for (_, store) in &stores {
            report.removed_other_models += store.drop_other_embeddings(&model)?;
            if force {
                // Replace every vector: drop this model's too, then embed all.
                let counts = store.embedding_counts()?;
                if counts.iter().any(|c| c.model_id == model.id) {
                    let none = crate::embed::EmbeddingModel {
                        id: String::new(),
                        dim: model.dim,
                    };
                    store.drop_other_embeddings(&none)?;
                }
            }
            total += store.missing_embeddings(&model, usize::MAX)?.len();
        }
        let mut done = 0;
        progress(0, total);
        for (_, store) in &stores {
            loop {
                let batch = store.missing_embeddings(&model, BATCH)?;
                if batch.is_empty() {
                    break;
                }
                let texts: Vec<&str> = batch.iter().map(|m| m.content.as_str()).collect();
                let vectors = embedder.embed(&texts)?;
                let items: Vec<_> = batch.iter().map(|m| m.id).zip(vectors).collect();
                store.put_embeddings(&model, &items)?;
                done += items.len();
                report.embedded += items.len();
                progress(done, total);
            }
        }
        Ok(report)
    }
}
