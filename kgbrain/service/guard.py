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


def host_name(header: str) -> str:
    """The name part of a `Host` header or an origin's authority (`[::1]:80` -> `::1`, `a:1` -> `a`)."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else ""
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def check_host(host: str | None, allowed: frozenset[str]) -> None:
    """Raises Refused (421) unless `host` names this server."""
    name = host_name(host or "")
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
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            check_host(headers.get("host"), allowed)
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
