"""The service cases of the fault campaign (issue #22): hostile requests to a real `kgbrain serve` and a real stdio
`kgbrain mcp`, each timed, the server's peak RSS sampled, and /healthz's latency measured right after.

A request is handled cleanly when the answer is a result or a JSON error `{"error": ...}` (MCP: a result or a
short tool error), within the time budget, the server still alive and /healthz answering within 2 s.

    python bench/faults_service.py [--timeout 120]     (also run by bench/faults.py as the "service" group)
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kgbrain.api import Brain  # noqa: E402
from kgbrain.errors import KgbrainError  # noqa: E402

PY = sys.executable
MB = "x" * 2**20
HEALTH_BUDGET_S = 2.0


@dataclass
class Row:
    channel: str
    case: str
    tried: int = 0
    survived: int = 0
    clean: int = 0
    wall_s: float = 0.0
    peak_mb: float = 0.0
    failures: list[str] = field(default_factory=list)


class Peak:
    """Samples a process's RSS (with its children) every 50 ms until stopped."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                rss = self.proc.memory_info().rss + sum(c.memory_info().rss for c in self.proc.children(True))
                self.peak = max(self.peak, rss)
            except psutil.Error:
                return
            time.sleep(0.05)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak / 2**20


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def small_kb(folder: Path) -> Path:
    db = folder / "kb.kuzu"
    rows = [{"subject": f"n{i}", "predicate": "is_a", "object": f"k{i % 20}"} for i in range(2_000)]
    rows += [{"subject": "neuron", "predicate": "is_a", "object": "cell"}]
    rows += [{"subject": "neuron", "predicate": "has_note", "value": "v" * 9_000} for _ in range(1)]
    path = folder / "base.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with Brain.open(db) as brain:
        brain.load([path])
    return db


HTTP_CASES: list[tuple[str, str, str, Any, dict[str, str] | None]] = [
    ("claim of 1 MB", "POST", "/v1/verify", {"claims": ["a neuron is a cell " + MB]}, None),
    ("claim at the cap (1,000 chars)", "POST", "/v1/verify", {"claims": [("Neurons have DNA " * 60)[:1000]]}, None),
    ("draft of 49,000 chars", "POST", "/v1/check-answer", {"draft": "Neurons are cells. " * 2578}, None),
    (
        "draft at the cap (10,000 chars)",
        "POST",
        "/v1/check-answer",
        {"draft": ("Neurons are cells. " * 600)[:10000]},
        None,
    ),
    (
        "rule regex (a|aa)+$",
        "POST",
        "/v1/check-answer",
        {
            "draft": "a" * 40 + "b",
            "rules": '[[rule]]\nid = "evil"\nviolation_patterns = ["(a|aa)+$"]\ncorrection = "x"\n',
        },
        None,
    ),
    ("value of 1 MB", "POST", "/v1/facts", {"facts": [{"subject": "a", "predicate": "has_note", "value": MB}]}, None),
    ("JSON nested 100,000 deep", "POST", "/v1/ask", "[" * 100_000 + "]" * 100_000, None),
    ("lone surrogate", "POST", "/v1/ask", '{"question": "Is a \\ud800 a cell?"}', None),
    ("NUL in a question", "POST", "/v1/ask", '{"question": "Is a neuron\\u0000 a cell?"}', None),
    ("load name of 300 chars", "POST", "/v1/load?name=" + "x" * 300 + ".jsonl", "{}", None),
    ("limit=-1", "GET", "/v1/why?concept=neuron&limit=-1", None, None),
    ("limit=1 on a 9,000-char value", "GET", "/v1/facts?concept=neuron&limit=1", None, None),
    ("SPARQL nested 40 deep", "POST", "/v1/query", {"query": "SELECT ?x WHERE " + "{" * 40 + "}" * 40}, None),
    ("cross-site text/plain write", "POST", "/v1/facts", "{}", {"content-type": "text/plain", "origin": "http://evil"}),
    ("foreign Host", "GET", "/v1/stats", None, {"host": "evil.example"}),
    ("body of 70 MB", "POST", "/v1/ask", "x" * (70 * 2**20), None),
]


def _http_case(base: str, server: subprocess.Popen[bytes], case: tuple[Any, ...], timeout: float) -> Row:
    name, method, path, body, headers = case
    row = Row("HTTP", name)
    content = body if isinstance(body, str) else (json.dumps(body) if body is not None else None)
    hdrs = {"content-type": "application/json", **(headers or {})}
    peak = Peak(server.pid)
    started = time.monotonic()
    try:
        r = httpx.request(method, base + path, content=content, headers=hdrs, timeout=timeout)
        status, text, ctype = r.status_code, r.text, r.headers.get("content-type", "")
    except httpx.HTTPError as exc:
        status, text, ctype = -1, str(exc), ""
    row.wall_s = time.monotonic() - started
    row.peak_mb = peak.stop()
    row.tried = 1
    alive = server.poll() is None
    health = _health(base)
    row.survived = int(alive and health is not None and health < HEALTH_BUDGET_S)
    json_error = status >= 400 and ctype.startswith("application/json") and set(json.loads(text)) == {"error"}
    ok = 0 < status < 400 or json_error
    row.clean = int(row.survived and ok and row.wall_s < timeout and status != 500 and len(text) < 2_000_000)
    if not row.clean:
        row.failures.append(f"status {status}, {row.wall_s:.1f} s, healthz {health}: {text[:160]!r}")
    return row


def _health(base: str) -> float | None:
    started = time.monotonic()
    try:
        ok = httpx.get(base + "/healthz", timeout=30).status_code == 200
    except httpx.HTTPError:
        return None
    return time.monotonic() - started if ok else None


def _timeout_case(base: str, server: subprocess.Popen[bytes], read_timeout: float) -> Row:
    """A long read (200 claims at the cap) and /healthz and a question beside it."""
    row = Row("HTTP", f"a 200-claim verify/one (--timeout {read_timeout:g} s) with /healthz and ask beside it")
    claims = {"claims": [("Neurons have DNA and cells " * 40)[:1000] for _ in range(200)]}
    done: dict[str, Any] = {}

    def slow() -> None:
        try:
            done["status"] = httpx.post(base + "/v1/verify/one", json=claims, timeout=300).status_code
        except httpx.HTTPError as exc:
            done["status"] = str(exc)

    peak = Peak(server.pid)
    started = time.monotonic()
    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(0.3)
    health = _health(base)
    asked = time.monotonic()
    ask = httpx.post(base + "/v1/ask", json={"question": "Is a neuron a cell?"}, timeout=300).status_code
    ask_s = time.monotonic() - asked
    thread.join()
    row.wall_s = time.monotonic() - started
    row.peak_mb = peak.stop()
    row.tried = 1
    row.survived = int(server.poll() is None and health is not None and health < HEALTH_BUDGET_S)
    row.clean = int(row.survived and ask == 200 and ask_s < 2 * read_timeout + 5)
    row.case += f" (healthz {health if health is None else round(health, 2)} s, next ask {ask_s:.1f} s)"
    if not row.clean:
        row.failures.append(f"slow {done.get('status')}, ask {ask} after {ask_s:.1f} s, healthz {health}")
    return row


def http_rows(root: Path, timeout: float) -> list[Row]:
    db = small_kb(root)
    port = _port()
    base = f"http://127.0.0.1:{port}"
    read_timeout = 3.0
    command = [PY, "-m", "kgbrain", "--db", str(db), "serve", "--port", str(port), "--timeout", str(read_timeout)]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        try:
            _wait(lambda: _health(base) is not None, 120)
            rows = [_http_case(base, server, case, timeout) for case in HTTP_CASES]
            rows.append(_timeout_case(base, server, read_timeout))
        finally:
            server.terminate()
            server.wait(60)
    return rows


def past_limit_rows(root: Path) -> list[Row]:
    """A server with --timeout 0.1 and --write-timeout 0.1: reads and an upload that run past them. Clean: each
    answer a result or the 503 JSON error shape, /healthz within 2 s after, the next small read or write answered,
    nothing of a timed-out upload stored."""
    (root / "limits").mkdir()
    db = small_kb(root / "limits")
    port = _port()
    base = f"http://127.0.0.1:{port}"
    limits = ["--timeout", "0.1", "--write-timeout", "0.1"]
    command = [PY, "-m", "kgbrain", "--db", str(db), "serve", "--port", str(port), *limits]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        try:
            _wait(lambda: _health(base) is not None, 120)
            return [_reads_past(base, server), _upload_past(base, server), _node_group_upload(base, server)]
        finally:
            server.terminate()
            server.wait(60)


def _json_503(r: httpx.Response) -> bool:
    try:
        return r.status_code == 503 and set(r.json()) == {"error"}
    except ValueError:
        return False


def _reads_past(base: str, server: subprocess.Popen[bytes]) -> Row:
    row = Row("HTTP", "8 cap-size drafts at once, --timeout 0.1")
    drafts = [" ".join(f"The n{i} is a k{(i + n) % 23}." for i in range(2_000))[:10_000] for n in range(8)]
    peak = Peak(server.pid)
    started = time.monotonic()
    replies: list[httpx.Response] = []
    threads = [
        threading.Thread(
            target=lambda d=d: replies.append(httpx.post(base + "/v1/check-answer", json={"draft": d}, timeout=300))
        )
        for d in drafts
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    row.wall_s = time.monotonic() - started
    health = _health(base)
    stats = [httpx.get(base + "/v1/stats", timeout=60) for _ in range(20)]
    row.peak_mb = peak.stop()
    late = sum(_json_503(r) for r in replies)
    row.tried = 1
    row.survived = int(server.poll() is None and health is not None and health < HEALTH_BUDGET_S)
    answered = all(r.status_code == 200 or _json_503(r) for r in replies)
    row.clean = int(row.survived and answered and late > 0 and any(r.status_code == 200 for r in stats))
    row.case += f" ({late} of 8 answered 503, healthz {health if health is None else round(health, 2)} s after)"
    if not row.clean:
        row.failures.append(f"statuses {[r.status_code for r in replies]}, healthz {health}")
    return row


def _upload_past(base: str, server: subprocess.Popen[bytes]) -> Row:
    row = Row("HTTP", "upload of 50,000 facts, --write-timeout 0.1")
    rows = "".join(json.dumps({"subject": f"u{i}", "predicate": "is_a", "object": "k1"}) + "\n" for i in range(50_000))
    peak = Peak(server.pid)
    started = time.monotonic()
    r = httpx.post(
        base + "/v1/load?name=big.jsonl", content=rows, headers={"content-type": "application/x-ndjson"}, timeout=300
    )
    row.wall_s = time.monotonic() - started
    health = _health(base)
    small = None
    for _ in range(200):  # writes queued behind the abandoned upload answer 503 and never start
        small = httpx.post(
            base + "/v1/facts", json={"facts": [{"subject": "glorp", "predicate": "is_a", "object": "k1"}]}, timeout=60
        )
        if small.status_code != 503:
            break
    kept = 503
    for _ in range(20):  # a read just after a write may itself pass --timeout 0.1 (the reader catches up)
        kept = httpx.get(base + "/v1/facts", params={"concept": "u1"}, timeout=60).status_code
        if kept != 503:
            break
    row.peak_mb = peak.stop()
    row.tried = 1
    row.survived = int(server.poll() is None and health is not None and health < HEALTH_BUDGET_S)
    row.clean = int(row.survived and _json_503(r) and small is not None and small.status_code == 201 and kept == 404)
    row.case += f" ({r.status_code}, healthz {health if health is None else round(health, 2)} s after)"
    if not row.clean:
        row.failures.append(f"upload {r.status_code}, next write {small and small.status_code}, u1 {kept}")
    return row


def _node_group_upload(base: str, server: subprocess.Popen[bytes]) -> Row:
    """65,000 facts between fresh concepts: Concept and Term pass 131,072 rows (a Ladybug node group) before the
    upload is rolled back at --write-timeout; the next write must land (it used to fail with 500, "Index contains
    an invalid node offset")."""
    row = Row("HTTP", "upload of 65,000 fresh pairs past a node group, --write-timeout 0.1")
    rows = "".join(
        json.dumps({"subject": f"g{i}", "predicate": "is_a", "object": f"h{i}"}) + "\n" for i in range(65_000)
    )
    peak = Peak(server.pid)
    started = time.monotonic()
    r = httpx.post(
        base + "/v1/load?name=pairs.jsonl", content=rows, headers={"content-type": "application/x-ndjson"}, timeout=300
    )
    row.wall_s = time.monotonic() - started
    health = _health(base)
    small = _small_write(base, "glorp2")
    row.peak_mb = peak.stop()
    row.tried = 1
    row.survived = int(server.poll() is None and health is not None and health < HEALTH_BUDGET_S)
    row.clean = int(row.survived and (r.status_code == 201 or _json_503(r)) and small == 201)
    row.case += f" ({r.status_code}, next write {small})"
    if not row.clean:
        row.failures.append(f"upload {r.status_code} {r.text[:120]!r}, next write {small}")
    return row


def _small_write(base: str, subject: str) -> int:
    status = -1
    for _ in range(200):  # writes queued behind an abandoned upload answer 503 and never start
        status = httpx.post(
            base + "/v1/facts", json={"facts": [{"subject": subject, "predicate": "is_a", "object": "k1"}]}, timeout=60
        ).status_code
        if status != 503:
            break
    return status


def _facts(db: Path) -> int | None:
    """The facts of the KB after a server is gone (None: it cannot be opened)."""
    try:
        with Brain.open(db) as brain:
            return brain.stats().facts
    except KgbrainError:
        return None


def _upload_rows(prefix: str, n: int) -> str:
    return "".join(
        json.dumps({"subject": f"{prefix}{i}", "predicate": "is_a", "object": "k1"}) + "\n" for i in range(n)
    )


def _drop(base: str, path: str, body: bytes, declared: int | None = None) -> None:
    """POST over a raw socket and close the connection without reading the reply (a client that goes away)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        head = f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/x-ndjson\r\n"
        sock.sendall(f"{head}Content-Length: {declared or len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.5)


def abandoned_rows(root: Path) -> list[Row]:
    """Clients that go away: one closes the connection while its 50,000-fact upload is being written, one in the
    middle of its body. Clean: the server lives, /healthz answers, the next write lands, and nothing of either
    upload is stored (the writer is freed: the next write's wait is the time to stop, not to finish)."""
    (root / "gone").mkdir()
    db = small_kb(root / "gone")
    base_facts = _facts(db) or 0
    port = _port()
    base = f"http://127.0.0.1:{port}"
    command = [PY, "-m", "kgbrain", "--db", str(db), "serve", "--port", str(port), "--write-timeout", "600"]
    rows: list[Row] = []
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        try:
            _wait(lambda: _health(base) is not None, 120)
            for name, body, declared in (
                ("client gone mid-write (50,000-fact upload)", _upload_rows("d", 50_000).encode(), None),
                (
                    "client gone mid-body (1 MB of a 10 MB upload)",
                    _upload_rows("m", 40_000).encode()[: 2**20],
                    10 * 2**20,
                ),
            ):
                row = Row("HTTP", name)
                peak = Peak(server.pid)
                started = time.monotonic()
                _drop(base, "/v1/load?name=gone.jsonl", body, declared)
                health = _health(base)
                small = _small_write(base, f"after{len(rows)}")
                row.wall_s = time.monotonic() - started
                row.peak_mb = peak.stop()
                row.tried = 1
                row.survived = int(server.poll() is None and health is not None and health < HEALTH_BUDGET_S)
                stored = httpx.get(base + "/v1/stats", timeout=60).json()["facts"]
                row.clean = int(row.survived and small == 201 and stored == base_facts + len(rows) + 1)
                row.case += f" (next write {small} after {row.wall_s:.1f} s)"
                if not row.clean:
                    row.failures.append(f"next write {small}, facts {stored} (base {base_facts})")
                rows.append(row)
        finally:
            server.terminate()
            server.wait(60)
    return rows


KILL_DELAYS_S = (0.3, 1.0, 2.0, 4.0)
MCP_FACTS = 1_000  # the most one `remember` takes


def kill_rows(root: Path) -> list[Row]:
    """kill -9 in the middle of a write, at several moments after it was sent (HTTP: a 20,000-fact upload; MCP
    stdio: `remember` of 1,000 facts, the most it takes). Clean: the KB opens after, holds the write whole or not
    at all, and takes the next write."""
    rows = [Row("HTTP", f"kill -9 mid-write (20,000-fact upload, {len(KILL_DELAYS_S)} moments)")]
    rows.append(Row("MCP stdio", f"kill -9 mid-write (remember {MCP_FACTS:,} facts, {len(KILL_DELAYS_S)} moments)"))
    outcomes: dict[str, list[str]] = {row.channel: [] for row in rows}
    for n, delay in enumerate(KILL_DELAYS_S):
        for row, kill in zip(rows, (_kill_http, _kill_mcp), strict=True):
            folder = root / f"kill-{row.channel[:4].strip()}-{n}"
            folder.mkdir()
            db = small_kb(folder)
            before = _facts(db)
            started = time.monotonic()
            peak_mb, sent = kill(db, delay)
            after = _facts(db)
            row.wall_s += time.monotonic() - started
            row.peak_mb = max(row.peak_mb, peak_mb)
            row.tried += 1
            whole = after is not None and before is not None and after in (before, before + sent)
            outcomes[row.channel].append("none" if after == before else "all" if whole else "torn")
            row.survived += int(after is not None)
            nxt = _next_write(db) if after is not None else False
            row.clean += int(whole and nxt)
            if not (whole and nxt):
                row.failures.append(f"killed {delay} s in: facts {before} -> {after} (sent {sent}), next write {nxt}")
    for row in rows:
        row.case += (
            f" (killed after {', '.join(f'{d:g}' for d in KILL_DELAYS_S)} s: {', '.join(outcomes[row.channel])})"
        )
    return rows


def _next_write(db: Path) -> bool:
    try:
        with Brain.open(db) as brain:
            path = db.parent / "next.jsonl"
            path.write_text(json.dumps({"subject": "next", "predicate": "is_a", "object": "k1"}) + "\n")
            brain.load([path])
            return True
    except KgbrainError:
        return False


def _kill_http(db: Path, delay: float) -> tuple[float, int]:
    port = _port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [PY, "-m", "kgbrain", "--db", str(db), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(lambda: _health(base) is not None, 120)
    peak = Peak(server.pid)
    body = _upload_rows("x", 20_000)

    def send() -> None:
        with contextlib.suppress(httpx.HTTPError):  # (killed)
            httpx.post(
                base + "/v1/load?name=x.jsonl",
                content=body,
                headers={"content-type": "application/x-ndjson"},
                timeout=300,
            )

    thread = threading.Thread(target=send)
    thread.start()
    time.sleep(delay)
    server.kill()
    server.wait(60)
    thread.join()
    return peak.stop(), 20_000


def _kill_mcp(db: Path, delay: float) -> tuple[float, int]:
    server = subprocess.Popen(
        [PY, "-m", "kgbrain", "--db", str(db), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _hello(server)
    peak = Peak(server.pid)
    facts = [{"subject": f"y{i}", "predicate": "is_a", "object": "k1"} for i in range(MCP_FACTS)]
    call = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"facts": facts}},
    }
    assert server.stdin is not None
    server.stdin.write(json.dumps(call).encode() + b"\n")
    server.stdin.flush()
    time.sleep(delay)
    server.kill()
    server.wait(60)
    return peak.stop(), MCP_FACTS


def _hello(server: subprocess.Popen[bytes]) -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    _rpc(server, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}, 120)
    assert server.stdin is not None
    server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    server.stdin.flush()


def mcp_limit_rows(root: Path) -> list[Row]:
    """`kgbrain mcp --timeout 0.1 --write-timeout 1` over stdio: a cap-size draft and a 1,000-fact remember
    past the limits, then a question and a one-fact remember; and a client that closes stdin in the middle of a
    remember. Clean: short answers, the next calls answered, a timed-out remember stores nothing, the server
    exits on its own once its client is gone, and the KB holds that write whole or not at all."""
    (root / "mcp-limits").mkdir()
    db = small_kb(root / "mcp-limits")
    before = _facts(db) or 0
    rows: list[Row] = []
    # (--write-timeout 1, not 0.1: at load 15-19 a one-fact remember took more than 0.3 s on 50 tries running)
    command = [PY, "-m", "kgbrain", "--db", str(db), "mcp", "--timeout", "0.1", "--write-timeout", "1"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as server:
        try:
            _hello(server)
            draft = " ".join(f"The n{i} is a k{i % 23}." for i in range(2_000))[:10_000]
            rows.append(
                _mcp_case(server, 1, ("draft at the cap, --timeout 0.1", "check_answer", {"draft": draft}), 120)
            )
            facts = [{"subject": f"z{i}", "predicate": "is_a", "object": "k1"} for i in range(MCP_FACTS)]
            row = _mcp_case(server, 2, ("remember 1,000 facts, --write-timeout 1", "remember", {"facts": facts}), 120)
            landed = False
            for k in range(50):  # a remember queued behind the abandoned one answers "timed out" and never starts
                one = _rpc(
                    server,
                    _call(10 + k, "remember", {"facts": [{"subject": "one", "predicate": "is_a", "object": "k1"}]}),
                    120,
                )
                landed = one is not None and "result" in one and not one["result"].get("isError")
                if landed:
                    break
            row.clean = int(row.clean and landed)
            rows.append(row)
        finally:
            server.kill()
            server.wait(60)
    stored = _facts(db)
    rows[-1].case += f" (facts {before} -> {stored})"
    if stored not in (before + 1, before + 1 + MCP_FACTS):
        rows[-1].clean = 0
        rows[-1].failures.append(f"facts {before} -> {stored}")
    rows.append(_mcp_gone(root))
    return rows


def _call(n: int, tool: str, args: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": args}}


def _mcp_gone(root: Path) -> Row:
    row = Row("MCP stdio", f"client closes stdin mid-remember ({MCP_FACTS:,} facts)")
    (root / "mcp-gone").mkdir()
    db = small_kb(root / "mcp-gone")
    before = _facts(db) or 0
    server = subprocess.Popen(
        [PY, "-m", "kgbrain", "--db", str(db), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    server.stdin.write(
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}).encode() + b"\n"
    )
    server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    facts = [{"subject": f"w{i}", "predicate": "is_a", "object": "k1"} for i in range(MCP_FACTS)]
    server.stdin.write(json.dumps(_call(1, "remember", {"facts": facts})).encode() + b"\n")
    server.stdin.flush()
    time.sleep(1.0)
    peak = Peak(server.pid)
    started = time.monotonic()
    server.stdin.close()
    try:
        server.wait(120)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(60)
    row.wall_s = time.monotonic() - started
    row.peak_mb = peak.stop()
    stored = _facts(db)
    row.tried = 1
    row.survived = int(stored is not None)
    row.clean = int(row.wall_s < 60 and stored in (before, before + MCP_FACTS) and _next_write(db))
    row.case += f" (exited {row.wall_s:.1f} s after, facts {before} -> {stored})"
    if not row.clean:
        row.failures.append(f"exit after {row.wall_s:.1f} s, facts {before} -> {stored}")
    return row


def _wait(ready: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not come up")
        time.sleep(0.2)


MCP_CASES: list[tuple[str, str, Any]] = [
    ("claim of 1 MB", "verify_claims", {"claims": ["a neuron is a cell " + MB]}),
    ("draft of 49,000 chars", "check_answer", {"draft": "Neurons are cells. " * 2578}),
    ("remember a 1 MB value", "remember", {"facts": [{"subject": "a", "predicate": "has_note", "value": MB}]}),
    ("100,000 brackets as text", "ask", {"question": "[" * 100_000}),
    ("recall limit=-1", "recall", {"concept": "neuron", "limit": -1}),
    ("recall of a 9,000-char value", "recall", {"concept": "neuron", "limit": 200}),
    ("forget an unknown id", "forget", {"fact_id": "f_nope"}),
]


def mcp_rows(root: Path, timeout: float) -> list[Row]:
    (root / "mcp").mkdir()
    db = small_kb(root / "mcp")
    with subprocess.Popen(
        [PY, "-m", "kgbrain", "--db", str(db), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            hello = {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            }
            _rpc(server, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}, 120)
            assert server.stdin is not None
            server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
            rows = [_mcp_case(server, n, case, timeout) for n, case in enumerate(MCP_CASES, start=1)]
            raw = b'{"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": "ask", "arguments": '
            rows.append(
                _mcp_case(server, 99, ("lone surrogate escape", "ask", raw + b'{"question": "\\ud800?"}}}'), timeout)
            )
            deep = raw.replace(b'"id": 99', b'"id": 98').replace(b'"ask"', b'"verify_claims"')
            nested = b'{"claims": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}}"  # real nesting (json.dumps cannot)
            rows.append(
                _mcp_case(server, 98, ("arguments nested 100,000 deep", "verify_claims", deep + nested), timeout)
            )
        finally:
            server.kill()
    return rows


def _rpc(server: subprocess.Popen[bytes], message: Any, timeout: float) -> dict[str, Any] | None:
    assert server.stdin is not None
    assert server.stdout is not None
    server.stdin.write((message if isinstance(message, bytes) else json.dumps(message).encode()) + b"\n")
    server.stdin.flush()
    ready, _, _ = select.select([server.stdout], [], [], timeout)
    return json.loads(server.stdout.readline()) if ready else None


def _mcp_case(server: subprocess.Popen[bytes], n: int, case: tuple[str, str, Any], timeout: float) -> Row:
    name, tool, args = case
    row = Row("MCP stdio", name)
    message = (
        args
        if isinstance(args, bytes)
        else {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    )
    peak = Peak(server.pid)
    started = time.monotonic()
    reply = _rpc(server, message, timeout)
    row.wall_s = time.monotonic() - started
    row.peak_mb = peak.stop()
    row.tried = 1
    after = _rpc(
        server,
        {
            "jsonrpc": "2.0",
            "id": 1000 + n,
            "method": "tools/call",
            "params": {"name": "ask", "arguments": {"question": "Is a neuron a cell?"}},
        },
        60,
    )
    row.survived = int(server.poll() is None and after is not None)
    size = len(json.dumps(reply)) if reply is not None else 0
    row.clean = int(row.survived and reply is not None and size < 200_000)
    if not row.clean:
        row.failures.append(f"reply {json.dumps(reply)[:160] if reply else None}, {row.wall_s:.1f} s")
    return row


def table(rows: list[Row]) -> None:
    print("\n| channel | case | tried | survived | clean | wall s | peak RSS MB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r.channel} | {r.case} | {r.tried} | {r.survived} | {r.clean} | {r.wall_s:.2f} | {r.peak_mb:.0f} |")
    total = (sum(r.tried for r in rows), sum(r.survived for r in rows), sum(r.clean for r in rows))
    print(f"| **all** | | **{total[0]}** | **{total[1]}** | **{total[2]}** | | |")
    for r in rows:
        for f in r.failures:
            print(f"- not clean: {r.channel} / {r.case}: {f}")


def run_all(root: Path, timeout: float) -> list[Row]:
    return (
        http_rows(root, timeout)
        + past_limit_rows(root)
        + abandoned_rows(root)
        + mcp_rows(root, timeout)
        + mcp_limit_rows(root)
        + kill_rows(root)
    )


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="faults-service-") as tmp:
        rows = run_all(Path(tmp), args.timeout)
    table(rows)
    print(f"\n{time.monotonic() - started:.0f} s wall, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
