#!/usr/bin/env python3
"""Validate the holdout6 files: format, ids, counts, namespaces, duplicates, markers."""
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMESPACES = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
EXPECTED = {
    "supersedes": {"replacement": 35, "value-change": 30, "version": 18,
                   "correction": 17, "resolved-blocker": 15, "personal-fact": 15},
    "not": {"addition": 16, "kept": 16, "rejected-proposal": 15,
            "different-subject": 18, "part-change": 15, "refinement": 15,
            "unrelated-with-marker": 15},
}
PAIR_KEYS = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
MARKER = re.compile(
    r"\b(switch\w*|migrat\w*|replac\w*|move|moved|moves|moving|instead|no longer|now|chang\w*|anymore)\b"
    r"|\bfrom\b.{1,60}?\bto\b",
    re.IGNORECASE)
MAX_MARKED = 20

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(HERE / name, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON: {e}")
    return rows


def norm(t):
    return " ".join(t.lower().split())


def nonempty(s):
    return isinstance(s, str) and s.strip() != "" and s == s.strip()


pairs = load("pairs.jsonl")
chains = load("chains.jsonl")
filler = load("filler.jsonl")

# pairs
if len(pairs) != 240:
    err(f"pairs: expected 240, got {len(pairs)}")
ids = [p.get("id") for p in pairs]
if ids != [f"m{i:03d}" for i in range(1, len(pairs) + 1)]:
    err("pairs: ids are not m001..m240 in order")
counts = Counter()
domains = set()
for p in pairs:
    pid = p.get("id")
    if list(p.keys()) != PAIR_KEYS:
        err(f"{pid}: keys {list(p.keys())} != {PAIR_KEYS}")
    for k in ("older", "newer", "domain"):
        if not nonempty(p.get(k)):
            err(f"{pid}: bad {k}")
    if p.get("namespace") not in NAMESPACES:
        err(f"{pid}: bad namespace {p.get('namespace')}")
    if p.get("split") != "holdout6":
        err(f"{pid}: bad split")
    lab, kind = p.get("label"), p.get("kind")
    if lab not in EXPECTED or kind not in EXPECTED[lab]:
        err(f"{pid}: bad label/kind {lab}/{kind}")
    counts[(lab, kind)] += 1
    domains.add(p.get("domain"))
for lab, kinds in EXPECTED.items():
    for kind, n in kinds.items():
        if counts[(lab, kind)] != n:
            err(f"count {lab}/{kind}: expected {n}, got {counts[(lab, kind)]}")
if len(domains) < 30:
    err(f"only {len(domains)} distinct domains (need 30+)")

# chains
if len(chains) != 12:
    err(f"chains: expected 12, got {len(chains)}")
for i, c in enumerate(chains, 1):
    cid = c.get("id")
    if cid != f"k{i:02d}":
        err(f"chain {i}: id {cid}")
    if list(c.keys()) != ["id", "notes", "namespace", "split"]:
        err(f"{cid}: keys {list(c.keys())}")
    notes = c.get("notes")
    if not isinstance(notes, list) or len(notes) != 3 or not all(nonempty(n) for n in notes):
        err(f"{cid}: needs exactly 3 non-empty notes")
    if c.get("namespace") not in NAMESPACES:
        err(f"{cid}: bad namespace")
    if c.get("split") != "holdout6":
        err(f"{cid}: bad split")

# filler
if len(filler) != 120:
    err(f"filler: expected 120, got {len(filler)}")
for n, f in enumerate(filler, 1):
    if list(f.keys()) != ["text", "namespace"]:
        err(f"filler {n}: keys {list(f.keys())}")
    if not nonempty(f.get("text")):
        err(f"filler {n}: bad text")
    if f.get("namespace") not in NAMESPACES:
        err(f"filler {n}: bad namespace")

# duplicates
texts = []
for p in pairs:
    texts += [p["older"], p["newer"]]
for c in chains:
    texts += c["notes"]
texts += [f["text"] for f in filler]
seen = {}
for t in texts:
    k = norm(t)
    if k in seen:
        err(f"duplicate text: {t!r}")
    seen[k] = t
if len(seen) != 636:
    err(f"distinct texts: expected 636, got {len(seen)}")

# markers in superseding newer notes
marked = [p for p in pairs if p["label"] == "supersedes" and MARKER.search(p["newer"])]
if len(marked) > MAX_MARKED:
    err(f"{len(marked)} superseding newer notes contain marker words (max {MAX_MARKED})")
unrel = [p for p in pairs if p["kind"] == "unrelated-with-marker" and not MARKER.search(p["newer"])]
for p in unrel:
    err(f"{p['id']}: unrelated-with-marker newer has no marker word")

# report
print("pairs by label/kind:")
for lab, kinds in EXPECTED.items():
    for kind in kinds:
        print(f"  {lab:10s} {kind:22s} {counts[(lab, kind)]}")
ns_p = Counter(p["namespace"] for p in pairs)
ns_c = Counter(c["namespace"] for c in chains)
ns_f = Counter(f["namespace"] for f in filler)
print("namespace   pairs chains filler")
for ns in sorted(NAMESPACES):
    print(f"  {ns:10s} {ns_p[ns]:5d} {ns_c[ns]:6d} {ns_f[ns]:6d}")
print(f"distinct domains: {len(domains)}")
print(f"distinct texts: {len(seen)}")
print(f"superseding newer notes with marker words: {len(marked)} (max {MAX_MARKED})")
for p in marked:
    print(f"    {p['id']} [{p['kind']}] {p['newer']}")
if errors:
    print(f"\nFAILED with {len(errors)} error(s):")
    for e in errors:
        print("  -", e)
    sys.exit(1)
print("\nOK: validation passed")
