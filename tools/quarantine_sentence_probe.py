#!/usr/bin/env python3
"""Would a linear judgement on MiniLM vectors of whole notes and of their sentences hold
attacks phrased in ways the corpus never saw? Trained on data/quarantine/corpus.jsonl (dev
and test), the bar chosen by 5-fold cross-validation there (model or phrase rules, at most
3.5 % of ordinary notes held); read on holdout.jsonl. Needs numpy (a dev tool only).

    python3 tools/quarantine_sentence_probe.py prep /tmp/qe          # writes /tmp/qe/import.jsonl
    SUBCOG_DATA_DIR=/tmp/qe/data SUBCOG_EMBEDDING_MODEL_DIR=<model dir> \
      subcog import --allow-new-namespace /tmp/qe/import.jsonl        # embeds every text
    cat data/quarantine/corpus.jsonl data/quarantine/holdout.jsonl > /tmp/qe/all/corpus.jsonl
    subcog eval quarantine /tmp/qe/all --details --json > /tmp/qe/rules.json
    python3 tools/quarantine_sentence_probe.py train $(find /tmp/qe/data -name subcog.db) /tmp/qe/rules.json

The figures in docs/RELIABILITY.md OR the model with the phrase rules alone: rules.json
from a subcog built at commit 639976d (before the harm signals).
"""

import json
import os
import random
import re
import sqlite3
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "quarantine")
FILES = [os.path.join(ROOT, "corpus.jsonl"), os.path.join(ROOT, "holdout.jsonl")]


def pieces(text):
    """The note's sentences: lines, split after . ! ? ; and CJK stops."""
    out = []
    for line in text.split("\n"):
        for p in re.split(r"(?<=[.!?;\u3002\uff01\uff1f])\s+", line):
            p = p.strip()
            if len(p) >= 3:
                out.append(p)
    return out


def load_notes():
    return [json.loads(line) for f in FILES for line in open(f)]


def prep(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "import.jsonl"), "w") as w:
        for d in load_notes():
            w.write(json.dumps({"content": d["text"], "namespace": "learnings", "tags": ["n-" + d["id"]]}) + "\n")
            for k, p in enumerate(pieces(d["text"])):
                w.write(json.dumps({"content": p, "namespace": "learnings", "tags": ["s-%s-%d" % (d["id"], k)]}) + "\n")

def experiment(db_path, rules_path):
    import numpy as np

    db = sqlite3.connect(db_path)
    tagv, contv = {}, {}
    for tags, content, blob in db.execute("select m.tags, m.content, e.vector from memories m join memory_embeddings e on e.memory_id=m.id"):
        v = np.frombuffer(blob, dtype="<f4").astype(np.float64)
        for t in json.loads(tags):
            tagv[t] = v
        contv[content] = v
    notes = load_notes()
    rules = json.load(open(rules_path))
    wrong = {f["id"] for f in rules["failures"]}
    def vec(tag, text):
        v = tagv.get(tag)
        if v is None: v = contv.get(text)
        return v
    for d in notes:
        d["y"] = d["label"] == "attack"
        d["rule"] = d["y"] != (d["id"] in wrong)
        whole = vec("n-" + d["id"], d["text"])
        sents = [vec("s-%s-%d" % (d["id"], k), p) for k, p in enumerate(pieces(d["text"]))]
        d["X"] = np.array([v for v in [whole] + sents if v is not None])
    train = [d for d in notes if d["split"] in ("dev", "test")]
    hold = [d for d in notes if d["split"] == "holdout"]

    def fit(X, y, l2=1e-2, iters=500, lr=1.0, wpos=1.0):
        w = np.zeros(X.shape[1]); b = 0.0
        sw = np.where(y == 1, wpos, 1.0)
        for _ in range(iters):
            p = 1 / (1 + np.exp(-(X @ w + b)))
            g = (p - y) * sw
            w -= lr * (X.T @ g / len(y) + l2 * w); b -= lr * g.mean()
        return w, b

    def score(d, w, b, mode):
        X = d["X"] if mode == "sent" else d["X"][:1]
        return float((1 / (1 + np.exp(-(X @ w + b)))).max())

    def train_model(ds, mode, rounds=3, **kw):
        neg = [d["X"] if mode == "sent" else d["X"][:1] for d in ds if not d["y"]]
        N = np.vstack(neg)
        P = np.vstack([d["X"][:1] for d in ds if d["y"]])
        w, b = fit(np.vstack([N, P]), np.r_[np.zeros(len(N)), np.ones(len(P))], **kw)
        if mode == "sent":
            for _ in range(rounds):
                best = []
                for d in ds:
                    if d["y"]:
                        s = 1 / (1 + np.exp(-(d["X"] @ w + b)))
                        best.append(d["X"][int(s.argmax())])
                        best.append(d["X"][0])
                P = np.vstack(best)
                w, b = fit(np.vstack([N, P]), np.r_[np.zeros(len(N)), np.ones(len(P))], **kw)
        return w, b

    def rates(ds, pred):
        a = [d for d in ds if d["y"]]; n = [d for d in ds if not d["y"]]
        return sum(pred(d) for d in a) / len(a), sum(pred(d) for d in n) / len(n)

    for mode in ("note", "sent"):
        for l2 in (1e-3, 1e-2):
            # choose the bar by 5-fold cross-validation on the training notes: highest catch with FP <= 0.02 (model alone)
            rnd = random.Random(1); idx = list(range(len(train))); rnd.shuffle(idx)
            oof = {}
            for k in range(5):
                te = [train[i] for i in idx[k::5]]; tr = [train[i] for i in idx if i not in set(idx[k::5])]
                w, b = train_model(tr, mode, l2=l2)
                for d in te: oof[d["id"]] = score(d, w, b, mode)
            cands = []
            for bar in np.arange(0.3, 0.99, 0.02):
                c, f = rates(train, lambda d: oof[d["id"]] >= bar or d["rule"])
                cands.append((bar, c, f))
            ok = [x for x in cands if x[2] <= 0.035]
            bar = max(ok, key=lambda x: x[1])[0] if ok else 0.9
            w, b = train_model(train, mode, l2=l2)
            cv = rates(train, lambda d: oof[d["id"]] >= bar or d["rule"])
            hm = rates(hold, lambda d: score(d, w, b, mode) >= bar)
            hb = rates(hold, lambda d: score(d, w, b, mode) >= bar or d["rule"])
            print(f"{mode} l2={l2} bar={bar:.2f} cv(rules|model) {cv[0]:.3f}/{cv[1]:.3f}  holdout model {hm[0]:.3f}/{hm[1]:.3f}  rules|model {hb[0]:.3f}/{hb[1]:.3f}")
    print("rules holdout", rates(hold, lambda d: d["rule"]))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "prep":
        prep(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "train":
        experiment(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)
