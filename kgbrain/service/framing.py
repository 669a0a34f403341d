"""Requests whose length is ambiguous are refused before any app sees them (HTTP request smuggling).

A request with both `Transfer-Encoding` and `Content-Length` is read by one HTTP parser by its chunks and by
another (a proxy in front) by its length; whatever lies between the two ends is a second, hidden request to one of
them. h11 (the parser uvicorn runs here) reads the chunks and then the rest as the next request on the connection,
so a hidden write was stored. RFC 9112 §6.1 and §6.3: such a request "ought to be handled as an error", and a server
that answers it must close the connection after the response. So: 400 in the JSON error shape, `Connection: close`,
and the bytes after it are never read as a request. The same for a `Transfer-Encoding` in an HTTP/1.0 request
(§6.1: faulty framing), and for more than one `Content-Length` or `Transfer-Encoding` line.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Asgi = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]


def framing_problem(scope: MutableMapping[str, Any]) -> str | None:
    """Why an HTTP request's framing is ambiguous, or None when it is not."""
    names = [bytes(name).lower() for name, _ in scope.get("headers", [])]
    chunked = names.count(b"transfer-encoding")
    lengths = names.count(b"content-length")
    if chunked and lengths:
        return "a request may not have both Transfer-Encoding and Content-Length (RFC 9112 §6.3); send one"
    if chunked and scope.get("http_version") == "1.0":
        return "an HTTP/1.0 request may not use Transfer-Encoding (RFC 9112 §6.1)"
    if chunked > 1 or lengths > 1:
        return "a request may have at most one Transfer-Encoding and one Content-Length header"
    return None


def framed(app: Asgi) -> Asgi:
    """`app` behind the framing check: an ambiguous request is answered 400 and its connection closed."""

    async def check(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        problem = framing_problem(scope) if scope["type"] == "http" else None
        if problem is None:
            await app(scope, receive, send)
            return
        body = json.dumps({"error": problem}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return check


def h11_protocol() -> type[Any]:
    """uvicorn's h11 protocol, answering the requests h11 itself cannot parse (a missing or repeated Host, a bad
    request line or header, an unsupported Transfer-Encoding) in the JSON error shape instead of plain text."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class JsonErrors(H11Protocol):
        def send_400_response(self, msg: str) -> None:
            body = json.dumps({"error": f"malformed HTTP request (the request line or a header): {msg}"}).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=body), h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
            self.transport.close()

    return JsonErrors
