#!/usr/bin/env python3
"""Reference embeddings for all-MiniLM-L6-v2, computed independently of candle.

A from-scratch NumPy (float64) forward pass of the BERT encoder followed by
sentence-transformers' pipeline: tokenizer truncation at 256 (sentence_bert_config's
max_seq_length), mean pooling over the attention mask, L2 normalization, exact erf GELU.
Its output for "hello world" matches the first values published for sentence-transformers
(-0.0345, 0.0310, 0.0067, 0.0261, -0.0394), which anchors this reference.

Usage (needs numpy, tokenizers, safetensors in a virtualenv; not part of the build):
    python tools/reference_embeddings.py MODEL_DIR > crates/subcog-core/tests/fixtures/minilm_reference.json
"""
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = [
    "hello world",
    "Use PostgreSQL for primary storage",
    "which database did we pick",
    "Caroline said she went to the LGBTQ support group yesterday.",
    "Die Datenbank läuft jetzt auf PostgreSQL, nicht mehr auf MySQL.",
    "東京のチームはRustを使っています。",
    "Deploy failed 🚀 because the TLS cert (*.example.com) expired on 2023-05-08!",
    # Between 128 and 256 tokens: catches tokenizer.json's shipped truncation at 128.
    " ".join(["The retry loop in the upload worker backs off exponentially and gives up after five attempts."] * 9),
    # Over 256 tokens: must be truncated at 256, like sentence-transformers.
    " ".join(["Consolidation clusters related memories, summarizes them and links superseded decisions."] * 25),
]


def layer_norm(x, w, b, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu_erf(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(weights, config, ids):
    w = lambda name: weights[name].astype(np.float64)  # noqa: E731
    n = len(ids)
    h = w("embeddings.word_embeddings.weight")[ids]
    h = h + w("embeddings.position_embeddings.weight")[:n]
    h = h + w("embeddings.token_type_embeddings.weight")[0]
    h = layer_norm(h, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
    heads = config["num_attention_heads"]
    size = config["hidden_size"] // heads
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda x, name: x @ w(p + name + ".weight").T + w(p + name + ".bias")  # noqa: E731
        q = lin(h, "attention.self.query").reshape(n, heads, size).transpose(1, 0, 2)
        k = lin(h, "attention.self.key").reshape(n, heads, size).transpose(1, 0, 2)
        v = lin(h, "attention.self.value").reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = scores - scores.max(-1, keepdims=True)
        probs = np.exp(scores)
        probs = probs / probs.sum(-1, keepdims=True)
        ctx = (probs @ v).transpose(1, 0, 2).reshape(n, heads * size)
        h = layer_norm(lin(ctx, "attention.output.dense") + h,
                       w(p + "attention.output.LayerNorm.weight"), w(p + "attention.output.LayerNorm.bias"))
        inter = gelu_erf(lin(h, "intermediate.dense"))
        h = layer_norm(lin(inter, "output.dense") + h, w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias"))
    pooled = h.mean(0)  # a single unpadded sequence: every token is in the mask
    return pooled / np.linalg.norm(pooled)


def main():
    model_dir = sys.argv[1]
    config = json.load(open(f"{model_dir}/config.json"))
    weights = load_file(f"{model_dir}/model.safetensors")
    weights = {k.removeprefix("bert."): v for k, v in weights.items()}
    tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(256)
    out = []
    for s in SENTENCES:
        enc = tok.encode(s)
        vec = encode(weights, config, np.array(enc.ids))
        out.append({"text": s, "tokens": len(enc.ids), "embedding": [round(float(x), 8) for x in vec]})
    json.dump({"model": "sentence-transformers/all-MiniLM-L6-v2", "dimension": 384, "sentences": out}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
