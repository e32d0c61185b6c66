#!/usr/bin/env python3
"""Fits the weights of subcog's offline supersession judgement
(crates/subcog-core/src/consolidate/supersede/features.rs) on the development half of a
labelled set, and reports both halves.

    subcog eval supersession data/supersession --json --candidates > candidates.json
    python3 tools/calibrate_supersession.py candidates.json

Every judged candidate pair comes with its evidence and its label. A logistic regression
(plain gradient descent, L2, classes balanced) is fitted on the rows whose newer note
belongs to a dev pair or chain, plus half of the unlabelled notes' rows (every other newer
note: they must not supersede anything). Then, per newer note, the best candidate at or
above a threshold is taken as its supersession, as consolidation does, and precision and
recall are reported per split for a range of thresholds. The test half is never fitted on.
Prints the weights in the order of `WEIGHTS` (intercept first) for features.rs.
"""

import json
import math
import sys
import zlib


def split_of(row):
    if row["split"] != "none":
        return row["split"]
    return "dev" if zlib.crc32(row["newer"].encode()) % 2 == 0 else "test"


def fit(rows, l2=0.02, steps=3000, lr=0.3):
    n = len(rows[0][0])
    mean = [sum(r[0][i] for r in rows) / len(rows) for i in range(n)]
    sd = [math.sqrt(sum((r[0][i] - mean[i]) ** 2 for r in rows) / len(rows)) or 1.0 for i in range(n)]
    z = [[(x[i] - mean[i]) / sd[i] for i in range(n)] for x, _ in rows]
    y = [1.0 if label else 0.0 for _, label in rows]
    pos = sum(y)
    wp, wn = len(y) / (2 * max(pos, 1)), len(y) / (2 * max(len(y) - pos, 1))
    w = [0.0] * n
    b = 0.0
    for _ in range(steps):
        gw = [0.0] * n
        gb = 0.0
        for zi, yi in zip(z, y):
            p = 1 / (1 + math.exp(-max(-30, min(30, b + sum(a * c for a, c in zip(w, zi))))))
            g = (p - yi) * (wp if yi else wn)
            gb += g
            for k in range(n):
                gw[k] += g * zi[k]
        b -= lr * gb / len(y)
        for k in range(n):
            w[k] -= lr * (gw[k] / len(y) + l2 * w[k])
    raw_w = [w[k] / sd[k] for k in range(n)]
    raw_b = b - sum(w[k] * mean[k] / sd[k] for k in range(n))
    return [raw_b] + raw_w


def prob(weights, x):
    z = weights[0] + sum(a * c for a, c in zip(weights[1:], x))
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


def evaluate(rows, weights, threshold, split):
    by_newer = {}
    for r in rows:
        by_newer.setdefault(r["newer"], []).append(r)
    tp = fp = fn = stray = 0
    for newer, cands in by_newer.items():
        if split_of(cands[0]) != split:
            continue
        scored = [(prob(weights, c["features"]), c) for c in cands]
        best = max(scored, key=lambda s: s[0])
        chosen = best[1] if best[0] >= threshold else None
        has_positive = any(c["label"] for c in cands)
        if chosen is not None and chosen["label"]:
            tp += 1
        elif chosen is not None:
            fp += 1
            if cands[0]["split"] == "none":
                stray += 1
        if has_positive and (chosen is None or not chosen["label"]):
            fn += 1
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "tp": tp, "fp": fp, "fn": fn, "stray": stray}


def main():
    report = json.load(open(sys.argv[1]))
    rows = report["candidates"]
    train = [(r["features"], r["label"]) for r in rows if split_of(r) == "dev"]
    weights = fit(train)
    for t in (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95):
        print(t, "dev", evaluate(rows, weights, t, "dev"), "test", evaluate(rows, weights, t, "test"))
    print("WEIGHTS =", "[" + ", ".join(f"{w:.3f}" for w in weights) + "]")


if __name__ == "__main__":
    main()
