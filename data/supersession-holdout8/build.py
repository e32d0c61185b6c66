#!/usr/bin/env python3
"""Deterministic builder for the supersession8 (holdout8) set."""
import json
import random

from gen_pairs_data import PAIRS, SUPERSEDES_KINDS, NOT_KINDS
from gen_other_data import CHAINS, FILLER

SPLIT = "holdout8"
SEED = 20261201


def main():
    records = []
    for kind, ns, domain, older, newer in PAIRS:
        if kind in SUPERSEDES_KINDS:
            label = "supersedes"
        elif kind in NOT_KINDS:
            label = "not"
        else:
            raise SystemExit("unknown kind: %s" % kind)
        records.append({"older": older, "newer": newer, "namespace": ns,
                        "label": label, "kind": kind, "domain": domain,
                        "split": SPLIT})
    random.Random(SEED).shuffle(records)
    with open("pairs.jsonl", "w", encoding="utf-8") as f:
        for i, r in enumerate(records, 1):
            out = {"id": "m%03d" % i}
            out.update(r)
            f.write(json.dumps(out, ensure_ascii=False) + "\n")
    with open("chains.jsonl", "w", encoding="utf-8") as f:
        for i, (ns, notes) in enumerate(CHAINS, 1):
            f.write(json.dumps({"id": "k%02d" % i, "notes": notes,
                                "namespace": ns, "split": SPLIT},
                               ensure_ascii=False) + "\n")
    with open("filler.jsonl", "w", encoding="utf-8") as f:
        for ns, text in FILLER:
            f.write(json.dumps({"text": text, "namespace": ns},
                               ensure_ascii=False) + "\n")
    print("wrote %d pairs, %d chains, %d filler" % (len(records), len(CHAINS), len(FILLER)))


if __name__ == "__main__":
    main()
