//! all-MiniLM-L6-v2 in pure Rust with candle, matching sentence-transformers: truncation
//! at 256 tokens (tokenizer.json ships 128), padding to the longest text of a batch, exact
//! erf GELU, mean pooling over the attention mask, L2 normalization.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams, TruncationStrategy};

use super::bert::{Bert, Config};
use super::install::{MINILM_ID, verify_quick};
use super::{EmbedError, Embedder, EmbeddingModel};
use subcog_encoder::Encoder;

/// sentence-transformers' `max_seq_length` for this model.
pub const MAX_TOKENS: usize = 256;
/// Most tokens in one forward pass; long texts go in smaller batches.
const BATCH_TOKENS: usize = 4096;
/// Most texts in one forward pass.
const BATCH_TEXTS: usize = 32;
/// Tokens stacked in one pass of `subcog-encoder`; the two threads take a batch each.
/// Measured with `examples/embed_rate 1000` on two cores: 256 tokens 244–268 texts/s,
/// 512 237–246, 1024 204–239 (smaller batches leave less of a wait at the end).
const FAST_BATCH_TOKENS: usize = 256;

/// The default embedder.
pub struct MiniLm {
    /// The BERT on candle's tensors (`bert`), for a CPU `subcog-encoder` does not run on:
    /// loaded with the model there, else only when asked for (copying its 90 MB of weights
    /// is most of a load).
    model: OnceLock<Result<Bert, String>>,
    config: Config,
    /// The single-text path, when this CPU supports it.
    fast: Option<Encoder>,
    tokenizer: Tokenizer,
    device: Device,
    identity: EmbeddingModel,
    dir: PathBuf,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLm").field("dir", &self.dir).finish()
    }
}

impl MiniLm {
    /// Loads the model from a directory holding config.json, tokenizer.json and
    /// model.safetensors (memory-mapped).
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let _span = tracing::info_span!("embed.load", dir = %dir.display()).entered();
        verify_quick(dir)?;
        let corrupt = |message: String| EmbedError::Corrupt {
            path: dir.to_path_buf(),
            message,
        };
        let config_text =
            std::fs::read_to_string(dir.join("config.json")).map_err(|e| corrupt(format!("config.json: {e}")))?;
        // `bert` uses the exact (erf) GELU, as sentence-transformers does, whatever the
        // config's `hidden_act` says.
        let config: Config = serde_json::from_str(&config_text).map_err(|e| corrupt(format!("config.json: {e}")))?;
        let tokenizer_span = tracing::debug_span!("embed.load_tokenizer").entered();
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| corrupt(format!("tokenizer.json: {e}")))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
                ..Default::default()
            }))
            .map_err(|e| corrupt(format!("tokenizer truncation: {e}")))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            pad_id: 0,
            pad_token: "[PAD]".into(),
            ..Default::default()
        }));
        drop(tokenizer_span);
        let _weights_span = tracing::debug_span!("embed.load_weights").entered();
        let fast = if Encoder::supported() {
            // SAFETY: the file is memory-mapped read-only. subcog installs it atomically
            // (write to a temporary name, verify its hash, rename) and never modifies it in
            // place; a user truncating it while we run is the one way to break the mapping.
            #[allow(unsafe_code)]
            let file = unsafe { candle_core::safetensors::MmapedSafetensors::new(dir.join("model.safetensors")) }
                .map_err(|e| corrupt(format!("model.safetensors: {e}")))?;
            Some(
                Encoder::load(
                    file,
                    config.num_hidden_layers,
                    config.num_attention_heads,
                    config.hidden_size,
                    config.layer_norm_eps,
                )
                .map_err(|e| corrupt(format!("weights: {e}")))?,
            )
        } else {
            None
        };
        let hidden_size = config.hidden_size;
        let model = MiniLm {
            model: OnceLock::new(),
            config,
            fast,
            tokenizer,
            device: Device::Cpu,
            identity: EmbeddingModel {
                id: MINILM_ID.to_string(),
                dim: hidden_size,
            },
            dir: dir.to_path_buf(),
        };
        if model.fast.is_none() {
            // Every embedding goes through candle: load it now, so a bad file fails here.
            model.bert()?;
        }
        Ok(model)
    }

    /// candle's model, loaded on first use.
    fn bert(&self) -> Result<&Bert, EmbedError> {
        let loaded = self.model.get_or_init(|| {
            let _span = tracing::info_span!("embed.load_batch_model").entered();
            let weights = self.dir.join("model.safetensors");
            // SAFETY: as for the encoder's mapping in `load`.
            #[allow(unsafe_code)]
            let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[weights], DType::F32, &self.device) }
                .map_err(|e| format!("model.safetensors: {e}"))?;
            Bert::load(vb, &self.config).map_err(|e| format!("weights: {e}"))
        });
        loaded.as_ref().map_err(|message| EmbedError::Corrupt {
            path: self.dir.clone(),
            message: message.clone(),
        })
    }

    fn forward(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let err = |e: &dyn std::fmt::Display| EmbedError::Inference(e.to_string());
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| err(&e))?;
        let len = encodings.first().map(|e| e.get_ids().len()).unwrap_or(0);
        let n = encodings.len();
        let mut ids = Vec::with_capacity(n * len);
        let mut mask = Vec::with_capacity(n * len);
        for e in &encodings {
            ids.extend_from_slice(e.get_ids());
            mask.extend_from_slice(e.get_attention_mask());
        }
        let ids = Tensor::from_vec(ids, (n, len), &self.device).map_err(|e| err(&e))?;
        let mask = Tensor::from_vec(mask, (n, len), &self.device).map_err(|e| err(&e))?;
        let hidden = self.bert()?.forward(&ids, &mask).map_err(|e| err(&e))?;
        // Mean over real tokens: sum(hidden * mask) / sum(mask), then unit length.
        let mask = mask
            .to_dtype(DType::F32)
            .and_then(|m| m.unsqueeze(2))
            .map_err(|e| err(&e))?;
        let summed = hidden
            .broadcast_mul(&mask)
            .and_then(|t| t.sum(1))
            .map_err(|e| err(&e))?;
        let counts = mask.sum(1).map_err(|e| err(&e))?;
        let mean = summed.broadcast_div(&counts).map_err(|e| err(&e))?;
        let norms = mean
            .sqr()
            .and_then(|t| t.sum_keepdim(1))
            .and_then(|t| t.sqrt())
            .map_err(|e| err(&e))?;
        let unit = mean.broadcast_div(&norms).map_err(|e| err(&e))?;
        unit.to_vec2::<f32>().map_err(|e| err(&e))
    }
}

impl MiniLm {
    /// Every text on `subcog-encoder`: tokenized (in parallel), sorted by length, and run
    /// in batches of about [`FAST_BATCH_TOKENS`] stacked tokens, none padded.
    fn embed_fast(&self, fast: &Encoder, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let err = |e: &dyn std::fmt::Display| EmbedError::Inference(e.to_string());
        let encodings = match texts {
            [] => return Ok(Vec::new()),
            [one] => vec![self.tokenizer.encode(*one, true).map_err(|e| err(&e))?],
            _ => self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| err(&e))?,
        };
        // A batch encoding is padded on the right to its longest text: keep the real tokens.
        let ids: Vec<&[u32]> = encodings
            .iter()
            .map(|e| {
                let real = e.get_attention_mask().iter().filter(|&&m| m != 0).count();
                &e.get_ids()[..real.min(e.get_ids().len())]
            })
            .collect();
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| ids[i].len());
        let mut batches: Vec<&[usize]> = Vec::new();
        let mut start = 0;
        while start < order.len() {
            let mut end = start;
            let mut tokens = 0;
            while end < order.len() && (end == start || tokens + ids[order[end]].len() <= FAST_BATCH_TOKENS) {
                tokens += ids[order[end]].len();
                end += 1;
            }
            batches.push(&order[start..end]);
            start = end;
        }
        let stacked: Vec<Vec<&[u32]>> = batches.iter().map(|b| b.iter().map(|&i| ids[i]).collect()).collect();
        let mut out: Vec<Option<Vec<f32>>> = vec![None; ids.len()];
        for (batch, vectors) in batches
            .iter()
            .zip(fast.embed_batches(&stacked).map_err(EmbedError::Inference)?)
        {
            for (&i, v) in batch.iter().zip(vectors) {
                out[i] = Some(v);
            }
        }
        out.into_iter()
            .map(|v| v.ok_or_else(|| EmbedError::Inference("missing vector".into())))
            .collect()
    }
}

impl Embedder for MiniLm {
    fn model(&self) -> &EmbeddingModel {
        &self.identity
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let _span = tracing::debug_span!("embed.batch", count = texts.len()).entered();
        if let Some(fast) = &self.fast {
            return self.embed_fast(fast, texts);
        }
        // Sort by length so each batch pads little; cap batches by texts and tokens.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut out: Vec<Option<Vec<f32>>> = vec![None; texts.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            while end < order.len() && end - start < BATCH_TEXTS {
                // ~4 characters per token, at most MAX_TOKENS per text.
                let longest = (texts[order[end]].len() / 4 + 2).min(MAX_TOKENS);
                if longest * (end - start + 1) > BATCH_TOKENS {
                    break;
                }
                end += 1;
            }
            let batch: Vec<&str> = order[start..end].iter().map(|&i| texts[i]).collect();
            for (k, v) in self.forward(&batch)?.into_iter().enumerate() {
                out[order[start + k]] = Some(v);
            }
            start = end;
        }
        out.into_iter()
            .map(|v| v.ok_or_else(|| EmbedError::Inference("missing vector".into())))
            .collect()
    }
}

/// The model the tests use (see `scripts/fetch-test-model`).
#[cfg(test)]
pub(crate) fn test_model_dir() -> PathBuf {
    let dir = std::env::var_os("SUBCOG_TEST_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/test-model/all-MiniLM-L6-v2"));
    assert!(
        dir.join("model.safetensors").is_file(),
        "test model missing at {}: run scripts/fetch-test-model",
        dir.display()
    );
    dir
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    #[derive(serde::Deserialize)]
    struct Reference {
        sentences: Vec<Sentence>,
    }

    #[derive(serde::Deserialize)]
    struct Sentence {
        text: String,
        tokens: usize,
        embedding: Vec<f32>,
    }

    fn reference() -> Reference {
        serde_json::from_str(include_str!("../../tests/fixtures/minilm_reference.json")).expect("fixture parses")
    }

    #[test]
    fn matches_the_reference_vectors_in_one_batch_and_alone() {
        let model = MiniLm::load(&test_model_dir()).expect("model loads");
        assert_eq!(model.model().dim, 384);
        let r = reference();
        let texts: Vec<&str> = r.sentences.iter().map(|s| s.text.as_str()).collect();
        // One padded batch (short and long texts together) and each text alone must agree
        // with the reference: padding and truncation must not change a vector.
        let batch = model.embed(&texts).expect("embeds");
        for (s, v) in r.sentences.iter().zip(&batch) {
            let alone = model.embed_one(&s.text).expect("embeds");
            for got in [v, &alone] {
                let c = cosine(got, &s.embedding);
                assert!(c >= 0.9999, "{:?} ({} tokens): cosine {c}", s.text, s.tokens);
                let norm: f32 = got.iter().map(|x| x * x).sum::<f32>().sqrt();
                assert!((norm - 1.0).abs() < 1e-4);
            }
        }
        // Anchor published for sentence-transformers: "hello world" starts like this.
        let hello = &batch[0];
        for (got, want) in hello.iter().zip([-0.034478f32, 0.03102, 0.00673, 0.02611, -0.039362]) {
            assert!((got - want).abs() < 1e-4, "{got} vs {want}");
        }
    }

    #[test]
    fn the_encoder_agrees_with_candle_alone_and_in_batches() {
        let model = MiniLm::load(&test_model_dir()).expect("model loads");
        assert_eq!(model.fast.is_some(), Encoder::supported());
        let Some(fast) = &model.fast else { return };
        // One token, a typical query, an exact multiple of the 4-row block, non-ASCII, a
        // text of the tile's size, one truncated at 256 tokens, and a batch of them all
        // with more (stacked tokens from several tiles, texts of every length).
        let medium = "the cache was moved because latency doubled ".repeat(5);
        let longest = "memory ".repeat(400);
        let mut texts: Vec<String> = [
            "a",
            "why did we move the session cache",
            "postgres latency under load",
            "naïve café 東京 — déjà vu",
            medium.trim(),
            longest.trim(),
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        texts
            .extend((0..40).map(|i| format!("Note {i}: decision number {} about {}", i * 7, "service ".repeat(i % 9))));
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let batched = model.embed(&refs).expect("batch");
        for (text, got) in refs.iter().zip(&batched) {
            let ids = model.tokenizer.encode(*text, true).expect("tokenizes");
            let ids = ids.get_ids();
            assert!(ids.len() <= subcog_encoder::MAX_TOKENS, "{text}: {} tokens", ids.len());
            let alone = fast.embed(ids).expect("fast path");
            let theirs = model.forward(&[text]).expect("candle").remove(0);
            for ours in [&alone, got] {
                let c = cosine(ours, &theirs);
                assert!(c >= 0.99999, "{text:?}: cosine {c}");
            }
        }
        let too_long = vec![101u32; subcog_encoder::MAX_TOKENS + 1];
        assert!(fast.embed(&too_long).is_err(), "longer texts are refused");
        assert!(
            fast.embed(&[101, u32::MAX, 102]).is_err(),
            "unknown token ids are refused"
        );
        assert!(
            fast.embed_batch(&[&[101, 102], &[]]).is_err(),
            "an empty text is refused"
        );
    }

    #[test]
    fn long_texts_are_truncated_not_rejected() {
        let model = MiniLm::load(&test_model_dir()).expect("model loads");
        let huge = "Consolidation keeps memories useful. ".repeat(3000); // ~110 KB
        let head = "Consolidation keeps memories useful. ".repeat(60);
        let a = model.embed_one(&huge).expect("embeds a 100 KB text");
        let b = model.embed_one(&head).expect("embeds");
        assert!(cosine(&a, &b) > 0.999, "only the first 256 tokens count");
    }

    #[test]
    fn similar_meaning_is_closer_than_shared_words() {
        let model = MiniLm::load(&test_model_dir()).expect("model loads");
        let v = model
            .embed(&[
                "which database did we pick",
                "Use PostgreSQL for primary storage",
                "We picked a new office plant",
            ])
            .expect("embeds");
        assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]));
    }

    #[test]
    fn missing_and_corrupt_models_are_reported() {
        let tmp = tempfile::tempdir().expect("tempdir");
        assert!(matches!(MiniLm::load(tmp.path()), Err(EmbedError::Missing { .. })));
        let src = test_model_dir();
        for f in ["config.json", "tokenizer.json"] {
            std::fs::copy(src.join(f), tmp.path().join(f)).expect("copy");
        }
        std::fs::write(tmp.path().join("model.safetensors"), b"garbage").expect("write");
        assert!(matches!(MiniLm::load(tmp.path()), Err(EmbedError::Corrupt { .. })));
    }
}
