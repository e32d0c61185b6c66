#!/usr/bin/env python3
"""Resident memory of a `subcog mcp` that serves the warm path (docs/PERFORMANCE.md).

Usage: scripts/perf/mcp_rss.py BIN MODEL_DIR [N]

Builds a scratch project of N memories (default 10,000) from the seeded corpus
(target/release/examples/corpus), starts `BIN mcp --no-schedule` on it, waits for its
prewarm, sends three warm UserPromptSubmit hooks and three warm recalls, and prints the
server's VmRSS / VmHWM (MiB) before and after. Everything lives in a temporary directory
that is removed at the end; the server is stopped by closing its input.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) // 1024
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bin_, model = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    corpus_bin = ROOT / "target/release/examples/corpus"
    if not corpus_bin.exists():
        sys.exit("build the corpus example first: cargo build --release -p subcog-bench --examples")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        project, data, home = tmp / "project", tmp / "data", tmp / "home"
        for d in (project, data, home):
            d.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
        config = tmp / "config.toml"
        config.write_text(f'[embedding]\nmodel_dir = "{model}"\n')
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "SUBCOG_DATA_DIR": str(data),
               "SUBCOG_CONFIG": str(config)}
        corpus = tmp / "corpus.jsonl"
        with open(corpus, "w") as f:
            subprocess.run([str(corpus_bin), str(n)], stdout=f, stderr=subprocess.DEVNULL, check=True)
        print(f"importing {n} memories…", file=sys.stderr)
        subprocess.run([bin_, "import", str(corpus)], cwd=project, env=env, stdout=subprocess.DEVNULL, check=True)
        server = subprocess.Popen([bin_, "mcp", "--no-schedule"], cwd=project, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            sock = data / "subcog.sock"
            for _ in range(400):
                if sock.exists():
                    break
                time.sleep(0.05)
            time.sleep(4)  # the server's prewarm
            before = status(server.pid)
            payload = json.dumps({"session_id": "rss", "transcript_path": str(tmp / "none.jsonl"),
                                  "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                                  "prompt": "which database do we use for orders?"})
            for _ in range(3):
                subprocess.run([bin_, "hook", "user-prompt-submit"], input=payload.encode(), cwd=project, env=env,
                               stdout=subprocess.DEVNULL, check=True)
                subprocess.run([bin_, "recall", "retry policy for the billing worker", "--limit", "5"], cwd=project,
                               env=env, stdout=subprocess.DEVNULL, check=True)
            time.sleep(1)
            after = status(server.pid)
            print(json.dumps({"memories": n, "before_mib": before, "after_mib": after}))
        finally:
            server.stdin.close()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
