#!/usr/bin/env python3
"""Validate the holdout3 supersession dataset (pairs, chains, filler)."""
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
    rows = []
    with open(HERE / name, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{n}: empty line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON ({e})")
                continue
            if not isinstance(obj, dict):
                err(f"{name}:{n}: not an object")
                continue
            rows.append((n, obj))
    return rows

def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""

texts = []  # (text, where)

# pairs
pairs = load("pairs.jsonl")
fields = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
ids = []
counts = Counter()
domains = set()
for n, o in pairs:
    for k in fields:
        if not nonempty_str(o.get(k)):
            err(f"pairs.jsonl:{n}: field {k!r} missing or empty")
    extra = set(o) - set(fields)
    if extra:
        err(f"pairs.jsonl:{n}: unexpected fields {sorted(extra)}")
    ids.append(o.get("id"))
    if o.get("namespace") not in NAMESPACES:
        err(f"pairs.jsonl:{n}: bad namespace {o.get('namespace')!r}")
    if o.get("split") != "holdout3":
        err(f"pairs.jsonl:{n}: split must be holdout3")
    if o.get("label") not in ("supersedes", "not"):
        err(f"pairs.jsonl:{n}: bad label {o.get('label')!r}")
    if (o.get("label"), o.get("kind")) not in EXPECTED:
        err(f"pairs.jsonl:{n}: kind {o.get('kind')!r} not valid for label {o.get('label')!r}")
    if o.get("older") == o.get("newer"):
        err(f"pairs.jsonl:{n}: older equals newer")
    counts[(o.get("label"), o.get("kind"))] += 1
    domains.add(o.get("domain"))
    texts.append((o.get("older"), f"pairs {o.get('id')} older"))
    texts.append((o.get("newer"), f"pairs {o.get('id')} newer"))
want_ids = [f"j{i:03d}" for i in range(1, 241)]
if len(ids) != 240:
    err(f"pairs.jsonl: {len(ids)} rows, expected 240")
if len(set(ids)) != len(ids):
    err("pairs.jsonl: duplicate ids")
if sorted(i for i in ids if isinstance(i, str)) != want_ids:
    err("pairs.jsonl: ids are not exactly j001..j240")
for key, want in EXPECTED.items():
    if counts[key] != want:
        err(f"pairs.jsonl: {key[0]}/{key[1]} count {counts[key]}, expected {want}")
label_counts = Counter(l for (l, _), c in counts.items() for _ in range(c))
if label_counts["supersedes"] != 130 or label_counts["not"] != 110:
    err(f"pairs.jsonl: label counts {dict(label_counts)}, expected supersedes 130 / not 110")
if not (30 <= len(domains) <= 70):
    err(f"pairs.jsonl: {len(domains)} distinct domains, expected 30..70")

# chains
chains = load("chains.jsonl")
cids = []
for n, o in chains:
    for k in ("id", "namespace", "split"):
        if not nonempty_str(o.get(k)):
            err(f"chains.jsonl:{n}: field {k!r} missing or empty")
    extra = set(o) - {"id", "notes", "namespace", "split"}
    if extra:
        err(f"chains.jsonl:{n}: unexpected fields {sorted(extra)}")
    cids.append(o.get("id"))
    notes = o.get("notes")
    if not (isinstance(notes, list) and len(notes) == 3 and all(nonempty_str(x) for x in notes)):
        err(f"chains.jsonl:{n}: notes must be a list of 3 non-empty strings")
    else:
        for i, t in enumerate(notes):
            texts.append((t, f"chain {o.get('id')} note {i}"))
    if o.get("namespace") not in NAMESPACES:
        err(f"chains.jsonl:{n}: bad namespace {o.get('namespace')!r}")
    if o.get("split") != "holdout3":
        err(f"chains.jsonl:{n}: split must be holdout3")
if sorted(i for i in cids if isinstance(i, str)) != [f"k{i:02d}" for i in range(1, 13)] or len(cids) != 12:
    err("chains.jsonl: ids are not exactly k01..k12")

# filler
filler = load("filler.jsonl")
for n, o in filler:
    for k in ("text", "namespace"):
        if not nonempty_str(o.get(k)):
            err(f"filler.jsonl:{n}: field {k!r} missing or empty")
    extra = set(o) - {"text", "namespace"}
    if extra:
        err(f"filler.jsonl:{n}: unexpected fields {sorted(extra)}")
    if o.get("namespace") not in NAMESPACES:
        err(f"filler.jsonl:{n}: bad namespace {o.get('namespace')!r}")
    texts.append((o.get("text"), f"filler line {n}"))
if len(filler) != 120:
    err(f"filler.jsonl: {len(filler)} notes, expected 120")

# duplicate text anywhere (exact and whitespace/case-normalised)
seen = {}
for t, where in texts:
    if not isinstance(t, str):
        continue
    key = " ".join(t.split()).casefold()
    if key in seen:
        err(f"duplicate note text: {where} == {seen[key]}: {t!r}")
    else:
        seen[key] = where

if errors:
    for e in errors:
        print("FAIL:", e)
    print(f"{len(errors)} problem(s)")
    sys.exit(1)
ns = Counter(o["namespace"] for _, o in pairs)
print(f"OK: 240 pairs ({dict(label_counts)}), {len(domains)} domains, "
      f"12 chains x 3 notes, 120 filler, {len(seen)} distinct note texts")
print("pair namespaces:", dict(sorted(ns.items())))
