"""Builds pairs.jsonl, chains.jsonl, filler.jsonl from the hand-written data files."""
import json, random
from gen_pairs_data import SUPERSEDES, NOT
from gen_other_data import CHAINS, FILLER

SEED = 20261127
# fold narrow topic tags into broader ones (keeps 30..70 distinct domains)
DOMAIN_MAP = {
    "alerting": "observability", "slo": "observability",
    "bi": "data-warehouse", "reporting": "data-warehouse",
    "billing": "payments", "refunds": "payments", "fraud": "payments", "finance": "payments",
    "promotions": "pricing", "build": "ci", "monorepo": "ci", "deployment": "infrastructure",
    "communication": "team-process", "documentation": "team-process",
    "customer-comms": "customers", "data-retention": "compliance",
    "drm": "video-streaming", "video-upload": "video-streaming",
    "integrations": "api", "limits": "api", "timeouts": "api",
    "sso": "auth", "status-page": "incident-response", "timezones": "logging",
    "vendor": "accessibility", "secrets": "security",
}
rows = []
for label, table in (("supersedes", SUPERSEDES), ("not", NOT)):
    for kind, items in table.items():
        for ns, domain, older, newer in items:
            rows.append({"older": older, "newer": newer, "namespace": ns,
                         "label": label, "kind": kind, "domain": DOMAIN_MAP.get(domain, domain), "split": "holdout4"})
random.Random(SEED).shuffle(rows)
with open("pairs.jsonl", "w", encoding="utf-8") as f:
    for i, r in enumerate(rows, 1):
        f.write(json.dumps({"id": f"m{i:03d}", **r}, ensure_ascii=False) + "\n")
with open("chains.jsonl", "w", encoding="utf-8") as f:
    for i, (ns, notes) in enumerate(CHAINS, 1):
        f.write(json.dumps({"id": f"k{i:02d}", "notes": notes, "namespace": ns, "split": "holdout4"}, ensure_ascii=False) + "\n")
with open("filler.jsonl", "w", encoding="utf-8") as f:
    for ns, notes in FILLER.items():
        for t in notes:
            f.write(json.dumps({"text": t, "namespace": ns}, ensure_ascii=False) + "\n")
print(len(rows), "pairs;", len(CHAINS), "chains;", sum(len(v) for v in FILLER.values()), "filler")
