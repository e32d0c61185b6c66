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

    python3 tools/calibrate_supersession.py candidates.json --select

chooses L2, the weight of negatives and the bar by 5-fold cross-validation inside the
development half (folds by newer note; about ten minutes) before fitting: the setting
with the best out-of-fold recall at out-of-fold precision >= 0.95. The test half stays
unseen until the final report.
"""

import json
import math
import sys
import zlib


def split_of(row):
    if row["split"] != "none":
        return row["split"]
    return "dev" if zlib.crc32(row["newer"].encode()) % 2 == 0 else "test"


def fit(rows, l2=0.02, steps=3000, lr=0.3, neg_weight=1.0):
    n = len(rows[0][0])
    mean = [sum(r[0][i] for r in rows) / len(rows) for i in range(n)]
    sd = [math.sqrt(sum((r[0][i] - mean[i]) ** 2 for r in rows) / len(rows)) or 1.0 for i in range(n)]
    z = [[(x[i] - mean[i]) / sd[i] for i in range(n)] for x, _ in rows]
    y = [1.0 if label else 0.0 for _, label in rows]
    pos = sum(y)
    wp, wn = len(y) / (2 * max(pos, 1)), neg_weight * len(y) / (2 * max(len(y) - pos, 1))
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


# Indices of `Features::vector` for the "another component" rule of `Features::linkable`.
LEFT, REPLACE, VALUE, CORRECT, RESOLVE, OTHER_COMPONENT = 8, 9, 10, 11, 12, 30


def vetoed(row):
    """Never linked offline (`Features::linkable`, dumped as `linkable`). Dumps older than
    that field get the "another component" rule only, which the vector holds."""
    if "linkable" in row:
        return not row["linkable"]
    x = row["features"]
    return x[OTHER_COMPONENT] and not any(x[i] for i in (LEFT, REPLACE, VALUE, CORRECT, RESOLVE))


def evaluate(rows, weights, threshold, split, probs=None):
    """Precision and recall of the per-newer choice; `probs` (row id -> probability)
    replaces the weights when given (out-of-fold scores)."""
    by_newer = {}
    for r in rows:
        by_newer.setdefault(r["newer"], []).append(r)
    tp = fp = fn = stray = 0
    for newer, cands in by_newer.items():
        if split_of(cands[0]) != split:
            continue
        scored = [
            (0.0 if vetoed(c) else probs[id(c)] if probs else prob(weights, c["features"]), c)
            for c in cands
        ]
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


GRID_L2 = (0.005, 0.02, 0.05, 0.1)
GRID_NEG = (1.0, 2.0, 4.0)
THRESHOLDS = [round(0.5 + 0.01 * k, 2) for k in range(48)]
FOLDS = 5


def select(rows, floor=0.95):
    """Chooses L2, the weight of negatives and the bar by 5-fold cross-validation on the
    development half only (folds by newer note): the setting whose out-of-fold recall is
    highest at out-of-fold precision >= floor."""
    dev = [r for r in rows if split_of(r) == "dev"]
    fold = {id(r): zlib.crc32(("fold" + r["newer"]).encode()) % FOLDS for r in dev}
    best = None
    for l2 in GRID_L2:
        for neg in GRID_NEG:
            probs = {}
            for k in range(FOLDS):
                train = [(r["features"], r["label"]) for r in dev if fold[id(r)] != k]
                w = fit(train, l2=l2, steps=1500, neg_weight=neg)
                for r in dev:
                    if fold[id(r)] == k:
                        probs[id(r)] = prob(w, r["features"])
            for t in THRESHOLDS:
                e = evaluate(dev, None, t, "dev", probs)
                if e["precision"] >= floor and (best is None or e["recall"] > best[0]["recall"]):
                    best = (e, l2, neg, t)
            print(f"l2 {l2} neg {neg}: best so far {best[0] if best else None} at {best[1:] if best else None}", file=sys.stderr)
    return best


def main():
    report = json.load(open(sys.argv[1]))
    rows = report["candidates"]
    if "--select" in sys.argv:
        e, l2, neg, t = select(rows)
        print(f"chosen by cross-validation on dev: l2 {l2}, negatives x{neg}, bar {t}; out-of-fold {e}")
    else:
        l2, neg, t = 0.02, 1.0, 0.9
    train = [(r["features"], r["label"]) for r in rows if split_of(r) == "dev"]
    weights = fit(train, l2=l2, neg_weight=neg)
    for th in sorted({0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, t}):
        mark = " <- bar" if th == t else ""
        print(th, "dev", evaluate(rows, weights, th, "dev"), "test", evaluate(rows, weights, th, "test"), mark)
    print("WEIGHTS =", "[" + ", ".join(f"{w:.3f}" for w in weights) + "]")


if __name__ == "__main__":
    main()
