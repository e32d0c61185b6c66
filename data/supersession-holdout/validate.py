"""Validate the hold-out supersession set: parsing, fields, ids, counts, namespaces."""
import json, collections, sys, os
os.chdir(os.path.dirname(os.path.abspath(__file__)))
NS = {"decisions", "learnings", "patterns", "blockers", "context", "progress"}
EXPECTED = {
    ("supersedes", "replacement"): 35, ("supersedes", "value-change"): 30,
    ("supersedes", "version"): 18, ("supersedes", "correction"): 17,
    ("supersedes", "resolved-blocker"): 15, ("supersedes", "personal-fact"): 15,
    ("not", "addition"): 16, ("not", "kept"): 16, ("not", "rejected-proposal"): 15,
    ("not", "different-subject"): 18, ("not", "part-change"): 15,
    ("not", "refinement"): 15, ("not", "unrelated-with-marker"): 15,
}
errors = []
def load(name):
    out = []
    with open(name, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                out.append(json.loads(line))
            except Exception as e:
                errors.append(f"{name}:{n}: {e}")
    return out
def nonempty(x): return isinstance(x, str) and x.strip() != ""

pairs = load("pairs.jsonl")
fields = ["id", "older", "newer", "namespace", "label", "kind", "domain", "split"]
for p in pairs:
    for k in fields:
        if not nonempty(p.get(k)): errors.append(f"pair {p.get('id')}: missing/empty {k}")
    if set(p) != set(fields): errors.append(f"pair {p.get('id')}: unexpected keys {set(p) ^ set(fields)}")
    if p.get("namespace") not in NS: errors.append(f"pair {p.get('id')}: bad namespace")
    if p.get("split") != "holdout": errors.append(f"pair {p.get('id')}: bad split")
    if p.get("older") == p.get("newer"): errors.append(f"pair {p.get('id')}: older == newer")
ids = [p.get("id") for p in pairs]
if len(ids) != len(set(ids)): errors.append("duplicate pair ids")
if sorted(ids) != [f"h{i:03d}" for i in range(1, 241)]: errors.append("pair ids are not h001..h240")
counts = collections.Counter((p.get("label"), p.get("kind")) for p in pairs)
if counts != collections.Counter(EXPECTED): errors.append(f"kind counts differ: {dict(counts)}")
labels = collections.Counter(p.get("label") for p in pairs)
if labels != {"supersedes": 130, "not": 110}: errors.append(f"label counts: {labels}")
domains = {p.get("domain") for p in pairs}
if len(domains) < 35: errors.append(f"only {len(domains)} domains")

chains = load("chains.jsonl")
for c in chains:
    for k in ["id", "namespace", "split"]:
        if not nonempty(c.get(k)): errors.append(f"chain {c.get('id')}: missing {k}")
    if set(c) != {"id", "notes", "namespace", "split"}: errors.append(f"chain {c.get('id')}: keys")
    if not (isinstance(c.get("notes"), list) and len(c["notes"]) == 3 and all(map(nonempty, c["notes"]))):
        errors.append(f"chain {c.get('id')}: notes must be 3 non-empty strings")
    if c.get("namespace") not in NS: errors.append(f"chain {c.get('id')}: bad namespace")
    if c.get("split") != "holdout": errors.append(f"chain {c.get('id')}: bad split")
cids = [c.get("id") for c in chains]
if cids != [f"k{i:02d}" for i in range(1, 13)]: errors.append("chain ids are not k01..k12")

filler = load("filler.jsonl")
if len(filler) != 120: errors.append(f"filler count {len(filler)}")
for i, f_ in enumerate(filler, 1):
    if set(f_) != {"text", "namespace"} or not nonempty(f_.get("text")): errors.append(f"filler line {i}: fields")
    if f_.get("namespace") not in NS: errors.append(f"filler line {i}: bad namespace")

# every note text in the store should be unique
texts = collections.Counter()
for p in pairs: texts[p["older"]] += 1; texts[p["newer"]] += 1
for c in chains:
    for t in c["notes"]: texts[t] += 1
for f_ in filler: texts[f_["text"]] += 1
dups = [t for t, n in texts.items() if n > 1]
if dups: errors.append(f"duplicate note texts: {dups}")

if errors:
    print("\n".join(errors)); sys.exit(1)
print(f"OK: {len(pairs)} pairs ({dict(labels)}), {len(chains)} chains, {len(filler)} filler, "
      f"{len(domains)} domains, {sum(texts.values())} note texts")
