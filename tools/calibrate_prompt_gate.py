#!/usr/bin/env python3
"""Fits the weights of subcog's prompt-recall gate (crates/subcog-core/src/hooks/prompt.rs)
on the development half of a labelled prompt set, and reports that half, the other half
and, when given, a second set the fit never saw.

    subcog eval prompts data/prompt-recall --json --details > a.json
    subcog eval prompts data/prompt-recall-b --json --details > b.json
    SUBCOG_EMBEDDING_MODEL_DIR=/nonexistent subcog eval prompts data/prompt-recall --json --details > a-kw.json
    SUBCOG_EMBEDDING_MODEL_DIR=/nonexistent subcog eval prompts data/prompt-recall-b --json --details > b-kw.json
    python3 tools/calibrate_prompt_gate.py a.json b.json a-kw.json b-kw.json

For each judged candidate the eval reports its evidence (similarity, standout, keyword
share and information, entity match) and whether the label says it helps. A logistic
regression (plain gradient descent, L2, classes balanced) is fitted on the dev split's
candidates: with the model on all five inputs, without it on the three keyword and entity
inputs. The threshold is then chosen on dev to maximize F1 of injection precision and
prompt recall (at most `MAX` memories per prompt, as the hook injects), and the intercept
is shifted so that the threshold becomes 0.5 (`hooks.prompt_min_evidence`). Nothing is
fitted on the test half or on the second set.
"""

import json
import math
import sys

MAX = 2


def load(path):
    report = json.load(open(path))
    return report["details"]


def features(c, semantic):
    e = c["evidence"]
    entity = 1.0 if e.get("entity") else 0.0
    if semantic:
        # With the model the entity match only repeats the keywords it overlaps with: fitted,
        # its weight came out slightly negative and moved no held-out figure, so it is 0.
        entity = 0.0
        return [e["similarity"] or 0.0, e["standout"] or 0.0, e["keyword_share"], e["keyword_info"], entity]
    return [e["keyword_share"], e["keyword_info"], entity]


def fit(rows, l2=0.01, steps=4000, lr=0.5):
    n = len(rows[0][0])
    mean = [sum(r[0][i] for r in rows) / len(rows) for i in range(n)]
    sd = [math.sqrt(sum((r[0][i] - mean[i]) ** 2 for r in rows) / len(rows)) or 1.0 for i in range(n)]
    w = [0.0] * (n + 1)
    pos = sum(1 for _, y in rows if y)
    # Balance the classes: relevant candidates are rare.
    wpos, wneg = len(rows) / (2 * max(pos, 1)), len(rows) / (2 * max(len(rows) - pos, 1))
    for _ in range(steps):
        grad = [0.0] * (n + 1)
        for x, y in rows:
            z = w[0] + sum(w[i + 1] * (x[i] - mean[i]) / sd[i] for i in range(n))
            p = 1 / (1 + math.exp(-max(-30, min(30, z))))
            g = (p - y) * (wpos if y else wneg)
            grad[0] += g
            for i in range(n):
                grad[i + 1] += g * (x[i] - mean[i]) / sd[i]
        for i in range(n + 1):
            reg = l2 * w[i] if i else 0.0
            w[i] -= lr * (grad[i] / len(rows) + reg)
    # Back to raw feature units.
    return [w[0] - sum(w[i + 1] * mean[i] / sd[i] for i in range(n))] + [w[i + 1] / sd[i] for i in range(n)]


def score(w, x):
    z = w[0] + sum(wi * xi for wi, xi in zip(w[1:], x))
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


def evaluate(details, w, threshold, semantic, split=None):
    injected = injected_rel = hits = relevant = irrelevant = silent = 0
    for d in details:
        if split and d["split"] != split:
            continue
        # Strongest evidence first, as the hook does.
        scored = sorted(((score(w, features(c, semantic)), c) for c in d["candidates"]), key=lambda s: -s[0])
        chosen = [c for s, c in scored if s >= threshold][:MAX]
        injected += len(chosen)
        rel = sum(1 for c in chosen if c["relevant"])
        injected_rel += rel
        if d["relevant"]:
            relevant += 1
            hits += rel > 0
        else:
            irrelevant += 1
            silent += not chosen
    p = injected_rel / injected if injected else 0.0
    r = hits / relevant if relevant else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "silence": round(silent / max(irrelevant, 1), 3),
            "f1": round(f1, 3), "injected": injected}


def calibrate(name, semantic, main, second):
    details = load(main)
    rows = [(features(c, semantic), c["relevant"]) for d in details if d["split"] == "dev" for c in d["candidates"]]
    w = fit(rows)
    _, threshold = max((evaluate(details, w, t / 100, semantic, "dev")["f1"], t / 100) for t in range(5, 96))
    shifted = [w[0] - math.log(threshold / (1 - threshold))] + w[1:]
    print(f"{name}: threshold {threshold}; weights for prompt.rs (0.5 is the threshold): "
          + "[" + ", ".join(f"{x:.3f}" for x in shifted) + "]")
    for split in ("dev", "test"):
        print(f"  {split}: {evaluate(details, w, threshold, semantic, split)}")
    if second:
        print(f"  second set (all): {evaluate(load(second), w, threshold, semantic)}")


def main():
    args = sys.argv[1:]
    semantic_a, semantic_b, keywords_a, keywords_b = (args + [None] * 4)[:4]
    calibrate("with the model", True, semantic_a, semantic_b)
    if keywords_a:
        calibrate("keywords only", False, keywords_a, keywords_b)


if __name__ == "__main__":
    main()
