"""The MCP server (`kgbrain mcp`): the knowledge base as tools an AI agent can pick, on the `mcp` SDK (2.x).

Every tool calls the same `Service` methods as the HTTP API, so an agent gets the verdicts `kgbrain verify`
and `kgbrain ask` would give. Each result is one JSON document kept under 25,000 tokens: long lists are paged
with a cursor, batches are capped, and anything still too long is refused with a message saying how to narrow it.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from kgbrain.choices import ConflictStatus, values
from kgbrain.errors import KgbrainError
from kgbrain.models import (
    MAX_TOOL_CLAIMS,
    AskTool,
    CheckAnswerTool,
    ConflictsTool,
    ExplainTool,
    ForgetTool,
    RecallTool,
    RememberTool,
    SearchConceptsTool,
    VerifyClaimsTool,
    validated,
)
from kgbrain.service.core import READ_TIMEOUT_S, WRITE_TIMEOUT_S, Service
from kgbrain.service.guard import Refused, Scope, Tokens
from kgbrain.service.replies import clip

# 25,000 tokens at the ~3 characters a token that Russian text costs; English text stays well under it.
MAX_RESULT_CHARS = 75_000
_log = logging.getLogger("kgbrain.service")
PAGE_BYTES = 50_000  # a recall or conflicts page stops here (at least one item): the cursor always moves on

INSTRUCTIONS = """kgbrain is an explainable knowledge base (Russian and English). Every answer and verdict
comes with its reasoning trace, the facts and sources used, and a confidence. Use `ask` for questions,
`verify_claims` to fact-check statements, `check_answer` to check a whole draft answer, `search_concepts`
to find what the knowledge base calls something, `recall` to list what it knows about a concept, `explain`
to see where a fact comes from, `conflicts` for contradictions, `remember` to add facts and `forget` to
retract one."""


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its arguments' model (the published input schema and the validation of each call), what it runs,
    and whether it writes (left out of a read-only server)."""

    name: str
    arguments: type[BaseModel]
    run: Callable[[Service, Any, str], Awaitable[str]]  # (service, arguments, the client's name)
    description: str
    writes: bool = False
    scope: Scope = Scope.READ  # what an HTTP client's token must allow


def build(service: Service, tokens: Tokens | None = None) -> Any:
    """An `MCPServer` whose tools call `service` (write tools only when the service can write). Over HTTP, each
    call's bearer token must allow the tool's scope (stdio has no headers: its client started the server)."""
    from mcp.server.mcpserver import MCPServer

    tools = [_tool(spec, service, tokens or Tokens()) for spec in TOOLS if not (spec.writes and service.read_only)]
    return MCPServer(name="kgbrain", instructions=INSTRUCTIONS, tools=tools)


def client_name(ctx: Any) -> str:
    """The client's name from the MCP handshake (`clientInfo.name`), cut to a short plain word."""
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    info = getattr(params, "client_info", None)
    name = re.sub(r"[^\w.\-]+", "-", str(getattr(info, "name", "") or "")).strip("-")[:60]
    return name or "client"


def _granted(tokens: Tokens, ctx: Any, needed: Scope) -> None:
    headers = getattr(ctx, "headers", None) if tokens.enabled else None
    if headers is not None:
        tokens.grant(headers.get("authorization"), needed)


def _tool(spec: ToolSpec, service: Service, tokens: Tokens) -> Any:
    """The SDK's `Tool` with the model's JSON schema as its input schema. The SDK's own argument model passes the
    arguments through untouched, so the model validates them and a bad one is a tool error in the project's words
    ("field 'limit': 0 is outside 1..200"), not pydantic's."""
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.tools import Tool
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata

    class Passed(ArgModelBase):
        model_config = ConfigDict(extra="allow")

        def model_dump_one_level(self) -> dict[str, Any]:
            return {"arguments": dict(self.model_extra or {})}

    async def call(arguments: dict[str, Any], ctx: Any) -> str:
        try:
            _granted(tokens, ctx, spec.scope)
            request = validated(spec.arguments, _json_strings(spec.arguments, arguments))
            return await spec.run(service, request, client_name(ctx))
        except Refused as exc:
            raise _tool_error(str(exc)) from None
        except KgbrainError as exc:
            raise _tool_error(str(exc)) from None
        except ToolError:
            raise
        except Exception as exc:  # the edge: a bug is a short tool error, never the input echoed
            _log.exception("tool %s failed", spec.name)
            raise _tool_error(f"internal error ({type(exc).__name__}); the server log has the details") from None

    return Tool(
        fn=call,
        name=spec.name,
        description=spec.description,
        parameters=spec.arguments.model_json_schema(),
        fn_metadata=FuncMetadata(arg_model=Passed),
        is_async=True,
        context_kwarg="ctx",
    )


def _json_strings(model: type[BaseModel], arguments: dict[str, Any]) -> dict[str, Any]:
    # Some clients send a list or an object argument as a JSON string (the SDK parses those for its own models).
    out = dict(arguments)
    for name, value in arguments.items():
        field = model.model_fields.get(name)
        if field is not None and field.annotation is not str and isinstance(value, str):
            try:
                parsed = json.loads(value)
            except ValueError:
                continue
            if isinstance(parsed, list | dict):
                out[name] = parsed
    return out


async def _ask(service: Service, a: AskTool, client: str) -> str:
    return await _call(lambda: service.ask(a.question, as_of=a.as_of, session=a.session, channel="mcp"))


async def _verify_claims(service: Service, a: VerifyClaimsTool, client: str) -> str:
    verdicts = await service.verify(
        a.claims, closed_world=a.closed_world, min_confidence=a.min_confidence, as_of=a.as_of
    )
    return _fit_verdicts([v.model_dump() for v in verdicts])


async def _check_answer(service: Service, a: CheckAnswerTool, client: str) -> str:
    return await _call(lambda: service.check_answer(a.draft, question=a.question, as_of=a.as_of))


async def _remember(service: Service, a: RememberTool, client: str) -> str:
    # An agent that knows nothing of provenance still gets its facts stored: under the name its client gave in
    # the handshake, which the reply states so the agent can tell the user where the facts were filed.
    source = a.source or f"mcp:{client}"
    try:
        report = await service.add_facts(a.facts, source=source, trust=a.trust)
    except KgbrainError as exc:
        raise _tool_error(str(exc)) from None
    data: dict[str, Any] = {**report.model_dump(), "source": source}
    if not a.source:
        data["note"] = f"no source given: the facts were stored with source {source!r} (the client's name)"
    return json.dumps(data, ensure_ascii=False, default=str)


async def _recall(service: Service, a: RecallTool, client: str) -> str:
    return await _call(
        lambda: service.recall(a.concept, cursor=a.cursor, limit=a.limit, as_of=a.as_of, max_bytes=PAGE_BYTES)
    )


async def _search_concepts(service: Service, a: SearchConceptsTool, client: str) -> str:
    return await _call(lambda: service.search_concepts(a.query, limit=a.limit))


async def _forget(service: Service, a: ForgetTool, client: str) -> str:
    return await _call(lambda: service.retract(a.fact_id, by="mcp", reason=a.reason))


async def _conflicts(service: Service, a: ConflictsTool, client: str) -> str:
    return await _call(
        lambda: service.conflicts(status=a.status, type=a.type, cursor=a.cursor, limit=a.limit, max_bytes=PAGE_BYTES)
    )


async def _explain(service: Service, a: ExplainTool, client: str) -> str:
    return await _call(lambda: service.explain(a.fact_id, as_of=a.as_of))


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "ask",
        AskTool,
        _ask,
        "Answer a question in Russian or English from the knowledge base. Returns the hedged answer text, "
        "confidence, the reasoning type (deductive, causal, analogical, associative), the sources and a step-by-step "
        "trace with fact ids. Use for open questions ('Why are neurons important for thinking?') and yes/no questions.",
    ),
    ToolSpec(
        "verify_claims",
        VerifyClaimsTool,
        _verify_claims,
        "Fact-check claims against the knowledge base. Each claim is either a sentence or an object "
        '{"subject", "predicate", "object"} (optional "id", "polarity": false for a negated claim). Returns one '
        "verdict per claim in order: SUPPORTED, REFUTED, CONFLICTING or NOT_ENOUGH_INFO, with confidence and proof. "
        f"At most {MAX_TOOL_CLAIMS} claims per call; verdicts that do not fit in one reply are listed in "
        "`not_returned` (send those claims again). closed_world=true makes unprovable claims REFUTED.",
    ),
    ToolSpec(
        "check_answer",
        CheckAnswerTool,
        _check_answer,
        "Check a whole draft answer written elsewhere (e.g. by you) before giving it: reasoning rules, each "
        "sentence against the knowledge base (supported, contradicted or conflicting, with the deciding fact), and "
        "whether its citations are backed. Returns the corrected draft and what was found.",
    ),
    ToolSpec(
        "search_concepts",
        SearchConceptsTool,
        _search_concepts,
        "Find concepts by name: id, label or alias in any case or inflection (Russian or English), then close "
        "spellings. Use it to learn the id the knowledge base uses before calling recall or verify_claims.",
    ),
    ToolSpec(
        "recall",
        RecallTool,
        _recall,
        "List what the knowledge base knows about one concept: every fact with it as subject or object, with "
        "source, trust, confidence and status (active, disputed, retracted...), and the latest episodes about it "
        "(questions asked and answered, with corrections; memory, not proof). Paged: pass next_cursor to continue.",
    ),
    ToolSpec(
        "explain",
        ExplainTool,
        _explain,
        "Explain where a fact comes from: its source, trust, authority, dates, status and confidence, how it was "
        "derived (the rule ids down to sourced facts, for facts derived by rules) and the conflicts it is part "
        "of. Takes a fact id as seen in traces, proofs and recall results.",
    ),
    ToolSpec(
        "conflicts",
        ConflictsTool,
        _conflicts,
        "List contradictions the knowledge base recorded (newest first) with their facts, how each was resolved "
        f"and why. Filter by status ({' or '.join(map(repr, values(ConflictStatus)))}) or type. Paged: pass "
        "next_cursor to continue.",
    ),
    ToolSpec(
        "remember",
        RememberTool,
        _remember,
        "Store facts, all or nothing. Each fact is an object in the facts-file schema: "
        '{"subject", "predicate", "object"} or {"subject", "predicate", "value", "unit"}, optional "polarity" '
        '(false for a negative fact), "confidence" 0..1, "observed_at"; "label"/"alias" rows name concepts. '
        "`source` names where the facts come from (default: `mcp:<this client's name>`, stated in the reply); "
        "`trust` (0..1) is how far to trust it. Contradictions with stored facts are detected and recorded.",
        writes=True,
        scope=Scope.WRITE,
    ),
    ToolSpec(
        "forget",
        ForgetTool,
        _forget,
        "Retract a fact by id. Non-destructive: it stays with its history, but reasoning stops using it and "
        "open conflicts it took part in close. Give a reason.",
        writes=True,
        scope=Scope.ADMIN,
    ),
)


async def _call(fn: Callable[[], Awaitable[BaseModel]]) -> str:
    try:
        result = await fn()
    except KgbrainError as exc:
        raise _tool_error(str(exc)) from None
    text = json.dumps(result.model_dump(), ensure_ascii=False, default=str)
    if len(text) > MAX_RESULT_CHARS:
        raise _tool_error(
            f"the result is too long for one reply ({len(text)} characters); ask about fewer claims, or page "
            "with a smaller limit"
        )
    return text


def _fit_verdicts(verdicts: list[dict[str, Any]]) -> str:
    """As many verdicts as fit in one reply, in order; the ids of the rest are listed to send again. A verdict too
    long for any reply on its own is named apart (sending it again would never help)."""
    kept: list[dict[str, Any]] = []
    too_long: list[str] = []
    size = 200
    rest: list[str] = []
    for verdict in verdicts:
        line = len(json.dumps(verdict, ensure_ascii=False, default=str)) + 2
        if line + 400 > MAX_RESULT_CHARS:
            too_long.append(str(verdict["id"]))
        elif rest or size + line > MAX_RESULT_CHARS:
            rest.append(str(verdict["id"]))
        else:
            kept.append(verdict)
            size += line
    data: dict[str, Any] = {"verdicts": kept, "not_returned": rest}
    notes = []
    if rest:
        notes.append(f"{len(rest)} verdicts did not fit in this reply; send those claims again in another call")
    if too_long:
        data["too_long"] = too_long
        notes.append(
            f"{len(too_long)} verdicts are each too long for any reply (their proofs); verify those claims with "
            "`kgbrain verify` or POST /v1/verify"
        )
    if notes:
        data["note"] = "; ".join(notes)
    return json.dumps(data, ensure_ascii=False, default=str)


def _tool_error(message: str) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(clip(message))


def run_mcp(
    db: Path | None,
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8766,
    read_only: bool = False,
    demo: bool = False,
    allow_hosts: frozenset[str] = frozenset(),
    read_timeout_s: float = READ_TIMEOUT_S,
    write_timeout_s: float = WRITE_TIMEOUT_S,
) -> None:
    """Serve over stdio, or streamable HTTP at http://host:port/mcp, until the client leaves; reads and writes
    are time-limited as `kgbrain serve`'s are.

    Over HTTP every request passes the Host and Origin checks of `guard.py`, and, when tokens are set
    (KGBRAIN_TOKEN, KGBRAIN_WRITE_TOKEN, KGBRAIN_READ_TOKEN), must bear one; each tool call needs its scope.

    Raises:
        InputError: a non-loopback host without a token.
        DatabaseLocked: another process holds the knowledge base.
    """
    from kgbrain.service.run import check_exposure

    tokens = Tokens.from_env()
    if transport == "http":
        check_exposure(host, tokens)
    service = Service(
        db, read_only=read_only, demo=demo, read_timeout_s=read_timeout_s, write_timeout_s=write_timeout_s
    )
    try:
        server = build(service, tokens)
        if transport == "stdio":
            from kgbrain.service.stdio_input import answer_refusals, mend_stdin

            service.announce(f"`kgbrain mcp` over stdio (pid {os.getpid()})")
            answer_refusals(server)
            mend_stdin()
            server.run("stdio")
        else:
            service.announce(f"`kgbrain mcp` at http://{host}:{port}/mcp")
            _serve_http(server, host, port, tokens, allow_hosts)
    finally:
        service.close()


def _serve_http(server: Any, host: str, port: int, tokens: Tokens, allow_hosts: frozenset[str]) -> None:
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from kgbrain.service.framing import framed, h11_protocol
    from kgbrain.service.guard import allowed_hosts, guarded

    hosts = allowed_hosts(host, allow_hosts)
    # The SDK's own DNS-rebinding check, told the same names (ours runs first and answers in the JSON error shape).
    names = sorted(f"[{h}]" if ":" in h else h for h in hosts)
    security = TransportSecuritySettings(
        allowed_hosts=[*names, *(f"{h}:*" for h in names)],
        allowed_origins=[
            f"{scheme}://{h}{port_}" for h in names for scheme in ("http", "https") for port_ in ("", ":*")
        ],
    )
    app = framed(guarded(server.streamable_http_app(host=host, transport_security=security), hosts, tokens))
    # h11, never httptools when it happens to be installed: the framing check (service/framing.py) is made for it.
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, http=h11_protocol())
