"""The MCP server (`kgbrain mcp`): the knowledge base as tools an AI agent can pick, on the `mcp` SDK (2.x).

Every tool calls the same `Service` methods as the HTTP API, so an agent gets the verdicts `kgbrain verify`
and `kgbrain ask` would give. Each result is one JSON document kept under 25,000 tokens: long lists are paged
with a cursor, batches are capped, and anything still too long is refused with a message saying how to narrow it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from kgbrain.errors import InputError, KgbrainError
from kgbrain.service.core import Service

T = TypeVar("T")

# 25,000 tokens at the ~3 characters a token that Russian text costs; English text stays well under it.
MAX_RESULT_CHARS = 75_000
MAX_CLAIMS = 100  # a verdict with its proof is ~1,500 characters: the rest come back as `not_returned`
MAX_FACTS = 1000

INSTRUCTIONS = """kgbrain is an explainable knowledge base (Russian and English). Every answer and verdict
comes with its reasoning trace, the facts and sources used, and a confidence. Use `ask` for questions,
`verify_claims` to fact-check statements, `check_answer` to check a whole draft answer, `search_concepts`
to find what the knowledge base calls something, `recall` to list what it knows about a concept, `explain`
to see where a fact comes from, `conflicts` for contradictions, `remember` to add facts and `forget` to
retract one."""


def build(service: Service) -> Any:
    """An `MCPServer` whose tools call `service` (write tools only when the service can write)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(name="kgbrain", instructions=INSTRUCTIONS)

    def tool(fn: Callable[..., Awaitable[str]], description: str) -> None:
        server.add_tool(fn, name=fn.__name__.removeprefix("tool_"), description=description, structured_output=False)

    async def tool_ask(question: str) -> str:
        return await _call(lambda: service.ask(question))

    async def tool_verify_claims(
        claims: list[dict[str, Any] | str], closed_world: bool = False, min_confidence: float = 0.0
    ) -> str:
        if len(claims) > MAX_CLAIMS:
            raise _tool_error(f"at most {MAX_CLAIMS} claims per call (got {len(claims)}); send the rest in more calls")
        try:
            verdicts = await service.verify(claims, closed_world=closed_world, min_confidence=min_confidence)
        except KgbrainError as exc:
            raise _tool_error(str(exc)) from None
        return _fit_verdicts([v.model_dump() for v in verdicts])

    async def tool_check_answer(draft: str, question: str = "") -> str:
        return await _call(lambda: service.check_answer(draft, question=question))

    async def tool_remember(facts: list[dict[str, Any]], source: str, trust: float | None = None) -> str:
        if len(facts) > MAX_FACTS:
            raise _tool_error(f"at most {MAX_FACTS} facts per call (got {len(facts)})")
        return await _call(lambda: service.add_facts(facts, source=source, trust=trust))

    async def tool_recall(concept: str, cursor: str | None = None, limit: int = 50) -> str:
        return await _call(lambda: service.facts(concept, cursor=cursor, limit=min(limit, 200)))

    async def tool_search_concepts(query: str, limit: int = 10) -> str:
        return await _call(lambda: service.search_concepts(query, limit=limit))

    async def tool_forget(fact_id: str, reason: str | None = None) -> str:
        return await _call(lambda: service.retract(fact_id, by="mcp", reason=reason))

    async def tool_conflicts(
        status: str | None = None, type: str | None = None, cursor: str | None = None, limit: int = 20
    ) -> str:
        return await _call(lambda: service.conflicts(status=status, type=type, cursor=cursor, limit=min(limit, 100)))

    async def tool_explain(fact_id: str) -> str:
        return await _call(lambda: service.explain(fact_id))

    tool(
        tool_ask,
        "Answer a question in Russian or English from the knowledge base. Returns the hedged answer text, "
        "confidence, the reasoning type (deductive, causal, analogical, associative), the sources and a step-by-step "
        "trace with fact ids. Use for open questions ('Why are neurons important for thinking?') and yes/no questions.",
    )
    tool(
        tool_verify_claims,
        "Fact-check claims against the knowledge base. Each claim is either a sentence or an object "
        '{"subject", "predicate", "object"} (optional "id", "polarity": false for a negated claim). Returns one '
        "verdict per claim in order: SUPPORTED, REFUTED, CONFLICTING or NOT_ENOUGH_INFO, with confidence and proof. "
        f"At most {MAX_CLAIMS} claims per call; verdicts that do not fit in one reply are listed in `not_returned` "
        "(send those claims again). closed_world=true makes unprovable claims REFUTED.",
    )
    tool(
        tool_check_answer,
        "Check a whole draft answer written elsewhere (e.g. by you) before giving it: reasoning rules, each "
        "sentence against the knowledge base (supported or contradicted, with the deciding fact), and whether "
        "its citations are backed. Returns the corrected draft and what was found.",
    )
    tool(
        tool_search_concepts,
        "Find concepts by name: id, label or alias in any case or inflection (Russian or English), then close "
        "spellings. Use it to learn the id the knowledge base uses before calling recall or verify_claims.",
    )
    tool(
        tool_recall,
        "List what the knowledge base knows about one concept: every fact with it as subject or object, with "
        "source, trust, confidence and status (active, disputed, retracted...). Paged: pass next_cursor to continue.",
    )
    tool(
        tool_explain,
        "Explain where a fact comes from: its source, trust, authority, dates, status and confidence, how it was "
        "derived (the rule ids down to sourced facts, for facts derived by rules) and the conflicts it is part "
        "of. Takes a fact id as seen in traces, proofs and recall results.",
    )
    tool(
        tool_conflicts,
        "List contradictions the knowledge base recorded (newest first) with their facts, how each was resolved "
        "and why. Filter by status ('open' or 'resolved') or type. Paged: pass next_cursor to continue.",
    )
    if not service.read_only:
        tool(
            tool_remember,
            "Store facts, all or nothing. Each fact is an object in the facts-file schema: "
            '{"subject", "predicate", "object"} or {"subject", "predicate", "value", "unit"}, optional "polarity" '
            '(false for a negative fact), "confidence" 0..1, "observed_at"; "label"/"alias" rows name concepts. '
            "`source` names where the facts come from; `trust` (0..1) is how far to trust it. Contradictions with "
            "stored facts are detected and recorded.",
        )
        tool(
            tool_forget,
            "Retract a fact by id. Non-destructive: it stays with its history, but reasoning stops using it and "
            "open conflicts it took part in close. Give a reason.",
        )
    return server


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
    """As many verdicts as fit in one reply, in order; the ids of the rest are listed to send again."""
    kept: list[dict[str, Any]] = []
    size = 200
    for verdict in verdicts:
        line = len(json.dumps(verdict, ensure_ascii=False, default=str)) + 2
        if size + line > MAX_RESULT_CHARS:
            break
        kept.append(verdict)
        size += line
    rest = [str(v["id"]) for v in verdicts[len(kept) :]]
    data: dict[str, Any] = {"verdicts": kept, "not_returned": rest}
    if rest:
        data["note"] = f"{len(rest)} verdicts did not fit in this reply; send those claims again in another call"
    return json.dumps(data, ensure_ascii=False, default=str)


def _tool_error(message: str) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(message)


def run_mcp(
    db: Path | None,
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8766,
    read_only: bool = False,
    demo: bool = False,
) -> None:
    """Serve over stdio, or streamable HTTP at http://host:port/mcp (loopback only), until the client leaves.

    Raises:
        InputError: a non-loopback host.
        DatabaseLocked: another process holds the knowledge base.
    """
    from kgbrain.service.run import is_loopback

    if transport == "http" and not is_loopback(host):
        raise InputError(f"--host {host!r}: the MCP HTTP transport listens on loopback addresses only")
    service = Service(db, read_only=read_only, demo=demo)
    try:
        server = build(service)
        if transport == "stdio":
            server.run("stdio")
        else:
            service.announce(f"http://{host}:{port}/mcp")
            server.run("streamable-http", host=host, port=port)
    finally:
        service.close()
