#!/usr/bin/env python3
"""Assemble the hand-written notes into pairs.jsonl, chains.jsonl and filler.jsonl.

The note texts are written by hand in data_supersedes.py, data_not.py and
data_chains_filler.py. This script only attaches labels/ids, shuffles the pairs
with a fixed seed and writes JSON Lines.
"""
import json
import random

import data_supersedes as S
import data_not as N
import data_chains_filler as CF

SEED = 20261127
SPLIT = "holdout2"

GROUPS = [
    ("supersedes", "replacement", S.REPLACEMENT),
    ("supersedes", "value-change", S.VALUE_CHANGE),
    ("supersedes", "version", S.VERSION),
    ("supersedes", "correction", S.CORRECTION),
    ("supersedes", "resolved-blocker", S.RESOLVED_BLOCKER),
    ("supersedes", "personal-fact", S.PERSONAL_FACT),
    ("not", "addition", N.ADDITION),
    ("not", "kept", N.KEPT),
    ("not", "rejected-proposal", N.REJECTED_PROPOSAL),
    ("not", "different-subject", N.DIFFERENT_SUBJECT),
    ("not", "part-change", N.PART_CHANGE),
    ("not", "refinement", N.REFINEMENT),
    ("not", "unrelated-with-marker", N.UNRELATED_WITH_MARKER),
]


def main():
    rows = []
    for label, kind, entries in GROUPS:
        for namespace, domain, older, newer in entries:
            rows.append({"older": older, "newer": newer, "namespace": namespace,
                         "label": label, "kind": kind, "domain": domain, "split": SPLIT})
    random.Random(SEED).shuffle(rows)
    with open("pairs.jsonl", "w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            out = {"id": f"g{i:03d}"}
            out.update(r)
            f.write(json.dumps(out, ensure_ascii=False) + "\n")

    with open("chains.jsonl", "w", encoding="utf-8") as f:
        for i, (namespace, notes) in enumerate(CF.CHAINS, 1):
            f.write(json.dumps({"id": f"k{i:02d}", "notes": notes, "namespace": namespace,
                                "split": SPLIT}, ensure_ascii=False) + "\n")

    with open("filler.jsonl", "w", encoding="utf-8") as f:
        for namespace, text in CF.FILLER:
            f.write(json.dumps({"text": text, "namespace": namespace}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
