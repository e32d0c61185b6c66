#!/usr/bin/env python3
"""Deterministically build pairs.jsonl, chains.jsonl and filler.jsonl for holdout6."""
import json
import random
from pathlib import Path

from gen_pairs_data import SUPERSEDES, NOT_SUPERSEDES
from gen_other_data import CHAINS, FILLER

SPLIT = "holdout6"
SEED = 20261129
OUT = Path(__file__).resolve().parent


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    pairs = []
    for label, table in (("supersedes", SUPERSEDES), ("not", NOT_SUPERSEDES)):
        for kind in sorted(table):
            for older, newer, namespace, domain in table[kind]:
                pairs.append({
                    "older": older,
                    "newer": newer,
                    "namespace": namespace,
                    "label": label,
                    "kind": kind,
                    "domain": domain,
                    "split": SPLIT,
                })
    random.Random(SEED).shuffle(pairs)
    rows = []
    for i, p in enumerate(pairs, start=1):
        rows.append({"id": f"m{i:03d}", **p})
    write_jsonl(OUT / "pairs.jsonl", rows)

    chains = []
    for i, (notes, namespace) in enumerate(CHAINS, start=1):
        chains.append({"id": f"k{i:02d}", "notes": list(notes),
                       "namespace": namespace, "split": SPLIT})
    write_jsonl(OUT / "chains.jsonl", chains)

    write_jsonl(OUT / "filler.jsonl",
                [{"text": t, "namespace": ns} for t, ns in FILLER])
    print(f"wrote {len(rows)} pairs, {len(chains)} chains, {len(FILLER)} filler notes")


if __name__ == "__main__":
    main()
