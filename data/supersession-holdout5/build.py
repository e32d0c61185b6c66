#!/usr/bin/env python3
"""Regenerate pairs.jsonl, chains.jsonl and filler.jsonl deterministically."""
import json
import os
import random

from gen_pairs_data import PAIRS, SUPERSEDES_KINDS
from gen_other_data import CHAINS, FILLER

HERE = os.path.dirname(os.path.abspath(__file__))
SPLIT = "holdout5"


def write_jsonl(name, rows):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    items = list(PAIRS)
    random.Random(20261128).shuffle(items)
    pairs = []
    for i, (kind, ns, domain, older, newer) in enumerate(items, 1):
        pairs.append({
            "id": "m%03d" % i,
            "older": older,
            "newer": newer,
            "namespace": ns,
            "label": "supersedes" if kind in SUPERSEDES_KINDS else "not",
            "kind": kind,
            "domain": domain,
            "split": SPLIT,
        })
    chains = [{"id": "k%02d" % i, "notes": list(notes), "namespace": ns, "split": SPLIT}
              for i, (ns, notes) in enumerate(CHAINS, 1)]
    filler = [{"text": t, "namespace": ns} for ns, t in FILLER]
    write_jsonl("pairs.jsonl", pairs)
    write_jsonl("chains.jsonl", chains)
    write_jsonl("filler.jsonl", filler)
    print("wrote %d pairs, %d chains, %d filler" % (len(pairs), len(chains), len(filler)))


if __name__ == "__main__":
    main()
