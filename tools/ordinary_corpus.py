#!/usr/bin/env python3
"""Writes the ordinary texts that choose quarantine's context bar as a corpus for
`subcog eval quarantine`: every distinct note of data/supersession* (project notes by ten
writers, never trained on; split `project`), every LoCoMo dev turn (`locomo`) and every
LongMemEval turn (`longmemeval`), all labelled benign. The "ordinary kept from context"
column per split is then the share each loses from what hooks inject.

    python3 tools/ordinary_corpus.py /tmp/ordinary
    subcog eval quarantine /tmp/ordinary --json      # needs the model
"""

import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def texts():
    seen = set()
    for d in sorted(glob.glob(os.path.join(DATA, "supersession*"))):
        for name in ("pairs.jsonl", "filler.jsonl", "chains.jsonl"):
            for line in open(os.path.join(d, name), encoding="utf-8"):
                r = json.loads(line)
                found = [r.get(k) for k in ("older", "newer", "text")] + list(r.get("notes") or [])
                for t in found:
                    if isinstance(t, str) and t not in seen:
                        seen.add(t)
                        yield "project", t
    for conv in json.load(open(os.path.join(DATA, "locomo", "locomo-dev.json"), encoding="utf-8")):
        for key, session in sorted(conv["conversation"].items()):
            if key.startswith("session_") and isinstance(session, list):
                for t in session:
                    if t.get("text", "").strip():
                        yield "locomo", t["text"]
    for q in json.load(open(os.path.join(DATA, "longmemeval", "longmemeval-oracle-151.json"), encoding="utf-8")):
        for session in q["haystack_sessions"]:
            for t in session:
                if t.get("content", "").strip() and t["content"] not in seen:
                    seen.add(t["content"])
                    yield "longmemeval", t["content"]


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    n = 0
    with open(os.path.join(out_dir, "corpus.jsonl"), "w", encoding="utf-8") as w:
        for split, text in texts():
            n += 1
            row = {"id": "o%05d" % n, "label": "benign", "kind": "ordinary-" + split, "text": text, "split": split}
            w.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("%d ordinary texts in %s" % (n, os.path.join(out_dir, "corpus.jsonl")))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ordinary")
