#!/usr/bin/env python3
"""Splits a `subcog eval longmemeval --json --details` report into two fixed halves of its
questions, so that a ranking change can be tuned on one half and read on the other.

    subcog eval longmemeval data/longmemeval/longmemeval-oracle-151.json --json --details > r.json
    python3 tools/longmemeval_halves.py r.json

A question's half is the SHA-256 of its id, read as an integer, mod 2. Reported per half,
for all questions and per question type: turn-level evidence recall@5 and @10 (the share of
a question's evidence turns among the first k results) and session-level recall-any@5 (an
evidence session among the first five distinct sessions of the ranked turns), the same
measures as the eval's own.
"""
import hashlib
import json
import sys


def half(question_id):
    return int(hashlib.sha256(question_id.encode()).hexdigest(), 16) % 2


def measures(item):
    evidence = set(item["evidence"])
    ranked = item["retrieved"]  # one list of turn ids per result
    sessions = []
    for result in ranked:
        for turn in result:
            session = turn.rsplit(":", 1)[0]
            if session not in sessions:
                sessions.append(session)

    def recall(k):
        found = {e for e in evidence if any(e in result for result in ranked[:k])}
        return len(found) / len(evidence)

    evidence_sessions = {e.rsplit(":", 1)[0] for e in evidence}
    return recall(5), recall(10), any(s in evidence_sessions for s in sessions[:5])


def main(path):
    report = json.load(open(path))
    groups = {}
    for item in report["details"]:
        if not item["evidence"]:
            continue  # abstention questions are not scored
        m = measures(item)
        for key in ("all", f"half {half(item['question_id'])}", item["question_type"]):
            groups.setdefault(key, []).append(m)
    for key in sorted(groups):
        rows = groups[key]
        n = len(rows)
        r5 = sum(r[0] for r in rows) / n
        r10 = sum(r[1] for r in rows) / n
        s5 = sum(r[2] for r in rows) / n
        print(f"{key:28s} {n:4d} questions  R@5 {r5:.3f}  R@10 {r10:.3f}  session@5 {s5:.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
