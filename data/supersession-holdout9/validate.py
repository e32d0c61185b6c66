#!/usr/bin/env python3
"""Validate the holdout9 files. Exit code 0 only if every check passes."""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NAMESPACES = {"decisions", "context", "patterns", "learnings", "blockers", "progress"}
SUP = {"replacement": 35, "value-change": 30, "version": 18, "correction": 17,
       "resolved-blocker": 15, "personal-fact": 15}
NOT = {"addition": 16, "kept": 16, "rejected-proposal": 15, "different-subject": 18,
       "part-change": 15, "refinement": 15, "unrelated-with-marker": 15}
PAIR_KEYS = {"id", "older", "newer", "namespace", "label", "kind", "domain", "split"}
CHAIN_KEYS = {"id", "notes", "namespace", "split"}
FILLER_KEYS = {"text", "namespace"}
MARKER = re.compile(r"\b(switch\w*|migrat\w*|replac\w*|mov(e|ed|es|ing)|instead|no longer|now|chang\w*|anymore)\b|\bfrom \S+ to \S+", re.I)
MARKER_LIMIT = 20

errors = []


def err(msg):
    errors.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err("%s:%d empty line" % (name, n))
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                err("%s:%d bad json: %s" % (name, n, e))
    return rows


def norm(t):
    return re.sub(r"\s+", " ", t.strip().lower())


seen = {}


def check_text(t, where):
    if not isinstance(t, str) or not t.strip():
        err("%s: empty or non-string text" % where)
        return
    if len(t) >= 400:
        err("%s: text is %d chars (must be < 400)" % (where, len(t)))
    k = norm(t)
    if k in seen:
        err("%s: duplicate text (also at %s): %r" % (where, seen[k], t))
    else:
        seen[k] = where


pairs = load("pairs.jsonl")
chains = load("chains.jsonl")
filler = load("filler.jsonl")

if len(pairs) != 240:
    err("pairs.jsonl has %d lines, want 240" % len(pairs))
if len(chains) != 12:
    err("chains.jsonl has %d lines, want 12" % len(chains))
if len(filler) != 120:
    err("filler.jsonl has %d lines, want 120" % len(filler))

kinds = collections.Counter()
marker_hits = []
um_missing = []
for i, p in enumerate(pairs, 1):
    if set(p) != PAIR_KEYS:
        err("pair line %d keys %s" % (i, sorted(p)))
        continue
    if p["id"] != "m%03d" % i:
        err("pair line %d id %r, want m%03d" % (i, p["id"], i))
    if p["split"] != "holdout9":
        err("%s split %r" % (p["id"], p["split"]))
    if p["namespace"] not in NAMESPACES:
        err("%s namespace %r" % (p["id"], p["namespace"]))
    if not isinstance(p["domain"], str) or not p["domain"].strip():
        err("%s empty domain" % p["id"])
    if p["label"] == "supersedes":
        if p["kind"] not in SUP:
            err("%s kind %r not valid for supersedes" % (p["id"], p["kind"]))
        if MARKER.search(p["newer"]):
            marker_hits.append(p["id"])
    elif p["label"] == "not":
        if p["kind"] not in NOT:
            err("%s kind %r not valid for not" % (p["id"], p["kind"]))
    else:
        err("%s label %r" % (p["id"], p["label"]))
    if p["kind"] == "resolved-blocker" and p["namespace"] != "blockers":
        err("%s resolved-blocker outside blockers namespace" % p["id"])
    if p["kind"] == "unrelated-with-marker" and not MARKER.search(p["newer"]):
        um_missing.append(p["id"])
    kinds[(p["label"], p["kind"])] += 1
    check_text(p["older"], p["id"] + ".older")
    check_text(p["newer"], p["id"] + ".newer")

for k, n in SUP.items():
    if kinds[("supersedes", k)] != n:
        err("supersedes/%s count %d, want %d" % (k, kinds[("supersedes", k)], n))
for k, n in NOT.items():
    if kinds[("not", k)] != n:
        err("not/%s count %d, want %d" % (k, kinds[("not", k)], n))
if sum(1 for p in pairs if p.get("label") == "supersedes") != 130:
    err("supersedes total != 130")
if sum(1 for p in pairs if p.get("label") == "not") != 110:
    err("not total != 110")
if len(marker_hits) > MARKER_LIMIT:
    err("%d supersedes-newer notes match the marker regex (limit %d): %s"
        % (len(marker_hits), MARKER_LIMIT, ", ".join(marker_hits)))
if um_missing:
    err("unrelated-with-marker pairs without a marker word: %s" % ", ".join(um_missing))

for i, c in enumerate(chains, 1):
    if set(c) != CHAIN_KEYS:
        err("chain line %d keys %s" % (i, sorted(c)))
        continue
    if c["id"] != "k%02d" % i:
        err("chain line %d id %r" % (i, c["id"]))
    if c["split"] != "holdout9":
        err("%s split %r" % (c["id"], c["split"]))
    if c["namespace"] not in NAMESPACES:
        err("%s namespace %r" % (c["id"], c["namespace"]))
    if not isinstance(c["notes"], list) or len(c["notes"]) != 3:
        err("%s must have exactly 3 notes" % c["id"])
        continue
    for j, t in enumerate(c["notes"]):
        check_text(t, "%s.notes[%d]" % (c["id"], j))

for i, f in enumerate(filler, 1):
    if set(f) != FILLER_KEYS:
        err("filler line %d keys %s" % (i, sorted(f)))
        continue
    if f["namespace"] not in NAMESPACES:
        err("filler line %d namespace %r" % (i, f["namespace"]))
    check_text(f["text"], "filler[%d]" % i)

print("pairs=%d chains=%d filler=%d" % (len(pairs), len(chains), len(filler)))
print("supersedes-newer marker matches: %d (limit %d) %s"
      % (len(marker_hits), MARKER_LIMIT, " ".join(marker_hits)))
if errors:
    print("FAIL (%d problems)" % len(errors))
    for e in errors:
        print("  - " + e)
    sys.exit(1)
print("OK: all checks passed")
