"""Start the HTTP server (`kgbrain serve`): check the address is safe, open the KB once, run uvicorn."""

from __future__ import annotations

import asyncio
import errno
import socket
import sys
from pathlib import Path

from kgbrain.errors import InputError
from kgbrain.service.core import READ_TIMEOUT_S, WRITE_TIMEOUT_S, Service
from kgbrain.service.framing import framed, h11_protocol
from kgbrain.service.guard import Tokens, allowed_hosts, is_loopback
from kgbrain.service.http import MAX_BODY, Limits, create_app

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


__all__ = ["check_exposure", "is_loopback", "serve"]


def check_exposure(host: str, token: str | Tokens | None) -> None:
    """Refuse to listen beyond this machine without a token.

    Raises:
        InputError: `host` is not a loopback address and no token is set.
    """
    enabled = token.enabled if isinstance(token, Tokens) else bool(token)
    if not is_loopback(host) and not enabled:
        raise InputError(
            f"--host {host!r} accepts connections from other machines; set KGBRAIN_TOKEN (or KGBRAIN_READ_TOKEN / "
            "KGBRAIN_WRITE_TOKEN) to a secret first (every request must then send `Authorization: Bearer <token>`)"
        )


def serve(
    db: Path | None,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    read_only: bool = False,
    demo: bool = False,
    max_body: int = MAX_BODY,
    read_timeout_s: float = READ_TIMEOUT_S,
    write_timeout_s: float = WRITE_TIMEOUT_S,
    allow_hosts: frozenset[str] = frozenset(),
) -> None:
    """Serve the knowledge base at `db` until interrupted; prints the address on stderr once listening.

    Raises:
        InputError: an unsafe address without a token.
        DatabaseLocked: another process holds the knowledge base.
        StoreError: it cannot be opened.
    """
    import uvicorn

    tokens = Tokens.from_env()
    check_exposure(host, tokens)
    sock = bind(host, port)  # before opening anything: a port in use is a clear message, not uvicorn's SystemExit 3
    service = Service(
        db, read_only=read_only, demo=demo, read_timeout_s=read_timeout_s, write_timeout_s=write_timeout_s
    )
    try:
        service.warm()
        app = create_app(
            service,
            Limits(
                max_body=max_body,
                read_timeout_s=read_timeout_s,
                write_timeout_s=write_timeout_s,
                tokens=tokens,
                hosts=allowed_hosts(host, allow_hosts),
            ),
        )
        # h11, never httptools when it happens to be installed: the framing check (service/framing.py) is made for it.
        config = uvicorn.Config(
            framed(app),
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            http=h11_protocol(),
        )
        server = uvicorn.Server(config)

        async def run() -> None:
            task = asyncio.create_task(server.serve(sockets=[sock]))
            while not server.started and not task.done():
                await asyncio.sleep(0.02)
            if server.started:
                bound = server.servers[0].sockets[0].getsockname()
                address = f"http://{_url_host(host)}:{bound[1]}"
                service.announce(f"`kgbrain serve` at {address}")
                where = service.store_path or "the in-memory knowledge base"
                mode = " (read-only)" if read_only else ""
                print(f"kgbrain serving {where} at {address}{mode}", file=sys.stderr, flush=True)
            await task

        asyncio.run(run())
    finally:
        service.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port.

    Raises:
        InputError: the port is in use, or the address cannot be bound here.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise InputError(
                f"port {port} on {host} is already in use (another `kgbrain serve`?); choose another with --port"
            ) from None
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
