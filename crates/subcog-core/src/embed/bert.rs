//! A BERT encoder on candle's tensors: the path every embedding takes on a CPU that
//! `subcog-encoder` does not support, and the reference that path is checked against.
//!
//! Only what all-MiniLM-L6-v2 needs (absolute positions, exact erf GELU, post-layer-norm
//! blocks), read from a sentence-transformers `model.safetensors`. Written here rather than
//! taken from candle-transformers, whose hundred models cost minutes of every clean build
//! for the one used (docs/ARCHITECTURE.md).

use candle_core::{D, DType, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder, embedding, layer_norm, linear};
use serde::Deserialize;

/// The fields of a BERT `config.json` the encoder reads.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    /// Tokens in the vocabulary.
    pub vocab_size: usize,
    /// Width of every hidden state.
    pub hidden_size: usize,
    /// Transformer blocks.
    pub num_hidden_layers: usize,
    /// Attention heads per block.
    pub num_attention_heads: usize,
    /// Width of the feed-forward layer.
    pub intermediate_size: usize,
    /// Positions the model has embeddings for.
    pub max_position_embeddings: usize,
    /// Token types (segments).
    pub type_vocab_size: usize,
    /// Epsilon of every layer norm.
    pub layer_norm_eps: f64,
}

/// One transformer block.
struct Block {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    up: Linear,
    down: Linear,
    output_norm: LayerNorm,
}

/// The encoder: embeddings, then the blocks.
pub struct Bert {
    words: Embedding,
    positions: Embedding,
    token_types: Embedding,
    embedding_norm: LayerNorm,
    blocks: Vec<Block>,
    heads: usize,
}

impl Bert {
    /// Reads the weights (`embeddings.*`, `encoder.layer.N.*`).
    pub fn load(vb: VarBuilder, c: &Config) -> Result<Self> {
        let h = c.hidden_size;
        if c.num_attention_heads == 0 || !h.is_multiple_of(c.num_attention_heads) {
            candle_core::bail!("{h} hidden units do not split into {} heads", c.num_attention_heads);
        }
        let norm = |vb: VarBuilder| layer_norm(h, c.layer_norm_eps, vb);
        let e = vb.pp("embeddings");
        let blocks = (0..c.num_hidden_layers)
            .map(|i| {
                let l = vb.pp(format!("encoder.layer.{i}"));
                let a = l.pp("attention");
                Ok(Block {
                    query: linear(h, h, a.pp("self.query"))?,
                    key: linear(h, h, a.pp("self.key"))?,
                    value: linear(h, h, a.pp("self.value"))?,
                    attention_out: linear(h, h, a.pp("output.dense"))?,
                    attention_norm: norm(a.pp("output.LayerNorm"))?,
                    up: linear(h, c.intermediate_size, l.pp("intermediate.dense"))?,
                    down: linear(c.intermediate_size, h, l.pp("output.dense"))?,
                    output_norm: norm(l.pp("output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Bert {
            words: embedding(c.vocab_size, h, e.pp("word_embeddings"))?,
            positions: embedding(c.max_position_embeddings, h, e.pp("position_embeddings"))?,
            token_types: embedding(c.type_vocab_size, h, e.pp("token_type_embeddings"))?,
            embedding_norm: norm(e.pp("LayerNorm"))?,
            blocks,
            heads: c.num_attention_heads,
        })
    }

    /// The last hidden states, `(texts, tokens, hidden)`, of token ids `(texts, tokens)`
    /// whose `mask` is 1 on real tokens and 0 on padding.
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (n, len) = ids.dims2()?;
        let positions = Tensor::arange(0u32, len as u32, ids.device())?
            .unsqueeze(0)?
            .broadcast_as((n, len))?;
        let mut x = self
            .words
            .forward(ids)?
            .add(&self.positions.forward(&positions)?)?
            .add(&self.token_types.forward(&ids.zeros_like()?)?)?;
        x = self.embedding_norm.forward(&x)?;
        // Padding gets the lowest score before the softmax, so no weight: (n, 1, 1, len).
        let bias = mask
            .to_dtype(DType::F32)?
            .affine(-f64::from(f32::MIN), f64::from(f32::MIN))?
            .reshape((n, 1, 1, len))?;
        for b in &self.blocks {
            x = self.block(b, &x, &bias)?;
        }
        Ok(x)
    }

    fn block(&self, b: &Block, x: &Tensor, bias: &Tensor) -> Result<Tensor> {
        let (n, len, h) = x.dims3()?;
        let d = h / self.heads;
        let split = |t: Tensor| -> Result<Tensor> { t.reshape((n, len, self.heads, d))?.transpose(1, 2)?.contiguous() };
        let q = split(b.query.forward(x)?)?;
        let k = split(b.key.forward(x)?)?;
        let v = split(b.value.forward(x)?)?;
        let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?.broadcast_add(bias)?;
        let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
        let context = weights.matmul(&v)?.transpose(1, 2)?.reshape((n, len, h))?;
        let attended = b.attention_norm.forward(&b.attention_out.forward(&context)?.add(x)?)?;
        let inner = b.up.forward(&attended)?.gelu_erf()?;
        b.output_norm.forward(&b.down.forward(&inner)?.add(&attended)?)
    }
}
