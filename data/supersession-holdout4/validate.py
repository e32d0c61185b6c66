#!/usr/bin/env python3
"""Validates pairs.jsonl, chains.jsonl and filler.jsonl of the holdout4 supersession set."""
import json, sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMESPACES = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
EXPECTED = {
    ("supersedes", "replacement"): 35, ("supersedes", "value-change"): 30,
    ("supersedes", "version"): 18, ("supersedes", "correction"): 17,
    ("supersedes", "resolved-blocker"): 15, ("supersedes", "personal-fact"): 15,
    ("not", "addition"): 16, ("not", "kept"): 16, ("not", "rejected-proposal"): 15,
    ("not", "different-subject"): 18, ("not", "part-change"): 15,
    ("not", "refinement"): 15, ("not", "unrelated-with-marker"): 15,
}
errors = []

def err(msg):
    errors.append(msg)

def load(name):
    out = []
    for n, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            err(f"{name}:{n}: empty line"); continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            err(f"{name}:{n}: bad JSON ({e})"); continue
        if not isinstance(obj, dict):
            err(f"{name}:{n}: not an object"); continue
        out.append((n, obj))
    return out

def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""

texts = Counter()

# pairs
pairs = load("pairs.jsonl")
fields = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
ids, counts, domains = [], Counter(), set()
for n, o in pairs:
    for f in fields:
        if not nonempty_str(o.get(f)):
            err(f"pairs.jsonl:{n}: missing/empty field {f}")
    extra = set(o) - set(fields)
    if extra:
        err(f"pairs.jsonl:{n}: unexpected fields {sorted(extra)}")
    ids.append(o.get("id"))
    if o.get("namespace") not in NAMESPACES:
        err(f"pairs.jsonl:{n}: bad namespace {o.get('namespace')!r}")
    if o.get("label") not in ("supersedes", "not"):
        err(f"pairs.jsonl:{n}: bad label {o.get('label')!r}")
    if o.get("split") != "holdout4":
        err(f"pairs.jsonl:{n}: split must be holdout4")
    counts[(o.get("label"), o.get("kind"))] += 1
    domains.add(o.get("domain"))
    texts[o.get("older")] += 1
    texts[o.get("newer")] += 1
if len(pairs) != 240:
    err(f"pairs.jsonl: expected 240 pairs, got {len(pairs)}")
if len(set(ids)) != len(ids):
    err("pairs.jsonl: duplicate ids")
if set(ids) != {f"m{i:03d}" for i in range(1, 241)}:
    err("pairs.jsonl: ids are not exactly m001..m240")
for key, want in EXPECTED.items():
    if counts.get(key, 0) != want:
        err(f"pairs.jsonl: {key} count {counts.get(key, 0)} != {want}")
for key in counts:
    if key not in EXPECTED:
        err(f"pairs.jsonl: unexpected label/kind {key}")
if not 30 <= len(domains) <= 70:
    err(f"pairs.jsonl: {len(domains)} distinct domains, need 30..70")

# chains
chains = load("chains.jsonl")
cids = []
for n, o in chains:
    for f in ["id", "namespace", "split"]:
        if not nonempty_str(o.get(f)):
            err(f"chains.jsonl:{n}: missing/empty field {f}")
    cids.append(o.get("id"))
    if o.get("namespace") not in NAMESPACES:
        err(f"chains.jsonl:{n}: bad namespace")
    if o.get("split") != "holdout4":
        err(f"chains.jsonl:{n}: split must be holdout4")
    notes = o.get("notes")
    if not (isinstance(notes, list) and len(notes) == 3 and all(nonempty_str(t) for t in notes)):
        err(f"chains.jsonl:{n}: notes must be 3 non-empty strings")
    else:
        for t in notes:
            texts[t] += 1
if len(chains) != 12 or cids != [f"k{i:02d}" for i in range(1, 13)]:
    err("chains.jsonl: expected ids k01..k12 in order")

# filler
filler = load("filler.jsonl")
for n, o in filler:
    if not nonempty_str(o.get("text")) or not nonempty_str(o.get("namespace")):
        err(f"filler.jsonl:{n}: missing/empty text or namespace")
    if o.get("namespace") not in NAMESPACES:
        err(f"filler.jsonl:{n}: bad namespace")
    texts[o.get("text")] += 1
if len(filler) != 120:
    err(f"filler.jsonl: expected 120 notes, got {len(filler)}")

# duplicate text (exact, and after case/whitespace normalisation)
norm = Counter()
for t, c in texts.items():
    if c > 1:
        err(f"duplicate text: {t!r}")
    if isinstance(t, str):
        norm[" ".join(t.lower().split())] += c
for t, c in norm.items():
    if c > 1:
        err(f"near-duplicate text (case/space): {t!r}")

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
ns_pairs = Counter(o["namespace"] for _, o in pairs)
print(f"OK: 240 pairs ({sum(v for (l, _), v in counts.items() if l == 'supersedes')} supersedes, "
      f"{sum(v for (l, _), v in counts.items() if l == 'not')} not), {len(domains)} domains, "
      f"12 chains, 120 filler, {sum(texts.values())} unique note texts")
print("pair namespaces:", dict(sorted(ns_pairs.items())))
