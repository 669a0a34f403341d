"""Raw HTTP/1.1 against real servers (`kgbrain serve`, `kgbrain mcp --transport http`): what a client library never
sends. Request smuggling (issue #22, blind attacker: a POST with `Transfer-Encoding: chunked` and a
`Content-Length` that covers a second request stored the hidden write) and malformed Host headers."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.service.framing import framing_problem
from tests.security.conftest import small_kb
from tests.service.conftest import Server, env_with, wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, no_block: Path) -> Iterator[Server]:
    served = Server(small_kb(tmp_path_factory.mktemp("framing")), env_with(no_block))
    yield served
    served.stop()


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split("/", 1)[0].rsplit(":", 1)
    return host, int(port)


def exchange(url: str, raw: bytes) -> bytes:
    """Send `raw` on one connection and read until the server closes it (or 30 s pass)."""
    with socket.create_connection(_address(url), timeout=30) as sock:
        sock.sendall(raw)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except TimeoutError:
            pass
        return got


def _fact(subject: str) -> bytes:
    return json.dumps({"facts": [{"subject": subject, "predicate": "is_a", "object": "cell"}]}).encode()


def smuggled(host: str) -> bytes:
    """A chunked POST of one fact whose Content-Length also covers a hidden POST of another."""
    visible = _fact("smuggle_visible")
    hidden_body = _fact("smuggle_hidden")
    hidden = (
        f"POST /v1/facts HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(hidden_body)}\r\n\r\n"
    ).encode() + hidden_body
    chunked = f"{len(visible):x}\r\n".encode() + visible + b"\r\n0\r\n\r\n"
    head = (
        f"POST /v1/facts HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Transfer-Encoding: chunked\r\nContent-Length: {len(chunked) + len(hidden)}\r\n\r\n"
    ).encode()
    return head + chunked + hidden


def _responses(got: bytes) -> list[int]:
    return [int(line.split()[1]) for line in got.split(b"\r\n") if line.startswith(b"HTTP/1.1 ")]


def test_a_request_with_both_lengths_is_refused_and_the_hidden_one_never_read(server: Server) -> None:
    host = server.url.removeprefix("http://")
    got = exchange(server.url, smuggled(host))
    assert _responses(got) == [400], got[:300]  # one answer: the hidden request was never parsed
    head, _, body = got.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    assert "Transfer-Encoding and Content-Length" in json.loads(body)["error"]
    for subject in ("smuggle_visible", "smuggle_hidden"):
        assert server.client.get("/v1/facts", params={"concept": subject}).status_code == 404


def test_plain_chunked_and_plain_length_requests_still_write(server: Server) -> None:
    host = server.url.removeprefix("http://")
    body = _fact("framed_chunked")
    chunked = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"
    head = (
        f"POST /v1/facts HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    )
    got = exchange(server.url, head.encode() + b"Connection: close\r\n\r\n" + chunked)
    assert _responses(got) == [201], got[:300]
    assert server.client.get("/v1/facts", params={"concept": "framed_chunked"}).status_code == 200


@pytest.mark.parametrize(
    ("headers", "version", "refused"),
    [
        ([(b"transfer-encoding", b"chunked"), (b"content-length", b"10")], "1.1", True),
        ([(b"content-length", b"10"), (b"transfer-encoding", b"chunked")], "1.1", True),
        ([(b"transfer-encoding", b"chunked")], "1.0", True),
        ([(b"content-length", b"3"), (b"content-length", b"3")], "1.1", True),
        ([(b"transfer-encoding", b"chunked")], "1.1", False),
        ([(b"content-length", b"10")], "1.0", False),
        ([(b"host", b"x")], "1.1", False),
    ],
)
def test_ambiguous_framing_is_named(headers: list[tuple[bytes, bytes]], version: str, refused: bool) -> None:
    assert (framing_problem({"type": "http", "http_version": version, "headers": headers}) is not None) is refused


def test_the_mcp_http_transport_refuses_both_lengths_too(tmp_path: Path, no_block: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    command = [sys.executable, "-m", "kgbrain", "--db", str(small_kb(tmp_path)), "mcp", "--transport", "http"]
    process = subprocess.Popen(
        [*command, "--port", str(port)],
        env=env_with(no_block),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def listening() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    try:
        wait_until(listening, timeout=120)
        rpc = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
        chunked = f"{len(rpc):x}\r\n".encode() + rpc + b"\r\n0\r\n\r\n"
        hidden = f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n"
            f"Content-Length: {len(chunked) + len(hidden)}\r\n\r\n"
        )
        got = exchange(f"http://127.0.0.1:{port}", head.encode() + chunked + hidden)
        assert _responses(got) == [400], got[:300]  # before: the SDK's answer, then one to the hidden request
        assert b"Transfer-Encoding and Content-Length" in got
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.mark.parametrize(
    "host_lines",
    [
        [b"localhost:80@evil.example"],
        [b"[::1].evil"],
        [b"localhost", b"evil.example"],  # two Host lines: which one a proxy routed by is anyone's guess
        [b"localhost", b"localhost"],
        [b"local\xc3\xa9host"],
        [],
    ],
)
def test_a_malformed_or_repeated_host_is_400_on_the_wire(server: Server, host_lines: list[bytes]) -> None:
    lines = b"".join(b"Host: " + h + b"\r\n" for h in host_lines)
    got = exchange(server.url, b"GET /v1/stats HTTP/1.1\r\n" + lines + b"Connection: close\r\n\r\n")
    assert _responses(got) == [400], got[:300]
    error = json.loads(got.partition(b"\r\n\r\n")[2])["error"]  # none or two: h11's refusal, in the JSON shape too
    assert "Host" in error if len(host_lines) == 1 else "malformed HTTP request" in error


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /v1/stats HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n",
        b"NOT A REQUEST LINE\r\n\r\n",
        b"POST /v1/facts HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n",
        b"GET /v1/stats HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    ],
)
def test_what_h11_cannot_parse_is_a_json_400(server: Server, raw: bytes) -> None:
    got = exchange(server.url, raw)
    assert _responses(got)[:1] in ([400], [501]), got[:300]
    head, _, body = got.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), got[:300]
    assert set(json.loads(body)) == {"error"}


def test_a_well_formed_loopback_host_is_served_on_the_wire(server: Server) -> None:
    _, port = _address(server.url)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
        got = exchange(server.url, f"GET /v1/stats HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        assert _responses(got) == [200], got[:300]
