#!/usr/bin/env python3
"""A stand-in for the Anthropic Messages API on 127.0.0.1, for driving the real Claude
Code CLI in subcog's end-to-end test. It logs every request (one JSON line each) and
answers from directives in the newest user text, so a test decides what the "model" does:

  REPLY <text>                 answer with <text>, one line ("\\n" for a line break)
  MARKER <namespace> <text>    answer "Noted." and a capture marker "[namespace] text" on a
                               line of its own (the prompt itself holds no marker)
  TOOL <name> <json input>     call a tool (Read, Bash, ...); after the tool result arrives
                               the answer is "done: <result>"
  TOOLS <json [[name, input], ...]>
                               call the tools one after another (ToolSearch, then an MCP
                               tool), then answer "done: <last result>"
  otherwise                    answer "OK"

Streaming (SSE) and plain JSON answers, /v1/messages/count_tokens, and 404 for the rest.
Usage: anthropic_stub.py LOG_FILE PORT_FILE   (binds a free port and writes it to PORT_FILE)
"""

import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[1]
PORT_FILE = sys.argv[2]
lock = threading.Lock()
counter = [0]


def texts_of(content):
    """The text pieces of a message's content (string or blocks), tool results included."""
    if isinstance(content, str):
        return [content]
    out = []
    for block in content or []:
        if block.get("type") == "text":
            out.append(block.get("text", ""))
        elif block.get("type") == "tool_result":
            inner = block.get("content")
            out.extend(texts_of(inner) if isinstance(inner, list) else [str(inner or "")])
    return out


def decide(body):
    """(kind, payload): ("text", str) or ("tool", (name, input))."""
    messages = body.get("messages") or []
    if not messages:
        return "text", "OK"
    # Everything after the model's last turn: the user's text, tool results, and the
    # hook context Claude Code sends as messages of their own.
    tail = []
    for m in reversed(messages):
        if m.get("role") == "assistant":
            break
        tail.insert(0, m)
    blocks = [b for m in tail if isinstance(m.get("content"), list) for b in m["content"]]
    results = [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"]
    if results:
        # Which directive started this turn: the newest user text that holds one.
        done = 0
        for m in reversed(messages):
            content = m.get("content")
            if isinstance(content, list):
                done += sum(1 for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
            text = "\n".join(texts_of(content)) if m.get("role") != "assistant" else ""
            seq = list(re.finditer(r"^TOOLS (\[.*\])\s*$", text, re.M))
            if seq:
                steps = json.loads(seq[-1].group(1))
                if done < len(steps):
                    name, tool_input = steps[done]
                    return "tool", (name, tool_input)
                break
            if re.search(r"^TOOL ", text, re.M):
                break
        result_text = " ".join(texts_of(results))[:2000]
        return "text", "done: " + result_text
    text = "\n".join(t for m in tail for t in texts_of(m.get("content")))
    m = list(re.finditer(r"^TOOLS (\[.*\])\s*$", text, re.M))
    if m:
        name, tool_input = json.loads(m[-1].group(1))[0]
        return "tool", (name, tool_input)
    m = list(re.finditer(r"^MARKER (\S+) (.*)$", text, re.M))
    if m:
        return "text", "Noted.\n[%s] %s" % (m[-1].group(1), m[-1].group(2).strip())
    # The user's own words come after any hook context Claude Code put in front of them.
    m = list(re.finditer(r"^TOOL (\S+) (\{.*\})\s*$", text, re.M))
    if m:
        return "tool", (m[-1].group(1), json.loads(m[-1].group(2)))
    m = list(re.finditer(r"^REPLY (.*)$", text, re.M))
    if m:
        return "text", m[-1].group(1).strip().replace("\\n", "\n")
    return "text", "OK"


def message(kind, payload, model):
    counter[0] += 1
    mid = f"msg_stub_{counter[0]}"
    if kind == "tool":
        name, tool_input = payload
        content = [{"type": "tool_use", "id": f"toolu_stub_{counter[0]}", "name": name, "input": tool_input}]
        stop = "tool_use"
    else:
        content = [{"type": "text", "text": payload}]
        stop = "end_turn"
    return {
        "id": mid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _json(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "stub"}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0]
        with lock:
            with open(LOG, "a") as f:
                f.write(json.dumps({"path": path, "agent": self.headers.get("user-agent", ""), "body": body}) + "\n")
        if path.endswith("/count_tokens"):
            return self._json(200, {"input_tokens": 100})
        if not path.endswith("/v1/messages"):
            return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
        kind, payload = decide(body)
        msg = message(kind, payload, body.get("model", "claude-stub"))
        if not body.get("stream"):
            return self._json(200, msg)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()

        def event(name, data):
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

        start = dict(msg, content=[], stop_reason=None)
        event("message_start", {"type": "message_start", "message": start})
        for i, block in enumerate(msg["content"]):
            if block["type"] == "text":
                event("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
                event("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": block["text"]}})
            else:
                event("content_block_start", {"type": "content_block_start", "index": i, "content_block": dict(block, input={})})
                event("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
            event("content_block_stop", {"type": "content_block_stop", "index": i})
        event("message_delta", {"type": "message_delta", "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None}, "usage": {"output_tokens": 5}})
        event("message_stop", {"type": "message_stop"})
        self.wfile.flush()
        self.close_connection = True


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(PORT_FILE + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os

    os.replace(PORT_FILE + ".tmp", PORT_FILE)
    server.serve_forever()


if __name__ == "__main__":
    main()
