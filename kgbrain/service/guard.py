"""Who may talk to a served knowledge base: Host and Origin checks, and bearer tokens with scopes.

The threat model (README, "Security"): a server on loopback is reachable by every web page the user's browser
opens. A page cannot read a cross-origin reply, but it can send a "simple" request (a `text/plain` or form POST,
no preflight), and through DNS rebinding (its own name re-pointed at 127.0.0.1) it can read replies too. So:

- the `Host` header must name this server: a loopback name, the address it was bound to, or a name the operator
  allowed (`--allow-host`, `KGBRAIN_ALLOWED_HOSTS`); anything else is 421 (the rebinding attack sends its name);
- an `Origin` header, when present, must name one of those hosts (403): a foreign page is refused outright;
- a write must say `Content-Type: application/json` (or, for an upload, a type a browser cannot send without a
  preflight): a simple request never writes (415);
- tokens carry a scope: `read` (questions, lists), `write` (also add facts and load files), `admin` (also retract
  and resolve: decisions about facts others stored). `KGBRAIN_TOKEN` is an admin token, as it always was.
"""

from __future__ import annotations

import enum
import hmac
import ipaddress
import json
import os
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Asgi = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]
]

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# A browser sends these content types cross-origin without asking first (a CORS "simple request").
SIMPLE_TYPES = frozenset({"text/plain", "application/x-www-form-urlencoded", "multipart/form-data"})
TOKEN_VARIABLES = {"KGBRAIN_TOKEN": "admin", "KGBRAIN_WRITE_TOKEN": "write", "KGBRAIN_READ_TOKEN": "read"}


class Scope(enum.IntEnum):
    """What a token allows; each includes the ones below it."""

    READ = 1
    WRITE = 2
    ADMIN = 3


class Refused(Exception):
    """A request this server will not serve: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Tokens:
    """Bearer tokens and their scopes (empty: no authentication, every request may do everything)."""

    scopes: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Tokens:
        """The tokens named by KGBRAIN_TOKEN (admin), KGBRAIN_WRITE_TOKEN and KGBRAIN_READ_TOKEN."""
        env = os.environ if environ is None else environ
        return cls({env[name]: scope for name, scope in TOKEN_VARIABLES.items() if env.get(name)})

    @property
    def enabled(self) -> bool:
        """Whether requests must bear a token."""
        return bool(self.scopes)

    def grant(self, authorization: str | None, needed: Scope) -> None:
        """Check the `Authorization` header allows `needed`.

        Raises:
            Refused: 401 without a known token, 403 with a token of a lower scope.
        """
        if not self.enabled:
            return
        scheme, _, given = (authorization or "").partition(" ")
        granted = None
        if scheme.lower() == "bearer":
            for token, scope in self.scopes.items():  # every token compared, in constant time each
                if hmac.compare_digest(given.strip().encode(), token.encode()):
                    granted = Scope[scope.upper()]
        if granted is None:
            raise Refused(401, "missing or wrong bearer token (Authorization: Bearer <token>)")
        if granted < needed:
            raise Refused(
                403, f"this token's scope is {granted.name.lower()}; this needs a {needed.name.lower()} token"
            )


def allowed_hosts(bound: str, extra: frozenset[str] = frozenset()) -> frozenset[str]:
    """The host names a request may address: loopback names, the bound address, the operator's names."""
    env = {h.strip().lower() for h in os.environ.get("KGBRAIN_ALLOWED_HOSTS", "").split(",") if h.strip()}
    named = {bound.lower().strip("[]")} - {"0.0.0.0", "::", ""}
    return LOOPBACK_NAMES | named | {h.lower() for h in extra} | env


# RFC 9110 §7.2 / RFC 3986 §3.2.2: Host = uri-host [ ":" port ]; a name is dot-separated labels of letters, digits,
# hyphens (and underscores, which some private names use); an IPv6 address only in brackets. Anything else (a
# userinfo `@`, a second colon, text after `]`, an empty port) is malformed: never trimmed into something allowed.
_NAME = re.compile(r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*")
_PORT = re.compile(r"[0-9]{1,5}")


def host_name(header: str) -> str | None:
    """The name part of a `Host` header or an origin's authority (`[::1]:80` -> `::1`, `a:1` -> `a`), lower-cased;
    None when it is not exactly a host name or a bracketed IPv6 address with an optional port."""
    text = header.strip().lower()
    if text.startswith("["):
        inner, bracket, rest = text[1:].partition("]")
        if not bracket or not _valid_port(rest) or ":" not in inner:
            return None
        try:
            return str(ipaddress.IPv6Address(inner))  # one spelling: [0:0:0:0:0:0:0:1] is ::1
        except ValueError:
            return None
    name, colon, port = text.partition(":")
    if not _NAME.fullmatch(name) or (colon and not _valid_port(colon + port)):
        return None
    return name


def _valid_port(text: str) -> bool:
    """Whether `text` is empty or `:` and a port number."""
    if not text:
        return True
    return text.startswith(":") and _PORT.fullmatch(text[1:]) is not None and int(text[1:]) <= 65535


def check_host(host: str | list[str] | None, allowed: frozenset[str]) -> None:
    """Raises Refused unless `host` (the Host header's lines) names this server: 400 for a missing, repeated or
    malformed header (RFC 9112 §3.2), 421 for a well-formed name this server does not answer for."""
    lines = [host] if isinstance(host, str) else list(host or [])
    if len(lines) != 1:
        raise Refused(400, "a request needs exactly one Host header" + (f" (got {len(lines)})" if lines else ""))
    name = host_name(lines[0])
    if name is None:
        raise Refused(
            400, f"malformed Host header {lines[0][:60]!r}: expected a host name or [IPv6] and an optional :port"
        )
    if name not in allowed:
        raise Refused(421, f"this server does not answer for the host {name[:60]!r} (allowed: {_listed(allowed)})")


def check_origin(origin: str | None, allowed: frozenset[str]) -> None:
    """Raises Refused (403) when a browser says the request comes from a page of another site."""
    if origin is None:
        return
    _, sep, authority = origin.partition("://")
    if not sep or host_name(authority.split("/", 1)[0]) not in allowed:
        raise Refused(403, f"requests from the web origin {origin[:60]!r} are refused (a page of another site)")


def check_write_type(content_type: str | None, *, raw: bool) -> None:
    """Raises Refused (415) for a write a browser could send cross-site without asking (a simple request)."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if raw and media and media not in SIMPLE_TYPES:
        return
    if not raw and media == "application/json":
        return
    wanted = "a non-form type such as application/octet-stream" if raw else "application/json"
    raise Refused(415, f"a write must be sent as {wanted} (got {media[:40] or 'no Content-Type'!r})")


def is_loopback(host: str) -> bool:
    """Whether `host` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _listed(allowed: frozenset[str]) -> str:
    return ", ".join(sorted(allowed)[:6])


def guarded(app: Asgi, allowed: frozenset[str], tokens: Tokens) -> Asgi:
    """`app` behind the Host and Origin checks and a token of at least READ scope (the MCP HTTP transport:
    each tool then checks its own scope). Refusals are the service's JSON error shape."""

    async def guard(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        raw = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        headers = dict(raw)
        try:
            check_host([v for k, v in raw if k == "host"], allowed)
            check_origin(headers.get("origin"), allowed)
            tokens.grant(headers.get("authorization"), Scope.READ)
        except Refused as exc:
            body = json.dumps({"error": str(exc)}).encode()
            extra = [(b"www-authenticate", b"Bearer")] if exc.status == 401 else []
            start = {"type": "http.response.start", "status": exc.status}
            start["headers"] = [(b"content-type", b"application/json"), *extra]
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return guard
