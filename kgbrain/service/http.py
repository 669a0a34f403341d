"""The HTTP JSON API on Starlette: versioned `/v1/...` routes over `Service`, errors as `{"error": message}`.

Starlette rather than FastAPI: it is already installed with the `mcp` SDK, small, and adds no second validation
layer; requests and responses are the pydantic models of kgbrain/models.py (the same ones `--json` prints), and
the OpenAPI document is built from those models' JSON schemas by the route table below.

Safe by default: `kgbrain serve` binds 127.0.0.1; another address needs a bearer token. Every request passes
the checks of `guard.py` first (Host 421, Origin 403, a write's content type 415, the token and its scope 401/403).
Request bodies are capped (413), reads and writes are time-limited (503; a timed-out write is rolled back), and
`--read-only` turns every write endpoint into a 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from kgbrain.errors import (
    DatabaseLocked,
    InputError,
    KgbrainError,
    ReadTimeout,
    UnknownConcept,
    UnknownItem,
    WriteTimeout,
)
from kgbrain.models import (
    AnalogyOut,
    AskIn,
    AskOut,
    AsOfQuery,
    CausalPathOut,
    CheckAnswerIn,
    CheckAnswerOut,
    ConceptFactsPageOut,
    ConceptMatchesOut,
    ConceptQuery,
    ConceptsQuery,
    ConflictOut,
    ConflictsPageOut,
    ConflictsQuery,
    ErrorOut,
    ExplanationOut,
    FactsIn,
    FactsQuery,
    HealthOut,
    LoadQuery,
    LoadReportOut,
    PathQuery,
    QueryIn,
    QueryPageOut,
    ResolveIn,
    RetractIn,
    RetractOut,
    StatsOut,
    VerdictOut,
    VerifyIn,
    validated,
)
from kgbrain.service.core import READ_TIMEOUT_S, WRITE_TIMEOUT_S, Service, verify_chunks
from kgbrain.service.guard import (
    LOOPBACK_NAMES,
    Refused,
    Scope,
    Tokens,
    check_host,
    check_origin,
    check_write_type,
)
from kgbrain.service.replies import clip

MAX_BODY = 64 * 2**20  # bytes; uploads of ontologies fit, a runaway client does not
Handler = Callable[[Request], Awaitable[Response]]
_log = logging.getLogger("kgbrain.service")
In = TypeVar("In", bound=BaseModel)


class _TooLarge(Exception):
    pass


@dataclass(frozen=True)
class Limits:
    """Request size and time limits, the tokens requests must bear (none: no auth), the host names served."""

    max_body: int = MAX_BODY
    read_timeout_s: float = READ_TIMEOUT_S
    write_timeout_s: float = WRITE_TIMEOUT_S
    tokens: Tokens = field(default_factory=Tokens)
    hosts: frozenset[str] = frozenset()  # beyond the loopback names

    @property
    def allowed(self) -> frozenset[str]:
        """Every host name requests may address."""
        return LOOPBACK_NAMES | self.hosts


@dataclass(frozen=True)
class Spec:
    """One route: what it takes and returns, for routing and for the OpenAPI document."""

    method: str
    path: str
    summary: str
    handler: Callable[[Service, Request, Limits], Awaitable[Response]]
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None  # the query string's model
    returns: type[BaseModel] | None = None
    returns_list: bool = False
    ndjson: bool = False
    writes: bool = False
    raw_body: bool = False
    status: int = 200
    scope: Scope = Scope.READ  # what a token must allow (writes: WRITE; decisions about stored facts: ADMIN)


def create_app(service: Service, limits: Limits | None = None) -> Starlette:
    """The ASGI app serving `service`."""
    limits = limits or Limits()
    routes = [
        Route(spec.path, _endpoint(service, spec, limits), methods=[spec.method], name=spec.path) for spec in SPECS
    ]
    routes.append(Route("/openapi.json", _openapi_endpoint(limits), methods=["GET"]))

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
        return _error(status, f"{request.method} {request.url.path}: {detail}")

    # `Exception`: what escapes a route (a bug) is still answered in the one error shape, never plain text.
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: http_error})


# -- the wrapper every route goes through ------------------------------------------------------


def _endpoint(service: Service, spec: Spec, limits: Limits) -> Handler:
    # Each read and write stops itself past the service's time limits (Service.read, Service.write: a write is
    # then rolled back); this is the backstop for the rest of a request (a body sent slowly).
    limit = 2 * (limits.write_timeout_s if spec.writes else limits.read_timeout_s)

    async def endpoint(request: Request) -> Response:
        try:
            _admit(request, limits, spec.scope)
            if spec.writes:
                check_write_type(request.headers.get("content-type"), raw=spec.raw_body)
            if spec.writes and service.read_only:
                raise Refused(403, "this server is read-only (started with --read-only); writes are disabled")
            return await asyncio.wait_for(_answer(service, spec, request, limits), timeout=limit)
        except Refused as exc:
            return _error(exc.status, str(exc))
        except ClientDisconnect:  # gone in the middle of its body: nothing was started
            return _error(499, "the client went away while sending its request")
        except _TooLarge:
            return _error(413, f"request body is larger than {limits.max_body} bytes")
        except asyncio.TimeoutError:
            return _error(503, f"the request took longer than {limit:g} s and was abandoned")
        except (ReadTimeout, WriteTimeout) as exc:
            return _error(503, str(exc))
        except (UnknownConcept, UnknownItem) as exc:
            return _error(404, str(exc))
        except InputError as exc:
            return _error(400, str(exc))
        except DatabaseLocked as exc:
            return _error(409, str(exc))
        except KgbrainError as exc:
            return _error(500, str(exc))
        except Exception as exc:  # the edge: a bug must still answer in the JSON error shape
            _log.exception("%s %s failed", request.method, request.url.path)
            return _error(500, f"internal error ({type(exc).__name__}); the server log has the details")

    return endpoint


def _error(status: int, message: str) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(ErrorOut(error=clip(message)).model_dump(), status_code=status, headers=headers)


def _admit(request: Request, limits: Limits, needed: Scope) -> None:
    """Host, Origin and token checks (guard.py), in that order: a rebinding page learns nothing, not even 401."""
    check_host(request.headers.getlist("host"), limits.allowed)
    check_origin(request.headers.get("origin"), limits.allowed)
    limits.tokens.grant(request.headers.get("authorization"), needed)


async def _answer(service: Service, spec: Spec, request: Request, limits: Limits) -> Response:
    if request.method == "POST":
        request.state.body = await _read_body(request, limits)  # whole, before any work starts
    return await _unless_gone(request, spec.handler(service, request, limits))


async def _unless_gone(request: Request, work: Awaitable[Response]) -> Response:
    """`work`'s response, or a 499 once the client has gone away (the work is then cancelled: a read stops, a write
    that has committed nothing is stopped and rolled back, freeing the reader or the writer for the next client)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        try:
            await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the backstop timeout: the work goes with it
            task.cancel()
            raise
        if task.done() or not gone.done():
            return await task
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, KgbrainError):
            await task
        return _error(499, "the client went away; its request was cancelled")
    finally:
        gone.cancel()


async def _disconnected(request: Request) -> None:
    # The body is read already (or there is none): the next message is the disconnect (uvicorn, httpx's ASGI
    # transport and Starlette's test client all send it only when the connection ends or the response is sent).
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _read_body(request: Request, limits: Limits) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.max_body:
        raise _TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.max_body:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def _body_bytes(request: Request, limits: Limits) -> bytes:
    """The request body (read, capped, by the route wrapper before the handler runs)."""
    raw = getattr(request.state, "body", None)
    return raw if isinstance(raw, bytes) else await _read_body(request, limits)


async def _body(request: Request, limits: Limits, model: type[In]) -> In:
    raw = await _body_bytes(request, limits)
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"request body is not JSON: {exc}") from None
    except RecursionError:
        raise InputError("request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise InputError("request body must be a JSON object")
    return validated(model, data)


def _params(request: Request, model: type[In]) -> In:
    # Parameters the model does not name are ignored, as they always were; the rest are validated by it.
    given = {k: v for k, v in request.query_params.items() if k in model.model_fields}
    return validated(model, given, query_string=True)


def _json(model: BaseModel | list[Any], status: int = 200) -> Response:
    data = [m.model_dump() for m in model] if isinstance(model, list) else model.model_dump()
    return Response(
        json.dumps(data, ensure_ascii=False, default=str), status_code=status, media_type="application/json"
    )


# -- handlers ------------------------------------------------------------------------------------


async def _health(service: Service, request: Request, limits: Limits) -> Response:
    return _json(await service.health())


async def _ask(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, AskIn)
    return _json(
        await service.ask(body.question, goal=body.goal, priority=body.priority, as_of=body.as_of, session=body.session)
    )


async def _verify(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, VerifyIn)
    chunks = list(verify_chunks(body.claims))  # bad items are refused before the stream starts

    async def decide(chunk: list[dict[str, Any]]) -> list[VerdictOut]:
        return await service.verify_chunk(
            chunk, closed_world=body.closed_world, min_confidence=body.min_confidence, as_of=body.as_of
        )

    # The first chunk is decided before the status line goes out, so a bad option is still a 400.
    first = await decide(chunks[0]) if chunks else []

    async def lines() -> AsyncIterator[str]:
        for verdict in first:
            yield verdict.model_dump_json() + "\n"
        try:
            for chunk in chunks[1:]:
                for verdict in await decide(chunk):
                    yield verdict.model_dump_json() + "\n"
        except KgbrainError as exc:  # the status line is sent: the failure ends the stream as one error line
            yield ErrorOut(error=clip(str(exc))).model_dump_json() + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


async def _verify_one(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, VerifyIn)
    if len(body.claims) != 1:
        raise InputError(f"field 'claims': /v1/verify/one takes exactly one claim, got {len(body.claims)}")
    [verdict] = await service.verify(
        body.claims, closed_world=body.closed_world, min_confidence=body.min_confidence, as_of=body.as_of
    )
    return _json(verdict)


async def _check_answer(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, CheckAnswerIn)
    return _json(await service.check_answer(body.draft, question=body.question, rules=body.rules, as_of=body.as_of))


async def _stats(service: Service, request: Request, limits: Limits) -> Response:
    return _json(await service.stats())


async def _facts_get(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, FactsQuery)
    return _json(await service.facts(q.concept, cursor=q.cursor, limit=q.limit, as_of=q.as_of))


async def _facts_post(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, FactsIn)
    return _json(await service.add_facts(body.facts, source=body.source, trust=body.trust), status=201)


async def _retract(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, RetractIn)
    return _json(await service.retract(request.path_params["fact_id"], by=body.by, reason=body.reason))


async def _concepts(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, ConceptsQuery)
    return _json(await service.search_concepts(q.q, limit=q.limit))


async def _load(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, LoadQuery)
    raw = await _body_bytes(request, limits)
    report = await service.load_text(raw, name=q.name, fmt=q.format, source=q.source, trust=q.trust)
    return _json(report, status=201)


async def _conflicts(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, ConflictsQuery)
    return _json(await service.conflicts(type=q.type, status=q.status, cursor=q.cursor, limit=q.limit))


async def _resolve(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, ResolveIn)
    return _json(await service.resolve(request.path_params["conflict_id"], keep=body.keep, by=body.by))


async def _query_route(service: Service, request: Request, limits: Limits) -> Response:
    body = await _body(request, limits, QueryIn)
    return _json(await service.query(body.query, cursor=body.cursor, limit=body.limit, as_of=body.as_of))


async def _explain(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, AsOfQuery)
    return _json(await service.explain(request.path_params["fact_id"], as_of=q.as_of))


async def _why(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, ConceptQuery)
    return _json(
        await service.read(lambda b: [CausalPathOut.from_path(p) for p in b.at(q.as_of).why(q.concept, limit=q.limit)])
    )


async def _path(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, PathQuery)
    found = await service.read(
        lambda b: [CausalPathOut.from_path(p) for p in b.at(q.as_of).path(q.source, q.target, limit=q.limit)]
    )
    return _json(found)


async def _like(service: Service, request: Request, limits: Limits) -> Response:
    q = _params(request, ConceptQuery)
    return _json(
        await service.read(lambda b: [AnalogyOut.from_analogy(a) for a in b.at(q.as_of).like(q.concept, limit=q.limit)])
    )


SPECS: tuple[Spec, ...] = (
    Spec("GET", "/healthz", "Liveness, schema version and the write counter", _health, returns=HealthOut),
    Spec("POST", "/v1/ask", "Answer a question (the body `kgbrain ask --json` prints)", _ask, AskIn, returns=AskOut),
    Spec(
        "POST",
        "/v1/verify",
        "Verify claims: one verdict line per claim, streamed as NDJSON in input order",
        _verify,
        VerifyIn,
        returns=VerdictOut,
        ndjson=True,
    ),
    Spec("POST", "/v1/verify/one", "Verify one claim: its verdict", _verify_one, VerifyIn, returns=VerdictOut),
    Spec(
        "POST",
        "/v1/check-answer",
        "Check a draft answer against rules, the knowledge base and its citations",
        _check_answer,
        CheckAnswerIn,
        returns=CheckAnswerOut,
    ),
    Spec(
        "GET",
        "/v1/facts",
        "Every fact about a concept with provenance and status, paged",
        _facts_get,
        query=FactsQuery,
        returns=ConceptFactsPageOut,
    ),
    Spec(
        "POST",
        "/v1/facts",
        "Store facts (facts-file schema), all or nothing",
        _facts_post,
        FactsIn,
        returns=LoadReportOut,
        writes=True,
        status=201,
        scope=Scope.WRITE,
    ),
    Spec(
        "POST",
        "/v1/facts/{fact_id}/retract",
        "Retract a fact (kept with its history; reasoning ignores it)",
        _retract,
        RetractIn,
        returns=RetractOut,
        writes=True,
        scope=Scope.ADMIN,
    ),
    Spec(
        "GET",
        "/v1/concepts",
        "Find concepts by id, label or alias, then by close names",
        _concepts,
        query=ConceptsQuery,
        returns=ConceptMatchesOut,
    ),
    Spec(
        "POST",
        "/v1/load",
        "Load one file sent as the raw body (facts JSONL/CSV/TSV or an ontology), all or nothing",
        _load,
        query=LoadQuery,
        returns=LoadReportOut,
        writes=True,
        raw_body=True,
        status=201,
        scope=Scope.WRITE,
    ),
    Spec(
        "GET",
        "/v1/conflicts",
        "Recorded conflicts, newest first, paged",
        _conflicts,
        query=ConflictsQuery,
        returns=ConflictsPageOut,
    ),
    Spec(
        "POST",
        "/v1/conflicts/{conflict_id}/resolve",
        "Keep one fact of a conflict and dispute its rivals",
        _resolve,
        ResolveIn,
        returns=ConflictOut,
        writes=True,
        scope=Scope.ADMIN,
    ),
    Spec("GET", "/v1/stats", "Counts (the body `kgbrain stats --json` prints)", _stats, returns=StatsOut),
    Spec(
        "POST",
        "/v1/query",
        "Read-only query: SPARQL SELECT or a rule body, answered with the stored rules; rows paged",
        _query_route,
        QueryIn,
        returns=QueryPageOut,
    ),
    Spec(
        "GET",
        "/v1/facts/{fact_id}/explain",
        "Where a fact comes from: provenance, derivation tree (rule ids down to sourced facts), conflicts",
        _explain,
        query=AsOfQuery,
        returns=ExplanationOut,
    ),
    Spec(
        "GET",
        "/v1/why",
        "Causal chains leading to a concept",
        _why,
        query=ConceptQuery,
        returns=CausalPathOut,
        returns_list=True,
    ),
    Spec(
        "GET",
        "/v1/path",
        "Causal paths from one concept to another",
        _path,
        query=PathQuery,
        returns=CausalPathOut,
        returns_list=True,
    ),
    Spec(
        "GET",
        "/v1/like",
        "Structurally similar concepts (hypotheses)",
        _like,
        query=ConceptQuery,
        returns=AnalogyOut,
        returns_list=True,
    ),
)


# -- OpenAPI ---------------------------------------------------------------------------------------


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document, built from the route table and the models' JSON schemas."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("kgbrain")
    except PackageNotFoundError:
        release = "0"
    schemas: dict[str, Any] = {}

    def ref(model: type[BaseModel]) -> dict[str, str]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            schemas[name] = sub
        schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    error = {"application/json": {"schema": ref(ErrorOut)}}
    paths: dict[str, Any] = {}
    for spec in SPECS:
        op: dict[str, Any] = {"summary": spec.summary, "operationId": _operation_id(spec)}
        if spec.query is not None or "{" in spec.path:
            op["parameters"] = _query_parameters(spec.query) + [
                {"name": part[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
                for part in spec.path.split("/")
                if part.startswith("{")
            ]
        if spec.body is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref(spec.body)}}}
        elif spec.raw_body:
            op["requestBody"] = {
                "required": True,
                "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            }
        ok: dict[str, Any] = {"description": "OK"}
        if spec.returns is not None:
            schema: dict[str, Any] = ref(spec.returns)
            if spec.returns_list:
                schema = {"type": "array", "items": schema}
            ok["content"] = {("application/x-ndjson" if spec.ndjson else "application/json"): {"schema": schema}}
        responses: dict[str, Any] = {str(spec.status): ok}
        for status, what in (
            ("400", "bad input (the message names the field)"),
            ("401", "missing or wrong bearer token"),
            ("404", "unknown concept, fact or conflict id"),
            ("409", "the knowledge base is locked"),
            ("413", "request body too large"),
        ):
            responses[status] = {"description": what, "content": error}
        op["responses"] = responses
        paths.setdefault(spec.path, {})[spec.method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "kgbrain", "version": release, "description": "Explainable knowledge reasoning"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


def _query_parameters(model: type[BaseModel] | None) -> list[dict[str, Any]]:
    """The query string's parameters, from its model's JSON schema (types, bounds, defaults, descriptions)."""
    if model is None:
        return []
    schema = model.model_json_schema()
    required = set(schema.get("required", ()))
    out = []
    for name, prop in schema["properties"].items():
        described = {"description": prop.pop("description")} if "description" in prop else {}
        prop.pop("title", None)
        out.append({"name": name, "in": "query", "required": name in required, "schema": prop} | described)
    return out


def _operation_id(spec: Spec) -> str:
    words = [w for w in spec.path.replace("-", "_").split("/") if w and not w.startswith("{") and w != "v1"]
    return spec.method.lower() + "_" + "_".join(words or ["root"])


def _openapi_endpoint(limits: Limits) -> Handler:
    document = openapi()

    async def endpoint(request: Request) -> Response:
        try:
            _admit(request, limits, Scope.READ)
        except Refused as exc:
            return _error(exc.status, str(exc))
        except ClientDisconnect:  # gone in the middle of its body: nothing was started
            return _error(499, "the client went away while sending its request")
        return JSONResponse(document)

    return endpoint
