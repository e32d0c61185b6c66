#!/usr/bin/env python3
"""Deterministically build pairs.jsonl, chains.jsonl and filler.jsonl for holdout7."""
import json
import random
from pathlib import Path

from gen_pairs_data import PAIRS
from gen_other_data import CHAINS, FILLER

HERE = Path(__file__).resolve().parent
SPLIT = "holdout7"
SEED = 20261130

SUPERSEDES_KINDS = {"replacement", "value-change", "version", "correction",
                    "resolved-blocker", "personal-fact"}
NOT_KINDS = {"addition", "kept", "rejected-proposal", "different-subject",
             "part-change", "refinement", "unrelated-with-marker"}


def label_for(kind):
    if kind in SUPERSEDES_KINDS:
        return "supersedes"
    if kind in NOT_KINDS:
        return "not"
    raise ValueError("unknown kind: %r" % kind)


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    pairs = list(PAIRS)
    random.Random(SEED).shuffle(pairs)
    rows = []
    for i, (kind, ns, domain, older, newer) in enumerate(pairs, start=1):
        rows.append({
            "id": "m%03d" % i,
            "older": older,
            "newer": newer,
            "namespace": ns,
            "label": label_for(kind),
            "kind": kind,
            "domain": domain,
            "split": SPLIT,
        })
    write_jsonl(HERE / "pairs.jsonl", rows)

    chains = []
    for i, (ns, notes) in enumerate(CHAINS, start=1):
        chains.append({"id": "k%02d" % i, "notes": list(notes),
                       "namespace": ns, "split": SPLIT})
    write_jsonl(HERE / "chains.jsonl", chains)

    write_jsonl(HERE / "filler.jsonl",
                [{"text": t, "namespace": ns} for ns, t in FILLER])
    print("wrote %d pairs, %d chains, %d filler notes"
          % (len(rows), len(chains), len(FILLER)))


if __name__ == "__main__":
    main()
