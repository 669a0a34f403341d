"""When an RDF statement is true: the two ways RDF files state it, read as a fact's `valid_from` / `valid_to`.

- schema.org's Role pattern: `team member _:r . _:r a schema:OrganizationRole ; member joe ; startDate "2011"` says
  `team member joe` from 2011 (the role node repeats the property it stands in for; its type is optional).
- RDF reification: a node with `rdf:subject`, `rdf:predicate`, `rdf:object` and a start or end date says that
  statement holds then (a reified statement without a date stays what it was: a description of a statement).

The dates are schema.org's `startDate` / `endDate` (and `validFrom` / `validThrough`), http or https, as a year, a
month, a date or a date-time literal; an end date is the last day the statement held, as in JSONL. Nothing else is
read as an interval: `dbo:activeYearsStartYear` and the like describe their subject, not a statement.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgbrain.errors import OntologyError
from kgbrain.ingest.ntriples import Term, Triple
from kgbrain.timeline import InvalidTime, parse_from, parse_to

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_STARTS = {f"{scheme}://schema.org/{name}" for scheme in ("http", "https") for name in ("startDate", "validFrom")}
_ENDS = {f"{scheme}://schema.org/{name}" for scheme in ("http", "https") for name in ("endDate", "validThrough")}
_ROLE_TYPES = {
    f"{scheme}://schema.org/{name}"
    for scheme in ("http", "https")
    for name in ("Role", "OrganizationRole", "EmployeeRole", "PerformanceRole", "LinkRole")
}
_PARTS = (_RDF + "subject", _RDF + "predicate", _RDF + "object")


@dataclass(frozen=True)
class TimedStatement:
    """A statement and when it held ([valid_from, valid_to), either end open)."""

    subject: str
    predicate: str
    object: Term
    valid_from: datetime | None
    valid_to: datetime | None


def split_timed(
    triples: Sequence[Triple], file: str, timeable: Callable[[str], bool]
) -> tuple[list[Triple], list[TimedStatement]]:
    """The triples left once every dated role node and dated reified statement is taken out, and those statements.

    Only statements of a predicate `timeable` accepts are read so (a dated `rdfs:subClassOf` is left as it is).

    Raises:
        OntologyError: a date that is no date, an end before its start, or two dates of one kind on one node.
    """
    by_node: dict[str, list[int]] = defaultdict(list)
    dated: set[str] = set()
    for i, (s, p, _) in enumerate(triples):
        by_node[s].append(i)
        if p in _STARTS or p in _ENDS:
            dated.add(s)
    if not dated:
        return list(triples), []
    incoming: dict[str, list[int]] = defaultdict(list)
    for i, (_, _, o) in enumerate(triples):
        if isinstance(o, str) and o in dated:
            incoming[o].append(i)
    used: set[int] = set()
    timed: list[TimedStatement] = []
    for node in sorted(dated):
        statements = _reified(triples, by_node[node]) or []
        if not statements:
            statements, pointers = _role(triples, by_node[node], incoming[node], node)
            pointers = pointers if all(timeable(p) for _, p, _ in statements) else set()
            used |= pointers
        if statements and all(timeable(p) for _, p, _ in statements):
            start, end = _interval(triples, by_node[node], node, file)
            timed += [TimedStatement(s, p, o, start, end) for s, p, o in statements]
            used.update(by_node[node])
    return [t for i, t in enumerate(triples) if i not in used], timed


def _reified(triples: Sequence[Triple], own: list[int]) -> list[Triple] | None:
    parts: dict[str, Term] = {}
    for i in own:
        _, p, o = triples[i]
        if p in _PARTS:
            parts[p] = o
    if len(parts) < 3 or not all(isinstance(parts[p], str) for p in _PARTS[:2]):
        return None
    subject, predicate, obj = (parts[name] for name in _PARTS)
    return [(str(subject), str(predicate), obj)]


def _role(
    triples: Sequence[Triple], own_rows: list[int], incoming: list[int], node: str
) -> tuple[list[Triple], set[int]]:
    """`x p node . node p y` (y not the node): `x p y`, and the `x p node` triples to drop."""
    own = {triples[i][1]: triples[i][2] for i in own_rows}
    if any(triples[i][1] == _RDF + "type" and triples[i][2] not in _ROLE_TYPES for i in own_rows):
        return [], set()  # a node with some other type is a thing with dates (an event), not a role
    pointers = {i for i in incoming if triples[i][1] in own}
    found = [(triples[i][0], triples[i][1], own[triples[i][1]]) for i in sorted(pointers)]
    return [t for t in found if t[2] != node], pointers


def _interval(
    triples: Sequence[Triple], own: list[int], node: str, file: str
) -> tuple[datetime | None, datetime | None]:
    start: datetime | None = None
    end: datetime | None = None
    for i in own:
        _, p, o = triples[i]
        if p not in _STARTS and p not in _ENDS:
            continue
        lexical = o[0] if isinstance(o, tuple) else o
        try:
            when = parse_from(lexical) if p in _STARTS else parse_to(lexical)
        except InvalidTime as exc:
            raise OntologyError(f"{file}: <{p}> of {_shown(node)}: {exc}") from None
        if (start if p in _STARTS else end) not in (None, when):
            raise OntologyError(f"{file}: {_shown(node)} has two different <{p}> dates")
        start, end = (when, end) if p in _STARTS else (start, when)
    if start is not None and end is not None and end <= start:
        raise OntologyError(f"{file}: {_shown(node)} ends before it starts ({start.date()} .. {end.date()})")
    return start, end


def _shown(node: str) -> str:
    return "a blank node" if node.startswith("_:") else f"<{node}>"
