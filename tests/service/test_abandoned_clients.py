"""A client that goes away frees what its request held (issue #22): an upload whose client closed the connection
while the server was writing it is stopped and rolled back (before, it ran on and committed, holding the writer
queue for everyone meanwhile); one that drops in the middle of its body never starts. Real `kgbrain serve`."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.service.test_timeouts_served import GLORP, ROWS, serving


def _send(url: str, path: str, body: bytes, *, declared: int | None = None) -> None:
    """POST `body` over a raw socket and close the connection at once, without reading the reply."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
            f"Content-Type: application/x-ndjson\r\nContent-Length: {declared or len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode("ascii") + body)
        time.sleep(0.5)  # the server has the body and is writing it


def _rows(n: int) -> bytes:
    return "".join(
        json.dumps({"subject": f"s{i}", "predicate": "is_a", "object": f"k{i % 40}"}) + "\n" for i in range(n)
    ).encode()


@pytest.mark.slow
def test_an_upload_whose_client_went_away_is_rolled_back_and_frees_the_writer(tmp_path: Path, no_block: Path) -> None:
    with serving(tmp_path, no_block, "--write-timeout", "600") as server:
        _send(server, "/v1/load?name=big.jsonl", _rows(50_000))
        # In the middle of its body: a 10 MB upload of which 1 MB arrives.
        _send(server, "/v1/load?name=half.jsonl", _rows(40_000)[: 2**20], declared=10 * 2**20)
        with httpx.Client(base_url=server, timeout=120) as client:
            assert client.get("/healthz").status_code == 200
            small = client.post("/v1/facts", json={"facts": [GLORP]})
            assert small.status_code == 201, small.text
            assert client.get("/v1/facts", params={"concept": "s1"}).status_code == 404
            assert client.get("/v1/stats").json()["facts"] == len(ROWS) + 1
