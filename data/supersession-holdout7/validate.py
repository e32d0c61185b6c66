#!/usr/bin/env python3
"""Validate the holdout7 files. Exit code 0 only if every check passes."""
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT = "holdout7"
NAMESPACES = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
KIND_COUNTS = {
    "supersedes": {"replacement": 35, "value-change": 30, "version": 18,
                   "correction": 17, "resolved-blocker": 15, "personal-fact": 15},
    "not": {"addition": 16, "kept": 16, "rejected-proposal": 15,
            "different-subject": 18, "part-change": 15, "refinement": 15,
            "unrelated-with-marker": 15},
}
MIN_NS_PAIRS = {"decisions": 20, "context": 20, "learnings": 20, "patterns": 20,
                "blockers": 12, "progress": 6}
MARKER_RE = re.compile(
    r"\b(switch\w*|migrat\w*|replac\w*|mov(e|ed|es|ing)|instead|no longer|now|chang\w*|anymore)\b"
    r"|\bfrom \S+ to \S+", re.IGNORECASE)
MAX_MARKED = 20

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(HERE / name, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                err("%s:%d empty line" % (name, n))
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err("%s:%d bad JSON: %s" % (name, n, e))
    return rows


def norm(t):
    return " ".join(t.lower().split())


def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""


pairs = load("pairs.jsonl")
chains = load("chains.jsonl")
filler = load("filler.jsonl")

# ---- pairs
if len(pairs) != 240:
    err("pairs: expected 240, got %d" % len(pairs))
expected_ids = ["m%03d" % i for i in range(1, 241)]
if [p.get("id") for p in pairs] != expected_ids:
    err("pairs: ids are not m001..m240 in order")
pair_keys = {"id", "older", "newer", "namespace", "label", "kind", "domain", "split"}
kind_counter = Counter()
ns_counter = Counter()
domains = set()
marked = []
for p in pairs:
    if set(p) != pair_keys:
        err("pair %s: keys %s" % (p.get("id"), sorted(p)))
        continue
    for k in ("older", "newer", "domain"):
        if not nonempty_str(p[k]):
            err("pair %s: empty %s" % (p["id"], k))
    if p["namespace"] not in NAMESPACES:
        err("pair %s: bad namespace %r" % (p["id"], p["namespace"]))
    if p["label"] not in KIND_COUNTS:
        err("pair %s: bad label %r" % (p["id"], p["label"]))
    elif p["kind"] not in KIND_COUNTS[p["label"]]:
        err("pair %s: kind %r does not belong to label %r" % (p["id"], p["kind"], p["label"]))
    if p["split"] != SPLIT:
        err("pair %s: split %r" % (p["id"], p["split"]))
    if p["older"].strip() == p["newer"].strip():
        err("pair %s: older == newer" % p["id"])
    kind_counter[(p["label"], p["kind"])] += 1
    ns_counter[p["namespace"]] += 1
    domains.add(p["domain"])
    if p["label"] == "supersedes" and MARKER_RE.search(p["newer"]):
        marked.append(p["id"])
for label, kinds in KIND_COUNTS.items():
    for kind, n in kinds.items():
        got = kind_counter.get((label, kind), 0)
        if got != n:
            err("kind %s/%s: expected %d, got %d" % (label, kind, n, got))
for ns, n in MIN_NS_PAIRS.items():
    if ns_counter.get(ns, 0) < n:
        err("namespace %s: %d pairs, need at least %d" % (ns, ns_counter.get(ns, 0), n))
if len(domains) < 30:
    err("only %d distinct domains, need 30+" % len(domains))
if len(marked) > MAX_MARKED:
    err("%d supersedes newer notes contain marker words (max %d)" % (len(marked), MAX_MARKED))

# ---- chains
if len(chains) != 12:
    err("chains: expected 12, got %d" % len(chains))
if [c.get("id") for c in chains] != ["k%02d" % i for i in range(1, 13)]:
    err("chains: ids are not k01..k12 in order")
chain_ns = Counter()
for c in chains:
    if set(c) != {"id", "notes", "namespace", "split"}:
        err("chain %s: keys %s" % (c.get("id"), sorted(c)))
        continue
    if not (isinstance(c["notes"], list) and len(c["notes"]) == 3
            and all(nonempty_str(t) for t in c["notes"])):
        err("chain %s: needs exactly 3 non-empty notes" % c["id"])
    if c["namespace"] not in NAMESPACES:
        err("chain %s: bad namespace" % c["id"])
    if c["split"] != SPLIT:
        err("chain %s: bad split" % c["id"])
    chain_ns[c["namespace"]] += 1

# ---- filler
if len(filler) != 120:
    err("filler: expected 120, got %d" % len(filler))
filler_ns = Counter()
for i, f in enumerate(filler, 1):
    if set(f) != {"text", "namespace"}:
        err("filler line %d: keys %s" % (i, sorted(f)))
        continue
    if not nonempty_str(f["text"]):
        err("filler line %d: empty text" % i)
    if f["namespace"] not in NAMESPACES:
        err("filler line %d: bad namespace" % i)
    filler_ns[f["namespace"]] += 1

# ---- duplicates
texts = []
for p in pairs:
    texts += [p.get("older", ""), p.get("newer", "")]
for c in chains:
    texts += list(c.get("notes", []))
texts += [f.get("text", "") for f in filler]
seen = {}
for t in texts:
    k = norm(t)
    if k in seen:
        err("duplicate text: %r" % t)
    seen[k] = t
if len(seen) != 636:
    err("expected 636 distinct texts, got %d" % len(seen))

# ---- report
print("pairs: %d  chains: %d  filler: %d  distinct texts: %d"
      % (len(pairs), len(chains), len(filler), len(seen)))
print("label/kind counts:")
for label, kinds in KIND_COUNTS.items():
    for kind in kinds:
        print("  %-10s %-22s %3d" % (label, kind, kind_counter.get((label, kind), 0)))
print("namespace  pairs chains filler")
for ns in sorted(NAMESPACES):
    print("  %-10s %4d %5d %6d" % (ns, ns_counter.get(ns, 0), chain_ns.get(ns, 0), filler_ns.get(ns, 0)))
print("distinct domains: %d" % len(domains))
print("supersedes newer notes with marker words: %d (max %d) %s"
      % (len(marked), MAX_MARKED, " ".join(marked)))
if errors:
    print("FAILED with %d error(s):" % len(errors))
    for e in errors:
        print("  - " + e)
    sys.exit(1)
print("OK: all checks passed")
