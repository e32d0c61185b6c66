"""Drives `subcog mcp` through the official MCP Python SDK (a client subcog did not write).

Run by tests/test_mcp.rs with the virtualenv scripts/fetch-mcp-client makes. Each scenario
asserts what the protocol must do and prints one JSON line of facts (ids it captured, what
it saw) for the Rust side to check against the store with the CLI.

    client.py stdio BINARY           # server launched over stdio (env: SUBCOG_*)
    client.py http URL TOKEN         # a running `subcog mcp --http`
    client.py load URL TOKEN CLIENTS CALLS
    client.py config MCP_JSON        # the server `subcog init` registered, started as Claude Code would
    client.py capture BINARY TEXT    # one capture over stdio; prints the tool's answer
"""

import asyncio
import json
import os
import random
import sys

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

TOOLS = {"capture", "recall", "get", "update", "delete", "consolidate", "status", "tiers", "edges", "summaries"}


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def text(result):
    check(result.content and result.content[0].type == "text", f"text content expected: {result}")
    return result.content[0].text


async def call_json(session, name, args):
    result = await session.call_tool(name, args)
    check(not result.is_error, f"{name} failed: {text(result)}")
    return json.loads(text(result))


async def protocol_tour(session, max_bytes):
    """Every capability once; returns facts for the Rust side."""
    init_tools = await session.list_tools()
    names = {t.name for t in init_tools.tools}
    check(names == TOOLS, f"tools: {sorted(names)}")
    schemas = {t.name: t.input_schema for t in init_tools.tools}
    check(schemas["capture"]["required"] == ["content"], f"capture schema: {schemas['capture']}")
    check(
        {"query", "mode", "limit", "namespace", "tags", "since", "until", "reason"} <= set(schemas["recall"]["properties"]),
        f"recall schema: {schemas['recall']}",
    )
    check(schemas["recall"]["required"] == ["query"], "recall requires query")
    for t in init_tools.tools:
        check(t.description and len(t.description) < 240, f"{t.name}: description missing or long")

    first = await call_json(
        session,
        "capture",
        {
            "content": "We chose PostgreSQL over MySQL because we need JSONB columns and row-level security.",
            "namespace": "decisions",
            "tags": ["database"],
        },
    )
    check(not first["duplicate"], "first capture is new")
    again = await call_json(
        session,
        "capture",
        {"content": "We chose PostgreSQL over MySQL because we need JSONB columns and row-level security.", "namespace": "decisions"},
    )
    check(again["duplicate"] and again["id"] == first["id"], "same text again is the same memory")
    secret = await call_json(
        session,
        "capture",
        {"content": "The staging deploy key is AKIAIOSFODNN7EXAMPLE, rotate it monthly.", "namespace": "learnings"},
    )
    check(secret["redacted"], f"a secret is redacted: {secret}")
    blocker = await call_json(
        session,
        "capture",
        {"content": "CI is blocked: the integration runner lost its docker socket.", "namespace": "blockers", "summary": "CI runner lost docker"},
    )

    found = await call_json(session, "recall", {"query": "which database did we pick and why", "limit": 3})
    check(found["results"] and found["results"][0]["id"] == first["id"], f"recall finds the decision: {found}")
    check(found["semantic"], "recall by meaning is on (model loaded)")
    filtered = await call_json(session, "recall", {"query": "runner", "namespace": "blockers", "tags": []})
    check([r["id"] for r in filtered["results"]] == [blocker["id"]], f"namespace filter: {filtered}")
    nothing = await call_json(session, "recall", {"query": "database", "since": "tomorrow"})
    check(nothing["count"] == 0, f"since tomorrow finds nothing: {nothing}")

    got = await call_json(session, "get", {"id": first["id"]})
    # The short id session context shows (the ULID's last 8 characters) names it too.
    short = await call_json(session, "get", {"id": first["id"][-8:].lower()})
    check(short["id"] == first["id"], f"short id: {short}")
    check(got["content"].startswith("We chose PostgreSQL"), "get returns the content")
    empty = await session.call_tool("update", {"id": blocker["id"]})
    check(empty.is_error and "nothing to update" in text(empty), f"update without fields: {empty}")
    updated = await call_json(session, "update", {"id": blocker["id"], "add_tags": ["ci"], "summary": "CI blocked on docker socket"})
    check(updated["summary"] == "CI blocked on docker socket" and "ci" in updated["tags"], f"update: {updated}")
    deleted = await call_json(session, "delete", {"id": secret["id"]})
    check(deleted["status"] == "deleted", f"soft delete: {deleted}")

    status = await call_json(session, "status", {})
    check(sum(status["by_status"].values()) == 3, f"status counts: {status['by_status']}")
    tiers = await call_json(session, "tiers", {"transitions": 5})
    check(set(tiers["distribution"]) == {"hot", "warm", "cold", "archived"}, f"tiers: {tiers}")
    edges = await call_json(session, "edges", {"id": first["id"]})
    check(isinstance(edges, list), "edges is a list")
    summaries = await call_json(session, "summaries", {"limit": 5})
    check(isinstance(summaries, list), "summaries is a list")
    dry = await call_json(session, "consolidate", {"dry_run": True})
    check(dry["scopes"] and all(s["status"] == "completed" and s["dry_run"] for s in dry["scopes"]), f"dry run: {dry}")
    check(dry["scopes"][0]["memories_processed"] >= 2, f"dry run scanned: {dry}")

    # Resources.
    listed = await session.list_resources()
    check({str(r.uri) for r in listed.resources} == {"subcog://status", "subcog://summaries"}, f"resources: {listed}")
    templates = await session.list_resource_templates()
    check([t.uri_template for t in templates.resource_templates] == ["subcog://memory/{id}"], "memory template")
    res = await session.read_resource(f"subcog://memory/{first['id']}")
    check(json.loads(res.contents[0].text)["id"] == first["id"], "memory resource")
    res = await session.read_resource("subcog://status")
    check("by_tier" in json.loads(res.contents[0].text), "status resource")
    res = await session.read_resource("subcog://summaries")
    check(isinstance(json.loads(res.contents[0].text), list), "summaries resource")
    try:
        await session.read_resource("subcog://memory/01ARZ3NDEKTSV4RRFFQ69G5FAV")
        raise AssertionError("an unknown memory is not a resource")
    except MCPError as e:
        check("no resource" in str(e), f"not found message: {e}")

    # Prompts.
    prompts = await session.list_prompts()
    check({p.name for p in prompts.prompts} == {"session-start-context", "document-decision"}, f"prompts: {prompts}")
    ctx = await session.get_prompt("session-start-context", {})
    body = ctx.messages[0].content.text
    check("<subcog-context" in body and "PostgreSQL" in body, f"session context: {body[:300]}")
    check("AKIA" not in body, "no secret in the context")
    doc = await session.get_prompt("document-decision", {"decision": "Use PostgreSQL for the event store", "rationale": "JSONB"})
    doc_text = doc.messages[0].content.text
    check(first["id"] in doc_text and "capture" in doc_text, f"decision prompt lists the related decision: {doc_text}")

    # A memory can name the one it follows (the previous turn): that text helps find it.
    reply = await call_json(
        session,
        "capture",
        {"content": "Fixed by remounting the volume in the job template.", "namespace": "learnings", "follows": blocker["id"][-8:]},
    )
    via = await call_json(session, "recall", {"query": "docker socket", "namespace": "learnings"})
    check([r["id"] for r in via["results"]] == [reply["id"]], f"found through the memory it follows: {via}")
    bad = await session.call_tool("capture", {"content": "Orphan reply.", "follows": "01ARZ3NDEKTSV4RRFFQ69G5FAV"})
    check(bad.is_error and "01ARZ3NDEKTSV4RRFFQ69G5FAV" in text(bad), f"unknown memory followed: {text(bad)}")
    await call_json(session, "delete", {"id": reply["id"]})

    # Errors come back as errors, and the server keeps serving.
    try:
        await session.call_tool("no_such_tool", {})
        raise AssertionError("unknown tool accepted")
    except MCPError as e:
        check("not found" in str(e), f"unknown tool: {e}")
    bad = await session.call_tool("capture", {"namespace": "decisions"})
    check(bad.is_error and "content" in text(bad), f"missing content: {text(bad)}")
    bad = await session.call_tool("get", {"id": "not-an-id"})
    check(bad.is_error and "invalid memory id" in text(bad), f"bad id: {text(bad)}")
    bad = await session.call_tool("recall", {"query": "x", "mode": "sideways"})
    check(bad.is_error, "bad mode is an error")
    bad = await session.call_tool("get", {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV"})
    check(bad.is_error and "01ARZ3NDEKTSV4RRFFQ69G5FAV" in text(bad), f"missing memory: {text(bad)}")
    big = "x" * (1_100_000)
    bad = await session.call_tool("capture", {"content": big})
    check(bad.is_error and "bytes" in text(bad), f"oversized content: {text(bad)[:200]}")
    still = await call_json(session, "status", {})
    check(still["by_status"], "server still answers")
    return {"decision": first["id"], "blocker": blocker["id"], "deleted": secret["id"]}


async def stdio(binary):
    params = StdioServerParameters(command=binary, args=["mcp", "--no-schedule"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "subcog", f"server info: {init.server_info}")
            check(init.capabilities.tools and init.capabilities.resources and init.capabilities.prompts, "capabilities")
            facts = await protocol_tour(session, 4 * 1024 * 1024)
    print(json.dumps(facts))


async def from_config(path):
    """Starts mcpServers.subcog of a Claude Code config file as Claude Code does: its
    command, args and env on top of the inherited environment, in the project directory."""
    with open(path) as f:
        entry = json.load(f)["mcpServers"]["subcog"]
    check(entry.get("type", "stdio") == "stdio", f"stdio entry: {entry}")
    env = {**os.environ, **entry.get("env", {})}
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "subcog", f"server info: {init.server_info}")
            names = {t.name for t in (await session.list_tools()).tools}
            check(names == TOOLS, f"tools: {sorted(names)}")
            out = await call_json(session, "capture", {"content": "Registered by init: the MCP server starts from .mcp.json.", "namespace": "learnings"})
    print(json.dumps({"id": out["id"]}))


async def capture_one(binary, content):
    params = StdioServerParameters(command=binary, args=["mcp", "--no-schedule"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            out = await call_json(session, "capture", {"content": content, "namespace": "decisions"})
    print(json.dumps(out))


async def read_back(binary, query):
    """What an agent reads of the store for `query`: the recall tool's answer, the
    session-start-context prompt and the document-decision prompt."""
    params = StdioServerParameters(command=binary, args=["mcp", "--no-schedule"], env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            recalled = await call_json(session, "recall", {"query": query})
            ctx = await session.get_prompt("session-start-context", {})
            doc = await session.get_prompt("document-decision", {"decision": query})
    print(json.dumps({
        "recall": recalled,
        "context": ctx.messages[0].content.text,
        "decision_prompt": doc.messages[0].content.text,
    }))


def authed(token):
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=120))


async def oversized(url, token):
    """POSTs a 5 MiB body on a raw socket: the headers first, so a server that refuses by
    Content-Length answers before any body byte is sent (sending the body while the
    server closes can reset the connection before the client reads the 413); a server
    that reads on gets the body. Returns the status and the response head."""
    from urllib.parse import urlparse
    u = urlparse(url)
    reader, writer = await asyncio.open_connection(u.hostname, u.port)
    size = 5 * 1024 * 1024
    writer.write((f"POST {u.path} HTTP/1.1\r\nHost: {u.netloc}\r\nAuthorization: Bearer {token}\r\n"
                  f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                  f"Content-Length: {size}\r\n\r\n").encode())
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=10)
    except asyncio.TimeoutError:
        try:
            writer.write(b"{" + b" " * (size - 2) + b"}")
            await writer.drain()
        except (ConnectionError, OSError):
            pass
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
    writer.close()
    text = head.decode("latin-1")
    return int(text.split(" ", 2)[1]), text


async def http(url, token):
    base = url.rsplit("/mcp", 1)[0]
    async with httpx2.AsyncClient(timeout=30) as raw:
        health = await raw.get(f"{base}/health")
        check(health.status_code == 200 and health.json()["status"] == "ok", f"health: {health.text}")
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
        }
        headers = {"Accept": "application/json, text/event-stream"}
        r = await raw.post(url, json=init, headers=headers)
        check(r.status_code == 401 and "bearer" in r.headers.get("www-authenticate", "").lower(), f"no token: {r.status_code}")
        r = await raw.post(url, json=init, headers={**headers, "Authorization": "Bearer wrong"})
        check(r.status_code == 401, f"wrong token: {r.status_code}")
        check(r.headers.get("connection", "").lower() == "close", f"401 keeps the connection: {r.headers}")
        status, head = await oversized(url, token)
        check(status == 413, f"oversized body: {status} {head}")
        # The body was left unread: the server must say it closes the connection, or the
        # client reuses it and its next request fails with a reset.
        check("connection: close" in head.lower(), f"413 keeps the connection: {head}")
        r = await raw.post(url, content=b"{not json", headers={**headers, "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        check(400 <= r.status_code < 500, f"malformed body: {r.status_code}")
    async with authed(token) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                check(init.server_info.name == "subcog", "server info")
                facts = await protocol_tour(session, 4 * 1024 * 1024)
    print(json.dumps(facts))


async def one_client(url, token, index, calls, captured, errors):
    rng = random.Random(index)
    async with authed(token) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                mine = []
                for n in range(calls):
                    roll = rng.random()
                    try:
                        if roll < 0.4 or not mine:
                            out = await call_json(
                                session,
                                "capture",
                                {"content": f"Client {index} learned fact number {n}: cache key {rng.getrandbits(48):x} expires hourly.", "namespace": "learnings", "tags": [f"client{index}"]},
                            )
                            check(not out["duplicate"], "every load capture is new")
                            mine.append(out["id"])
                        elif roll < 0.7:
                            out = await call_json(session, "recall", {"query": f"cache key client {index}", "limit": 5})
                            check(out["count"] >= 1, "recall finds something")
                        elif roll < 0.8:
                            out = await call_json(session, "get", {"id": rng.choice(mine)})
                            check(out["id"] in mine, "get returns what was asked")
                        elif roll < 0.9:
                            await call_json(session, "status", {})
                        else:
                            await call_json(session, "tiers", {})
                    except Exception as e:  # noqa: BLE001 - every failure is counted and reported
                        errors.append(f"client {index} call {n}: {e!r}")
                captured.extend(mine)


async def load(url, token, clients, calls):
    captured, errors = [], []
    per = calls // clients
    await asyncio.gather(*(one_client(url, token, i, per, captured, errors) for i in range(clients)))
    check(not errors, f"{len(errors)} errors, first: {errors[:3]}")
    print(json.dumps({"captured": captured, "calls": per * clients}))


def main():
    mode = sys.argv[1]
    if mode == "stdio":
        asyncio.run(stdio(sys.argv[2]))
    elif mode == "http":
        asyncio.run(http(sys.argv[2], sys.argv[3]))
    elif mode == "config":
        asyncio.run(from_config(sys.argv[2]))
    elif mode == "capture":
        asyncio.run(capture_one(sys.argv[2], sys.argv[3]))
    elif mode == "read":
        asyncio.run(read_back(sys.argv[2], sys.argv[3]))
    elif mode == "load":
        asyncio.run(load(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
