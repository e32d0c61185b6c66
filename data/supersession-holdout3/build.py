"""Assemble the hand-written notes into the JSONL files (fixed shuffle seed)."""
import json, random
from gen_pairs_super import REPLACEMENT, VALUE_CHANGE, VERSION, CORRECTION, RESOLVED, PERSONAL
from gen_pairs_not import (ADDITION, KEPT, REJECTED, DIFFERENT_SUBJECT, PART_CHANGE,
                           REFINEMENT, UNRELATED_MARKER)
from gen_chains_filler import CHAINS, FILLER

groups = [
    ("supersedes", "replacement", REPLACEMENT),
    ("supersedes", "value-change", VALUE_CHANGE),
    ("supersedes", "version", VERSION),
    ("supersedes", "correction", CORRECTION),
    ("supersedes", "resolved-blocker", RESOLVED),
    ("supersedes", "personal-fact", PERSONAL),
    ("not", "addition", ADDITION),
    ("not", "kept", KEPT),
    ("not", "rejected-proposal", REJECTED),
    ("not", "different-subject", DIFFERENT_SUBJECT),
    ("not", "part-change", PART_CHANGE),
    ("not", "refinement", REFINEMENT),
    ("not", "unrelated-with-marker", UNRELATED_MARKER),
]
rows = []
for label, kind, items in groups:
    for older, newer, ns, domain in items:
        rows.append({"older": older, "newer": newer, "namespace": ns,
                     "label": label, "kind": kind, "domain": domain})
random.Random(20261127).shuffle(rows)
with open("pairs.jsonl", "w", encoding="utf-8") as f:
    for i, r in enumerate(rows, 1):
        out = {"id": f"j{i:03d}", **r, "split": "holdout3"}
        f.write(json.dumps(out, ensure_ascii=False) + "\n")
with open("chains.jsonl", "w", encoding="utf-8") as f:
    for i, (notes, ns) in enumerate(CHAINS, 1):
        f.write(json.dumps({"id": f"k{i:02d}", "notes": notes, "namespace": ns,
                            "split": "holdout3"}, ensure_ascii=False) + "\n")
with open("filler.jsonl", "w", encoding="utf-8") as f:
    for text, ns in FILLER:
        f.write(json.dumps({"text": text, "namespace": ns}, ensure_ascii=False) + "\n")
for label, kind, items in groups:
    print(label, kind, len(items))
print("pairs", len(rows), "chains", len(CHAINS), "filler", len(FILLER))
