#!/usr/bin/env python3
"""Checks for the supersession8 (holdout8) files."""
import collections
import json
import re
import sys

MARKER = re.compile(r"\b(switch\w*|migrat\w*|replac\w*|mov(e|ed|es|ing)|instead|no longer|now|chang\w*|anymore)\b|\bfrom \S+ to \S+", re.I)
NAMESPACES = {"decisions", "context", "patterns", "learnings", "blockers", "progress"}
KIND_COUNTS = {
    "supersedes": {"replacement": 35, "value-change": 30, "version": 18, "correction": 17,
                   "resolved-blocker": 15, "personal-fact": 15},
    "not": {"addition": 16, "kept": 16, "rejected-proposal": 15, "different-subject": 18,
            "part-change": 15, "refinement": 15, "unrelated-with-marker": 15},
}
MAX_MARKED = 20
errors = []


def err(msg):
    errors.append(msg)


def norm(t):
    return " ".join(t.lower().split())


def load(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except Exception as e:  # noqa
                err("%s:%d bad json: %s" % (path, n, e))
    return rows


pairs = load("pairs.jsonl")
chains = load("chains.jsonl")
filler = load("filler.jsonl")

if len(pairs) != 240:
    err("pairs: %d lines, want 240" % len(pairs))
if len(chains) != 12:
    err("chains: %d lines, want 12" % len(chains))
if len(filler) != 120:
    err("filler: %d lines, want 120" % len(filler))

pair_keys = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
kind_counter = collections.Counter()
ns_counter = collections.Counter()
label_counter = collections.Counter()
domains = collections.Counter()
marked = []
marked_not = 0
for i, p in enumerate(pairs, 1):
    if sorted(p) != sorted(pair_keys):
        err("pair %d keys %s" % (i, sorted(p)))
        continue
    if p["id"] != "m%03d" % i:
        err("pair %d id %s" % (i, p["id"]))
    if p["namespace"] not in NAMESPACES:
        err("%s namespace %s" % (p["id"], p["namespace"]))
    if p["split"] != "holdout8":
        err("%s split %s" % (p["id"], p["split"]))
    if p["label"] not in KIND_COUNTS or p["kind"] not in KIND_COUNTS[p["label"]]:
        err("%s label/kind %s/%s" % (p["id"], p["label"], p["kind"]))
    for k in ("older", "newer", "domain"):
        if not isinstance(p[k], str) or not p[k].strip():
            err("%s empty %s" % (p["id"], k))
    kind_counter[(p["label"], p["kind"])] += 1
    ns_counter[p["namespace"]] += 1
    label_counter[p["label"]] += 1
    domains[p["domain"]] += 1
    if MARKER.search(p["newer"]):
        if p["label"] == "supersedes":
            marked.append(p["id"])
        else:
            marked_not += 1
    if p["kind"] == "unrelated-with-marker" and not MARKER.search(p["newer"]):
        err("%s unrelated-with-marker newer has no marker word" % p["id"])

for label, kinds in KIND_COUNTS.items():
    for kind, want in kinds.items():
        got = kind_counter[(label, kind)]
        if got != want:
            err("kind %s/%s: %d, want %d" % (label, kind, got, want))
if label_counter["supersedes"] != 130 or label_counter["not"] != 110:
    err("labels %s" % dict(label_counter))
if len(marked) > MAX_MARKED:
    err("marker regex matches %d supersedes-newer notes (max %d)" % (len(marked), MAX_MARKED))

for i, c in enumerate(chains, 1):
    if sorted(c) != sorted(["id", "notes", "namespace", "split"]):
        err("chain %d keys" % i)
        continue
    if c["id"] != "k%02d" % i:
        err("chain %d id %s" % (i, c["id"]))
    if c["namespace"] not in NAMESPACES or c["split"] != "holdout8":
        err("chain %s namespace/split" % c["id"])
    if len(c["notes"]) != 3 or not all(isinstance(t, str) and t.strip() for t in c["notes"]):
        err("chain %s needs 3 notes" % c["id"])

for i, fl in enumerate(filler, 1):
    if sorted(fl) != ["namespace", "text"]:
        err("filler %d keys" % i)
        continue
    if fl["namespace"] not in NAMESPACES or not fl["text"].strip():
        err("filler %d bad" % i)

texts = []
for p in pairs:
    texts += [p.get("older", ""), p.get("newer", "")]
for c in chains:
    texts += c.get("notes", [])
texts += [f.get("text", "") for f in filler]
seen = {}
for t in texts:
    k = norm(t)
    if k in seen:
        err("duplicate text: %r" % t)
    seen[k] = 1

print("pairs by label:", dict(label_counter))
print("pairs by kind:")
for (label, kind), n in sorted(kind_counter.items()):
    print("  %-10s %-22s %3d" % (label, kind, n))
print("pairs by namespace:", dict(sorted(ns_counter.items(), key=lambda x: -x[1])))
print("chains by namespace:", dict(collections.Counter(c["namespace"] for c in chains)))
print("filler by namespace:", dict(collections.Counter(f["namespace"] for f in filler)))
print("distinct domains:", len(domains))
print("supersedes-newer notes matching marker regex: %d (max %d): %s" % (len(marked), MAX_MARKED, " ".join(marked)))
print("not-newer notes matching marker regex: %d" % marked_not)
print("total distinct texts:", len(seen))
if errors:
    print("\nFAIL (%d errors)" % len(errors))
    for e in errors:
        print("  -", e)
    sys.exit(1)
print("\nOK")
