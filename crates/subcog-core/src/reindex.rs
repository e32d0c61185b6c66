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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::CaptureRequest;
    use crate::clock::SystemClock;
    use crate::config::Config;
    use crate::embed::{EmbedError, Embedder, EmbeddingModel};
    use crate::location::DataLocation;
    use crate::recall::RecallQuery;
    use std::sync::Arc;

    /// A deterministic test embedder: letter counts, so different from any real model.
    struct Letters(EmbeddingModel);

    impl Embedder for Letters {
        fn model(&self) -> &EmbeddingModel {
            &self.0
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            Ok(texts
                .iter()
                .map(|t| {
                    let mut v = vec![0.0f32; self.0.dim];
                    for c in t.to_lowercase().chars().filter(char::is_ascii_lowercase) {
                        v[(c as usize - 'a' as usize) % self.0.dim] += 1.0;
                    }
                    let n = crate::embed::dot(&v, &v).sqrt().max(1e-6);
                    v.iter().map(|x| x / n).collect()
                })
                .collect())
        }
    }

    fn service(dir: &std::path::Path, model: &str, dim: usize) -> Subcog {
        let project = dir.join("project");
        std::fs::create_dir_all(&project).expect("dir");
        let e: Arc<dyn Embedder> = Arc::new(Letters(EmbeddingModel { id: model.into(), dim }));
        Subcog::new(
            Config::default(),
            DataLocation::resolve(dir, &project),
            Arc::new(SystemClock),
        )
        .with_embedder(Some(e))
    }

    #[test]
    fn vectors_of_another_model_are_never_mixed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = service(dir.path(), "test/letters-8", 8);
        for text in ["alpha beta", "gamma delta", "epsilon zeta"] {
            old.capture(CaptureRequest {
                content: text.into(),
                namespace: "context".into(),
                ..Default::default()
            })
            .expect("capture");
        }
        // A different model (other id and dimension) over the same store.
        let new = service(dir.path(), "test/letters-26", 26);
        let q = RecallQuery {
            query: "alpha".into(),
            no_touch: true,
            ..Default::default()
        };
        let before = new.recall(&q).expect("recall");
        assert!(
            before.results.iter().all(|h| h.explain.vector.is_none()),
            "old vectors must not be compared"
        );
        assert_eq!(new.status().expect("status").missing_embeddings, 3);

        let report = new.reindex_embeddings(false, &mut |_, _| {}).expect("reindex");
        assert_eq!(report.embedded, 3);
        assert_eq!(report.removed_other_models, 3);
        let after = new.recall(&q).expect("recall");
        assert!(after.results.iter().any(|h| h.explain.vector.is_some()));
        let store = new.store_for_write(crate::service::ScopeKind::Project).expect("store");
        let counts = store.embedding_counts().expect("counts");
        assert_eq!(counts.len(), 1);
        assert_eq!(counts[0].model_id, "test/letters-26");
        assert_eq!(counts[0].dim, 26);
    }
}
