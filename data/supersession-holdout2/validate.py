#!/usr/bin/env python3
"""Validate pairs.jsonl, chains.jsonl and filler.jsonl. Exit code 0 = all checks pass."""
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMESPACES = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
SPLIT = "holdout2"
EXPECTED_KINDS = {
    ("supersedes", "replacement"): 35,
    ("supersedes", "value-change"): 30,
    ("supersedes", "version"): 18,
    ("supersedes", "correction"): 17,
    ("supersedes", "resolved-blocker"): 15,
    ("supersedes", "personal-fact"): 15,
    ("not", "addition"): 16,
    ("not", "kept"): 16,
    ("not", "rejected-proposal"): 15,
    ("not", "different-subject"): 18,
    ("not", "part-change"): 15,
    ("not", "refinement"): 15,
    ("not", "unrelated-with-marker"): 15,
}
N_PAIRS, N_CHAINS, N_CHAIN_NOTES, N_FILLER, MIN_DOMAINS = 240, 12, 3, 120, 40

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    path = HERE / name
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        err(f"{name}: not UTF-8 ({e})")
        return rows
    for n, line in enumerate(text.split("\n"), 1):
        if line == "":
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            err(f"{name}:{n}: invalid JSON ({e})")
            continue
        if not isinstance(obj, dict):
            err(f"{name}:{n}: not a JSON object")
            continue
        rows.append((n, obj))
    return rows


def nonempty_str(v):
    return isinstance(v, str) and v.strip() != ""


def check_fields(name, n, obj, fields):
    ok = True
    for f in fields:
        if f not in obj:
            err(f"{name}:{n}: missing field '{f}'")
            ok = False
        elif f != "notes" and not nonempty_str(obj[f]):
            err(f"{name}:{n}: field '{f}' empty or not a string")
            ok = False
    extra = set(obj) - set(fields)
    if extra:
        err(f"{name}:{n}: unexpected fields {sorted(extra)}")
    return ok


all_texts = []  # (text, where)

# ---- pairs ----
pairs = load("pairs.jsonl")
PAIR_FIELDS = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
ids = []
kind_counts = Counter()
domains = set()
for n, o in pairs:
    if not check_fields("pairs.jsonl", n, o, PAIR_FIELDS):
        continue
    ids.append(o["id"])
    if o["namespace"] not in NAMESPACES:
        err(f"pairs.jsonl:{n}: bad namespace {o['namespace']!r}")
    if o["label"] not in ("supersedes", "not"):
        err(f"pairs.jsonl:{n}: bad label {o['label']!r}")
    if (o["label"], o["kind"]) not in EXPECTED_KINDS:
        err(f"pairs.jsonl:{n}: kind {o['kind']!r} not valid for label {o['label']!r}")
    if o["split"] != SPLIT:
        err(f"pairs.jsonl:{n}: split must be {SPLIT!r}")
    if o["older"].strip() == o["newer"].strip():
        err(f"pairs.jsonl:{n}: older and newer are identical")
    kind_counts[(o["label"], o["kind"])] += 1
    domains.add(o["domain"])
    all_texts.append((o["older"], f"pairs {o['id']} older"))
    all_texts.append((o["newer"], f"pairs {o['id']} newer"))

if len(pairs) != N_PAIRS:
    err(f"pairs.jsonl: {len(pairs)} lines, expected {N_PAIRS}")
expected_ids = [f"g{i:03d}" for i in range(1, N_PAIRS + 1)]
dup_ids = [i for i, c in Counter(ids).items() if c > 1]
if dup_ids:
    err(f"pairs.jsonl: duplicate ids {dup_ids}")
if sorted(ids) != expected_ids:
    missing = sorted(set(expected_ids) - set(ids))
    unknown = sorted(set(ids) - set(expected_ids))
    err(f"pairs.jsonl: ids not g001..g{N_PAIRS:03d}; missing={missing[:10]} unknown={unknown[:10]}")
for key, want in EXPECTED_KINDS.items():
    if kind_counts.get(key, 0) != want:
        err(f"pairs.jsonl: {key[0]}/{key[1]} count {kind_counts.get(key, 0)}, expected {want}")
label_counts = Counter(lbl for (lbl, _), c in kind_counts.items() for _ in range(c))
for lbl in ("supersedes", "not"):
    want = sum(v for (l, _), v in EXPECTED_KINDS.items() if l == lbl)
    if label_counts.get(lbl, 0) != want:
        err(f"pairs.jsonl: label {lbl} count {label_counts.get(lbl, 0)}, expected {want}")
if len(domains) < MIN_DOMAINS:
    err(f"pairs.jsonl: only {len(domains)} distinct domains, expected >= {MIN_DOMAINS}")

# ---- chains ----
chains = load("chains.jsonl")
CHAIN_FIELDS = ["id", "notes", "namespace", "split"]
chain_ids = []
for n, o in chains:
    if not check_fields("chains.jsonl", n, o, CHAIN_FIELDS):
        continue
    chain_ids.append(o["id"])
    if o["namespace"] not in NAMESPACES:
        err(f"chains.jsonl:{n}: bad namespace {o['namespace']!r}")
    if o["split"] != SPLIT:
        err(f"chains.jsonl:{n}: split must be {SPLIT!r}")
    notes = o["notes"]
    if not isinstance(notes, list) or len(notes) != N_CHAIN_NOTES or not all(nonempty_str(x) for x in notes):
        err(f"chains.jsonl:{n}: notes must be a list of {N_CHAIN_NOTES} non-empty strings")
        continue
    for j, t in enumerate(notes):
        all_texts.append((t, f"chains {o['id']} note {j}"))
if len(chains) != N_CHAINS:
    err(f"chains.jsonl: {len(chains)} lines, expected {N_CHAINS}")
if sorted(chain_ids) != [f"k{i:02d}" for i in range(1, N_CHAINS + 1)]:
    err(f"chains.jsonl: ids are not k01..k{N_CHAINS:02d}: {chain_ids}")

# ---- filler ----
filler = load("filler.jsonl")
for n, o in filler:
    if not check_fields("filler.jsonl", n, o, ["text", "namespace"]):
        continue
    if o["namespace"] not in NAMESPACES:
        err(f"filler.jsonl:{n}: bad namespace {o['namespace']!r}")
    all_texts.append((o["text"], f"filler line {n}"))
if len(filler) != N_FILLER:
    err(f"filler.jsonl: {len(filler)} lines, expected {N_FILLER}")

# ---- duplicate texts anywhere ----
seen = {}
for text, where in all_texts:
    key = " ".join(text.split()).casefold()
    if key in seen:
        err(f"duplicate text: {where} == {seen[key]}: {text!r}")
    else:
        seen[key] = where

if errors:
    for e in errors:
        print("FAIL:", e)
    print(f"{len(errors)} problem(s) found")
    sys.exit(1)

ns_pairs = Counter(o["namespace"] for _, o in pairs)
print(f"OK: {len(pairs)} pairs ({label_counts['supersedes']} supersedes / {label_counts['not']} not), "
      f"{len(domains)} domains, {len(chains)} chains, {len(filler)} filler notes, "
      f"{len(all_texts)} unique note texts")
print("pair namespaces:", dict(sorted(ns_pairs.items())))
sys.exit(0)
