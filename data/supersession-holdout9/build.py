#!/usr/bin/env python3
"""Deterministically write pairs.jsonl, chains.jsonl, filler.jsonl from gen_data.py."""
import json
import os
import random

import gen_data

HERE = os.path.dirname(os.path.abspath(__file__))
SPLIT = "holdout9"


def write_jsonl(name, rows):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main():
    items = []
    for kind, ns, domain, older, newer in gen_data.PAIRS:
        if kind in gen_data.SUPERSEDES_KINDS:
            label = "supersedes"
        elif kind in gen_data.NOT_KINDS:
            label = "not"
        else:
            raise SystemExit("unknown kind: %s" % kind)
        items.append({"older": older, "newer": newer, "namespace": ns,
                      "label": label, "kind": kind, "domain": domain})
    random.Random(20261205).shuffle(items)
    pairs = []
    for i, it in enumerate(items, 1):
        pairs.append({"id": "m%03d" % i, "older": it["older"], "newer": it["newer"],
                      "namespace": it["namespace"], "label": it["label"],
                      "kind": it["kind"], "domain": it["domain"], "split": SPLIT})
    write_jsonl("pairs.jsonl", pairs)

    chains = []
    for i, (ns, notes) in enumerate(gen_data.CHAINS, 1):
        chains.append({"id": "k%02d" % i, "notes": list(notes), "namespace": ns, "split": SPLIT})
    write_jsonl("chains.jsonl", chains)

    write_jsonl("filler.jsonl", [{"text": t, "namespace": ns} for ns, t in gen_data.FILLER])
    print("wrote %d pairs, %d chains, %d filler" % (len(pairs), len(chains), len(gen_data.FILLER)))


if __name__ == "__main__":
    main()
