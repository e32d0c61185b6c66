#!/usr/bin/env python3
"""Check kinds.json: valid JSON object of category -> sorted, lower-case, duplicate-free name lists."""
import json, re, sys, collections, pathlib

path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent.parent / "crates/subcog-core/src/entities/kinds.json")
errors = []
try:
    data = json.loads(path.read_text(encoding="utf-8"))
except Exception as e:
    sys.exit(f"FAIL: invalid JSON: {e}")
if not isinstance(data, dict):
    sys.exit("FAIL: top level is not an object")

where = collections.defaultdict(list)
for cat, names in data.items():
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", cat):
        errors.append(f"bad category id {cat!r}")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        errors.append(f"{cat}: not a list of strings"); continue
    if names != sorted(names):
        errors.append(f"{cat}: not sorted")
    for n in names:
        if n != n.lower():
            errors.append(f"{cat}: not lower-case: {n!r}")
        if n != n.strip() or not n or "  " in n:
            errors.append(f"{cat}: bad whitespace: {n!r}")
        where[n].append(cat)
    dup = [n for n, c in collections.Counter(names).items() if c > 1]
    if dup:
        errors.append(f"{cat}: duplicates {dup}")

total = sum(len(v) for v in data.values())
print(f"categories: {len(data)}")
print(f"names (total entries): {total}")
print(f"distinct names: {len(where)}")
for cat in sorted(data):
    print(f"  {cat:24s} {len(data[cat]):4d}")
multi = {n: c for n, c in where.items() if len(c) > 1}
print(f"names in more than one category: {len(multi)}")
for n in sorted(multi):
    print(f"  {n}: {', '.join(multi[n])}")
if not 50 <= len(data) <= 80:
    errors.append(f"category count {len(data)} outside 50..80")
if total < 900:
    errors.append(f"only {total} names (< 900)")
if errors:
    print("FAIL"); print("\n".join(errors)); sys.exit(1)
print("OK")
