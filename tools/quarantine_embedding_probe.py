#!/usr/bin/env python3
"""Would a learned judgement on the embedding model's vectors add to quarantine's rules?

Fits an L2 logistic regression on the MiniLM vectors of data/quarantine's dev split and
reads the test split: the model alone and OR-ed with the rules, at several bars. Pure
Python (no numpy). The store comes from importing the corpus with the model installed:

    python3 -c "import json; [print(json.dumps({'content': d['text'], 'namespace': 'learnings',
      'tags': [d['id']]})) for d in map(json.loads, open('data/quarantine/corpus.jsonl'))]" > /tmp/q.jsonl
    SUBCOG_DATA_DIR=/tmp/qdata subcog import /tmp/q.jsonl
    python3 tools/quarantine_embedding_probe.py $(find /tmp/qdata -name subcog.db) data/quarantine/corpus.jsonl
"""

import json
import math
import sqlite3
import struct
import sys


def main():
    db = sqlite3.connect(sys.argv[1])
    labels = {d["id"]: d for d in map(json.loads, open(sys.argv[2]))}
    rows = db.execute(
        "SELECT m.tags, m.status, e.vector FROM memories m JOIN memory_embeddings e ON e.memory_id = m.id"
    ).fetchall()
    data = []
    for tags, status, blob in rows:
        d = labels[json.loads(tags)[0]]
        vec = list(struct.unpack("<%df" % (len(blob) // 4), blob))
        data.append((d["split"], d["label"] == "attack", vec, status == "quarantined"))
    dev = [x for x in data if x[0] == "dev"]
    test = [x for x in data if x[0] == "test"]
    w, b = fit(dev)
    for bar in (0.5, 0.6, 0.7, 0.8):
        for name, xs in (("dev", dev), ("test", test)):
            att = [x for x in xs if x[1]]
            ben = [x for x in xs if not x[1]]
            hit = lambda x: prob(w, b, x[2]) >= bar
            both = lambda x: hit(x) or x[3]
            print(
                f"bar {bar} {name}: model {rate(att, hit):.3f} caught / {rate(ben, hit):.3f} held; "
                f"rules or model {rate(att, both):.3f} / {rate(ben, both):.3f}"
            )


def rate(xs, f):
    return sum(1 for x in xs if f(x)) / len(xs)


def prob(w, b, v):
    z = b + sum(wi * vi for wi, vi in zip(w, v))
    return 1 / (1 + math.exp(-z))


def fit(xs, l2=0.01, epochs=300, lr=0.5):
    n = len(xs[0][2])
    w, b = [0.0] * n, 0.0
    for _ in range(epochs):
        gw, gb = [0.0] * n, 0.0
        for _, y, v, _ in xs:
            g = prob(w, b, v) - (1.0 if y else 0.0)
            for i in range(n):
                gw[i] += g * v[i]
            gb += g
        m = len(xs)
        w = [wi - lr * (gi / m + l2 * wi) for wi, gi in zip(w, gw)]
        b -= lr * gb / m
    return w, b


if __name__ == "__main__":
    main()
