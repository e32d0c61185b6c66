#!/usr/bin/env python3
"""Validate the holdout5 supersession dataset files."""
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
NAMESPACES = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
KIND_COUNTS = {
    "supersedes": {"replacement": 35, "value-change": 30, "version": 18, "correction": 17,
                   "resolved-blocker": 15, "personal-fact": 15},
    "not": {"addition": 16, "kept": 16, "rejected-proposal": 15, "different-subject": 18,
            "part-change": 15, "refinement": 15, "unrelated-with-marker": 15},
}
MARKER = re.compile(r"\b(switch\w*|migrat\w*|replac\w*|mov(e|ed|es|ing)|instead|no longer|now|chang\w*|anymore)\b"
                    r"|\bfrom \S+ to \S+", re.I)
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except Exception as e:  # noqa: BLE001
                err("%s line %d does not parse: %s" % (name, n, e))
    return rows


def nonempty(row, fields, where):
    for k in fields:
        v = row.get(k)
        if v is None or (isinstance(v, (str, list)) and len(v) == 0):
            err("%s: field %r missing or empty" % (where, k))


pairs = load("pairs.jsonl")
chains = load("chains.jsonl")
filler = load("filler.jsonl")

# pairs
if len(pairs) != 240:
    err("expected 240 pairs, got %d" % len(pairs))
ids = [p.get("id") for p in pairs]
if sorted(ids) != ["m%03d" % i for i in range(1, 241)]:
    err("pair ids are not exactly m001..m240 (unique)")
for p in pairs:
    nonempty(p, ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"], p.get("id"))
    if p.get("namespace") not in NAMESPACES:
        err("%s: bad namespace %r" % (p.get("id"), p.get("namespace")))
    if p.get("label") not in KIND_COUNTS:
        err("%s: bad label %r" % (p.get("id"), p.get("label")))
    elif p.get("kind") not in KIND_COUNTS[p["label"]]:
        err("%s: kind %r not valid for label %r" % (p.get("id"), p.get("kind"), p.get("label")))
    if p.get("split") != "holdout5":
        err("%s: split must be holdout5" % p.get("id"))
kc = Counter((p.get("label"), p.get("kind")) for p in pairs)
for label, kinds in KIND_COUNTS.items():
    for kind, n in kinds.items():
        if kc[(label, kind)] != n:
            err("count %s/%s = %d, expected %d" % (label, kind, kc[(label, kind)], n))
lc = Counter(p.get("label") for p in pairs)
domains = {p.get("domain") for p in pairs}
if not 30 <= len(domains) <= 70:
    err("distinct domains = %d, expected 30..70" % len(domains))

# chains
if len(chains) != 12:
    err("expected 12 chains, got %d" % len(chains))
if sorted(c.get("id") for c in chains) != ["k%02d" % i for i in range(1, 13)]:
    err("chain ids are not exactly k01..k12 (unique)")
for c in chains:
    nonempty(c, ["id", "notes", "namespace", "split"], c.get("id"))
    if c.get("namespace") not in NAMESPACES:
        err("%s: bad namespace" % c.get("id"))
    if c.get("split") != "holdout5":
        err("%s: split must be holdout5" % c.get("id"))
    notes = c.get("notes") or []
    if len(notes) != 3 or not all(isinstance(t, str) and t.strip() for t in notes):
        err("%s: must have 3 non-empty notes" % c.get("id"))

# filler
if len(filler) != 120:
    err("expected 120 filler notes, got %d" % len(filler))
for i, f in enumerate(filler, 1):
    nonempty(f, ["text", "namespace"], "filler %d" % i)
    if f.get("namespace") not in NAMESPACES:
        err("filler %d: bad namespace" % i)

# duplicates
texts = [p["older"] for p in pairs] + [p["newer"] for p in pairs]
texts += [t for c in chains for t in c.get("notes", [])]
texts += [f["text"] for f in filler]
norm = lambda t: " ".join(t.lower().split())  # noqa: E731
for label, key in (("exact", lambda t: t), ("normalised", norm)):
    dup = [t for t, n in Counter(key(t) for t in texts).items() if n > 1]
    if dup:
        err("%d duplicated note texts (%s), e.g. %r" % (len(dup), label, dup[0]))
if len(set(map(norm, texts))) != 636:
    err("expected 636 distinct note texts, got %d" % len(set(map(norm, texts))))

# marker words in superseding newer notes (at least 100 of 130 must be marker-free)
sup = [p for p in pairs if p.get("label") == "supersedes"]
marked = [p for p in sup if MARKER.search(p["newer"])]
if len(sup) - len(marked) < 100:
    err("only %d of %d superseding newer notes are marker-free" % (len(sup) - len(marked), len(sup)))

ns = Counter(p.get("namespace") for p in pairs)
print("pairs: %d  (supersedes %d, not %d)" % (len(pairs), lc["supersedes"], lc["not"]))
for (label, kind), n in sorted(kc.items()):
    print("  %-10s %-22s %3d" % (label, kind, n))
print("pair namespaces:", dict(ns.most_common()))
print("distinct domains:", len(domains))
print("chains: %d, filler: %d, distinct note texts: %d" % (len(chains), len(filler), len(set(texts))))
print("marker-free superseding newer notes: %d of %d" % (len(sup) - len(marked), len(sup)))
if errors:
    print("FAILED:")
    for e in errors:
        print("  -", e)
    sys.exit(1)
print("OK")
