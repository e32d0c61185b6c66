#!/usr/bin/env python3
"""Probe (tried and not kept, docs/CONSOLIDATION.md): can a classifier on the MiniLM
vectors of a candidate pair rescue replacements the offline judgement leaves unlinked?

A logistic regression on [new - old, new * old, new, the judgement's features, its score,
rank 0] is trained leave-one-writer-out over the supersession sets' judged candidates;
for each newer note the judgement left unlinked, its best candidate is linked when the
classifier's probability reaches a bar. Counted per left-out set: true links gained,
wrong targets, false links on hard negatives, links between unlabelled notes. Needs numpy.

    for s in "" -holdout -holdout2 -holdout3 -holdout4 -holdout5 -holdout6 -holdout7 -holdout8 -holdout9; do
      subcog eval supersession data/supersession$s --json --candidates --details > /tmp/sp/c$s.json
    done
    python3 tools/supersession_pair_probe.py prep /tmp/sp          # writes /tmp/sp/import.jsonl
    SUBCOG_DATA_DIR=/tmp/sp/data subcog import --allow-new-namespace /tmp/sp/import.jsonl
    python3 tools/supersession_pair_probe.py run /tmp/sp dpnf 0.01
"""

import collections
import glob
import json
import os
import sqlite3
import sys

SETS = ["", "-holdout", "-holdout2", "-holdout3", "-holdout4", "-holdout5", "-holdout6", "-holdout7", "-holdout8", "-holdout9"]


def prep(d):
    texts = set()
    for s in SETS:
        for r in json.load(open(os.path.join(d, "c%s.json" % s)))["candidates"]:
            texts.update((r["older"], r["newer"]))
    texts = sorted(texts)
    json.dump(texts, open(os.path.join(d, "texts.json"), "w"))
    with open(os.path.join(d, "import.jsonl"), "w") as w:
        for i, t in enumerate(texts):
            w.write(json.dumps({"content": t, "namespace": "learnings", "tags": ["t-%d" % i]}) + "\n")


def run(d, mode, l2):
    import numpy as np

    texts = json.load(open(os.path.join(d, "texts.json")))
    idx = {t: i for i, t in enumerate(texts)}
    V = np.zeros((len(texts), 384))
    db = sqlite3.connect(glob.glob(os.path.join(d, "data", "**", "subcog.db"), recursive=True)[0])
    for tags, blob in db.execute("select m.tags, e.vector from memories m join memory_embeddings e on e.memory_id = m.id"):
        for t in json.loads(tags):
            if t.startswith("t-"):
                V[int(t[2:])] = np.frombuffer(blob, dtype="<f4")
    data = {}
    for s in SETS:
        rep = json.load(open(os.path.join(d, "c%s.json" % s)))
        data[s] = (rep["candidates"], {x["newer"]: x for x in rep["details"]}, rep["splits"]["all"])

    def feats(r):
        o, n = V[idx[r["older"]]], V[idx[r["newer"]]]
        parts = []
        if "d" in mode:
            parts.append(n - o)
        if "p" in mode:
            parts.append(n * o)
        if "n" in mode:
            parts.append(n)
        if "f" in mode:
            parts.append(np.array(r["features"] + [r["score"], float(r["rank"] == 0)]))
        return np.concatenate(parts)

    def fit(X, y):
        mu, sd = X.mean(0), X.std(0) + 1e-6
        Z = (X - mu) / sd
        w, b = np.zeros(X.shape[1]), 0.0
        pos = y.sum()
        sw = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * (len(y) - pos)))
        for _ in range(400):
            p = 1 / (1 + np.exp(-np.clip(Z @ w + b, -30, 30)))
            g = (p - y) * sw
            w -= Z.T @ g / len(y) + l2 * w
            b -= g.mean()
        return lambda X2: 1 / (1 + np.exp(-np.clip(((X2 - mu) / sd) @ w + b, -30, 30)))

    bars = [0.5, 0.7, 0.8, 0.9, 0.95, 0.98]
    total = collections.defaultdict(lambda: [0, 0, 0, 0])
    for s in SETS:
        train = [r for t in SETS if t != s for r in data[t][0]]
        model = fit(np.array([feats(r) for r in train]), np.array([float(r["label"]) for r in train]))
        rows, det, base = data[s]
        probs = model(np.array([feats(r) for r in rows]))
        by_newer = collections.defaultdict(list)
        for r, p in zip(rows, probs):
            by_newer[r["newer"]].append((r, p))
        for bar in bars:
            for newer, cands in by_newer.items():
                dd = det.get(newer)
                linked = (dd["linked"] or bool(dd["wrong"])) if dd else any(r["score"] >= 0.9 and r["linkable"] for r, _ in cands)
                if linked:
                    continue
                r, p = max(cands, key=lambda x: x[1])
                if p < bar:
                    continue
                k = 0 if r["label"] else 1 if dd and dd["label"] == "supersedes" else 2 if dd else 3
                total[bar][k] += 1
        print("%-10s recall %.3f precision %.3f (the judgement)" % (s or "first", base["recall"], base["precision"]))
    for bar in bars:
        tp, wrong, false, other = total[bar]
        print("bar %.2f: +%d true links, %d wrong targets, %d false links, %d between unlabelled notes" % (bar, tp, wrong, false, other))


if __name__ == "__main__":
    if sys.argv[1] == "prep":
        prep(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3], float(sys.argv[4]))
