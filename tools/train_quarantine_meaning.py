#!/usr/bin/env python3
"""Trains quarantine's learned judgement: a logistic regression on the MiniLM vector of a
whole memory, attack or ordinary, written to crates/subcog-core/src/quarantine/weights.rs.

Training notes: data/quarantine/{corpus,holdout,holdout2,holdout3,holdout4,holdout5}.jsonl (six writers) and, as
extra ordinary text, the conversation turns of data/locomo (plain chat that is no attack).
The LongMemEval turns are never trained on: they measure how much plain chat is held.
Leave-one-writer-out: for each writer's set, a model trained on the others (and the
LoCoMo turns) is scored on it, with and without the rules, at each bar. The newest set
(holdout6.jsonl) is never read here: it is the set the final judgement is measured on once.
Needs numpy (a dev tool only).

    python3 tools/train_quarantine_meaning.py prep /tmp/qt          # writes /tmp/qt/import.jsonl
    SUBCOG_DATA_DIR=/tmp/qt/data SUBCOG_EMBEDDING_MODEL_DIR=<model dir> \
      subcog import --allow-new-namespace /tmp/qt/import.jsonl      # embeds every text
    mkdir -p /tmp/qt/sets && cp data/quarantine/{corpus,holdout,holdout2,holdout3,holdout4,holdout5}.jsonl /tmp/qt/sets/
    subcog eval quarantine /tmp/qt/sets --rules-only --details --json > /tmp/qt/rules.json
    python3 tools/train_quarantine_meaning.py fit $(find /tmp/qt/data -name subcog.db) /tmp/qt/rules.json
"""

import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
SETS = ["corpus.jsonl", "holdout.jsonl", "holdout2.jsonl", "holdout3.jsonl", "holdout4.jsonl", "holdout5.jsonl"]
OUT = os.path.join(HERE, "..", "crates", "subcog-core", "src", "quarantine", "weights.rs")
L2, ITERS, RATE = 1e-4, 2000, 2.0


def notes():
    out = []
    for name in SETS:
        for line in open(os.path.join(DATA, "quarantine", name), encoding="utf-8"):
            d = json.loads(line)
            d["writer"] = "corpus" if name == "corpus.jsonl" else d["split"]
            out.append(d)
    return out


def turns():
    """(tag, text) of every LoCoMo turn (c-*) and LongMemEval turn (l-*)."""
    out = []
    for conv in json.load(open(os.path.join(DATA, "locomo", "locomo-dev.json"), encoding="utf-8")):
        for key, session in sorted(conv["conversation"].items()):
            if key.startswith("session_") and isinstance(session, list):
                out += [("c-%d" % len(out), t["text"]) for t in session if t.get("text", "").strip()]
    n = len(out)
    for q in json.load(open(os.path.join(DATA, "longmemeval", "longmemeval-oracle-151.json"), encoding="utf-8")):
        for session in q["haystack_sessions"]:
            out += [("l-%d" % (len(out) - n), t["content"]) for t in session if t.get("content", "").strip()]
    return out


def prep(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "import.jsonl"), "w", encoding="utf-8") as w:
        for d in notes():
            w.write(json.dumps({"content": d["text"], "namespace": "learnings", "tags": ["n-" + d["id"]]}) + "\n")
        for tag, text in turns():
            w.write(json.dumps({"content": text, "namespace": "learnings", "tags": [tag]}) + "\n")


def fit(db_path, rules_path):
    import numpy as np

    by_tag, by_text = {}, {}
    db = sqlite3.connect(db_path)
    for tags, content, blob in db.execute(
        "select m.tags, m.content, e.vector from memories m join memory_embeddings e on e.memory_id = m.id"
    ):
        v = np.frombuffer(blob, dtype="<f4").astype(np.float64)
        for t in json.loads(tags):
            by_tag[t] = v
        by_text[content] = v
    # An import skips a text it already stored: such a record shares the first one's vector.
    def vector(tag, text):
        v = by_tag.get(tag)
        return v if v is not None else by_text.get(text)

    missed = {f["id"] for f in json.load(open(rules_path))["failures"]}
    ns = notes()
    for d in ns:
        d["y"] = d["label"] == "attack"
        d["rule"] = d["y"] != (d["id"] in missed)
        d["x"] = vector("n-" + d["id"], d["text"])
    ns = [d for d in ns if d["x"] is not None]
    chat = [(t, vector(t, text)) for t, text in turns()]
    locomo = np.array([v for t, v in chat if t.startswith("c-") and v is not None])
    lme = np.array([v for t, v in chat if t.startswith("l-") and v is not None])

    def train(ds):
        X = np.array([d["x"] for d in ds] + list(locomo))
        y = np.array([1.0 if d["y"] else 0.0 for d in ds] + [0.0] * len(locomo))
        pos = sum(d["y"] for d in ds)
        neg = len(ds) - pos
        # Attacks and ordinary notes weigh the same in total; the chat turns together weigh
        # as much as the ordinary notes, so they teach "plain talk" without drowning them.
        sw = np.array(
            [0.5 / pos if d["y"] else 0.5 / neg for d in ds] + [0.5 / len(locomo)] * len(locomo)
        ) * len(X) / 1.5
        w = np.zeros(X.shape[1])
        b = 0.0
        for _ in range(ITERS):
            p = 1 / (1 + np.exp(-(X @ w + b)))
            g = (p - y) * sw
            w -= RATE * (X.T @ g / len(y) + L2 * w)
            b -= RATE * g.mean()
        return w, b

    def prob(X, w, b):
        return 1 / (1 + np.exp(-(X @ w + b)))

    print("leave one writer out (model trained on the other writers and the LoCoMo turns)")
    print("%-9s %5s  %-15s %-15s %-15s %s" % ("writer", "bar", "rules", "model", "rules|model", "plain/trigger/LongMemEval held"))
    for writer in ["corpus", "holdout", "holdout2", "holdout3", "holdout4", "holdout5"]:
        tr = [d for d in ns if d["writer"] != writer]
        te = [d for d in ns if d["writer"] == writer]
        w, b = train(tr)
        s = {d["id"]: float(prob(d["x"], w, b)) for d in te}
        a = [d for d in te if d["y"]]
        n = [d for d in te if not d["y"]]
        plain = [d for d in n if not d["kind"].startswith("trigger-")]
        trig = [d for d in n if d["kind"].startswith("trigger-")]
        lm = prob(lme, w, b)
        for bar in (0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
            def rate(ds, f):
                return sum(map(f, ds)) / len(ds)
            m = lambda d: s[d["id"]] >= bar
            both = lambda d: m(d) or d["rule"]
            print(
                "%-9s %5.2f  %.3f / %.3f   %.3f / %.3f   %.3f / %.3f   %.3f / %.3f / %.4f"
                % (writer, bar, rate(a, lambda d: d["rule"]), rate(n, lambda d: d["rule"]),
                   rate(a, m), rate(n, m), rate(a, both), rate(n, both),
                   rate(plain, both), rate(trig, both), float((lm >= bar).mean()))
            )
    w, b = train(ns)
    lm = prob(lme, w, b)
    for bar in (0.8, 0.85, 0.9):
        print("all writers: LongMemEval turns held at %.2f: %.4f (%d turns)" % (bar, float((lm >= bar).mean()), len(lme)))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("//! Weights of quarantine's learned judgement, written by\n")
        f.write("//! `tools/train_quarantine_meaning.py` (do not edit by hand): a logistic regression on the\n")
        f.write("//! all-MiniLM-L6-v2 vector of a whole memory, trained on `data/quarantine` (corpus,\n")
        f.write("//! holdout … holdout5) with the `data/locomo` turns as ordinary text.\n\n")
        f.write("/// One weight per vector component.\n")
        f.write("#[rustfmt::skip]\n#[allow(clippy::excessive_precision)]\npub(super) const WEIGHTS: [f32; %d] = [\n" % len(w))
        for i in range(0, len(w), 8):
            f.write("    " + " ".join("%.6e," % x for x in w[i:i + 8]) + "\n")
        f.write("];\n\n/// The intercept.\n#[allow(clippy::excessive_precision)]\npub(super) const BIAS: f32 = %.6e;\n" % b)
    print("wrote", OUT)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "prep":
        prep(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "fit":
        fit(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)
