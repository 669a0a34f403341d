"""Contradiction detection: five structural conflict types between facts (seed 001, ContradictionDetector).

Detection compares triples, never text: two facts are compared only when one could really replace the
other, i.e. they make the same claim with opposite polarity, give two values of a functional attribute,
link the same pair by predicates declared opposite (`causes`/`prevents`), or place one concept under two
classes declared disjoint. A second value of a non-functional predicate is additive knowledge, never a
conflict. Among incompatible pairs, a trust gap above 0.3 makes a source conflict (the trusted source wins),
and two observations of a functional attribute at different times are an update, not a conflict (stale
evidence: the older one becomes outdated). What happens next is decided in `truth.py`.

The classification is pure (`find_contradictions` over Fact objects); `scan` and `detect_new` fetch the
facts worth comparing from the store in bulk and hand them to it. Reference: the seed's ConflictType and
the "Принцип работы" table; OWL 2 RL rule cax-dw for disjointness.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgbrain.choices import ConflictType as ConflictType  # defined with the other choices a caller names
from kgbrain.ingest.batch import COLUMNS, FactColumns, release_arrow_memory
from kgbrain.ingest.owl_rules import INCONSISTENCY_RULES
from kgbrain.knowledge import Fact, Status
from kgbrain.memory.trust import get_trust
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import fact_from_row, facts_by_id
from kgbrain.store.schema import ATTR_TABLE, CORE_TABLES, GENERIC_TABLE
from kgbrain.timeline import overlap

# Seed 001: "source_trust разница > 0.3".
TRUST_GAP = 0.3
# Facts compared by detection: everything but what a person retracted. Outdated and disputed facts stay in,
# so which pairs conflict depends only on the facts, not on the order they arrived in (a value outdated by
# a 2021 census is still compared with a 2024 rumour, as it would have been had the rumour come first).
LIVE = frozenset({Status.ACTIVE, Status.DISPUTED, Status.OUTDATED})
# Links a disjointness violation is reached through.
MEMBERSHIP = frozenset({"is_a", "instance_of"})
_CHUNK = 20_000


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What detection needs to know about predicates."""

    functional: frozenset[str] = frozenset()
    symmetric: frozenset[str] = frozenset({"related_to", "disjoint_with"})
    # Unordered pairs of predicates declared opposite, stored in both orders.
    opposites: frozenset[tuple[str, str]] = frozenset({("causes", "prevents"), ("prevents", "causes")})
    # Sources without the unique-name assumption (RDF's default, ingest/loader.unique_names_sources): two
    # concepts as values of a functional predicate may be one individual (prp-fp derives owl:sameAs), no conflict.
    open_names: frozenset[str] = frozenset()

    @staticmethod
    def from_rows(rows: Iterable[Mapping[str, Any]]) -> Vocabulary:
        """Build from rows of queries/predicates_all.cypher."""
        functional, symmetric, opposites = set(), set(), set()
        for r in rows:
            if r["functional"]:
                functional.add(r["name"])
            if r["symmetric"]:
                symmetric.add(r["name"])
            if r["opposite_of"]:
                opposites |= {(r["name"], r["opposite_of"]), (r["opposite_of"], r["name"])}
        return Vocabulary(frozenset(functional), frozenset(symmetric), frozenset(opposites))


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A detected conflict: its type, the facts involved (sorted by id) and what makes it unique."""

    type: ConflictType
    facts: tuple[Fact, ...]
    # Sorted fact ids, or `axiom@concept` for a disjointness violation (its paths may vary).
    key: str
    # The facts the conflict casts doubt on (confidence adjustments); all of them unless said otherwise.
    doubted: tuple[str, ...] = ()
    # For a disjointness violation: the concept that sits under both classes.
    concept: str | None = None
    axiom: str | None = None
    trust: Mapping[str, float] = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        """Deterministic id from type and key, so detecting the same conflict twice records it once."""
        return "c_" + hashlib.blake2b(f"{self.type.value}\x1f{self.key}".encode(), digest_size=8).hexdigest()

    @property
    def fact_ids(self) -> tuple[str, ...]:
        """Ids of the facts involved, sorted."""
        return tuple(f.fact_id for f in self.facts)

    def trust_of(self, fact: Fact) -> float:
        """The source's current trust, or the trust the fact arrived with when the source is unknown."""
        return self.trust.get(fact.source, fact.trust)


def pair(kind: ConflictType, a: Fact, b: Fact, trust: Mapping[str, float]) -> Contradiction:
    """A conflict between two facts."""
    facts = tuple(sorted((a, b), key=lambda f: f.fact_id))
    ids = tuple(f.fact_id for f in facts)
    known = {f.source: trust[f.source] for f in facts if f.source in trust}
    return Contradiction(kind, facts, ",".join(ids), ids, trust=known)


# -- pure classification ----------------------------------------------------------------------


def target_key(fact: Fact) -> tuple[Any, ...]:
    """What a fact points at, normalised so equal values compare equal (100 == 100.0 in the same unit)."""
    if fact.object is not None:
        return ("c", fact.object)
    value = fact.value
    assert value is not None  # a Fact has exactly one of object and value
    number = value.number
    if number is not None:
        return ("n", number, value.unit or "")
    return ("s", value.lexical, value.unit or "", value.lang or "")


def claim_key(fact: Fact, vocab: Vocabulary) -> tuple[Any, ...]:
    """The claim a fact makes, regardless of polarity and source; symmetric statements read both ways."""
    if fact.object is not None and fact.predicate in vocab.symmetric:
        low, high = sorted((fact.subject, fact.object))
        return (low, fact.predicate, ("c", high))
    return (fact.subject, fact.predicate, target_key(fact))


def comparable(a: Fact, b: Fact) -> bool:
    """Whether two values of one attribute can be compared at all.

    Numbers in different units, text in different languages, and a concept against a literal are
    not comparable without a conversion we do not have; calling them a conflict would be a guess.
    """
    ka, kb = target_key(a), target_key(b)
    if ka[0] != kb[0]:
        return False
    if ka[0] == "n":
        return bool(ka[2] == kb[2])
    if ka[0] == "s":
        return bool(ka[2] == kb[2] and (not ka[3] or not kb[3] or ka[3] == kb[3]))
    return True


def _gap(a: float, b: float) -> float:
    return round(abs(a - b), 9)  # 0.95 - 0.65 must not count as 0.30000000000000004 > 0.3


def classify(a: Fact, b: Fact, vocab: Vocabulary, trust: Mapping[str, float] | None = None) -> ConflictType | None:
    """The conflict type of two facts, or None when they are compatible.

    Both facts are assumed not retracted.
    """
    if not overlap((a.valid_from, a.valid_to), (b.valid_from, b.valid_to)):
        return None  # true at different times: one succeeds the other (a fact without an interval is always true)
    trust = trust or {}
    ta, tb = trust.get(a.source, a.trust), trust.get(b.source, b.trust)
    if a.polarity != b.polarity:
        if claim_key(a, vocab) != claim_key(b, vocab):
            return None  # "X does not cause Y" is compatible with anything but "X causes Y"
        if inconsistency_rule(a) or inconsistency_rule(b):
            return ConflictType.INCONSISTENCY  # whatever the trust: the ontology rules both out together
        return ConflictType.SOURCE_CONFLICT if _gap(ta, tb) > TRUST_GAP else ConflictType.OPPOSITE_POLARITY
    if not a.polarity:
        return None  # two denials never conflict
    if a.subject != b.subject:
        return None
    if a.predicate == b.predicate:
        if not _two_values(a, b, vocab):
            return None
        if a.observed_at is not None and b.observed_at is not None and a.observed_at != b.observed_at:
            older, newer = (ta, tb) if a.observed_at < b.observed_at else (tb, ta)
            # A newer value from a much less trusted source is not allowed to retire a trusted one.
            if round(older - newer, 9) > TRUST_GAP:
                return ConflictType.SOURCE_CONFLICT
            return ConflictType.STALE_EVIDENCE
        return ConflictType.SOURCE_CONFLICT if _gap(ta, tb) > TRUST_GAP else ConflictType.CONFLICTING_VALUE
    if a.object is not None and a.object == b.object and (a.predicate, b.predicate) in vocab.opposites:
        return ConflictType.RELATION_CONFLICT
    return None


def _two_values(a: Fact, b: Fact, vocab: Vocabulary) -> bool:
    """Whether two facts of one predicate are two values of a functional predicate that cannot be one."""
    if a.predicate not in vocab.functional or not comparable(a, b) or target_key(a) == target_key(b):
        return False
    # no unique names: two concepts may be one individual (prp-fp derives owl:sameAs); a fact derived by
    # replacing equals (eq-rep-*) exists only because two names were found to name one thing
    if a.object is None or b.object is None:
        return True
    return not (
        vocab.open_names & {a.source, b.source} or _EQ_REP in (a.source[: len(_EQ_REP)], b.source[: len(_EQ_REP)])
    )


_EQ_REP = "rule:eq-rep-"


def comparison_keys(fact: Fact, vocab: Vocabulary, opposite: Collection[str]) -> list[tuple[Any, ...]]:
    """The groups a fact belongs to (`opposite`: the left predicates of `vocab.opposites`): only facts sharing a
    key are compared. The same claim; the same functional attribute; the same pair under opposite predicates."""
    keys: list[tuple[Any, ...]] = [("claim", claim_key(fact, vocab))]
    if fact.polarity and fact.predicate in vocab.functional:
        keys.append(("attribute", fact.subject, fact.predicate))
    if fact.polarity and fact.object is not None and fact.predicate in opposite:
        keys.append(("pair", fact.subject, fact.object))
    return keys


def inconsistency_rule(fact: Fact) -> str | None:
    """The OWL 2 RL "false" rule that concluded `fact` (a denial), or None.

    OWL 2 RL writes these rules with `false` as the head (tables 4-9: eq-diff1, prp-irp, prp-asyp, prp-pdw,
    prp-npa1, cls-nothing2, cls-com, cls-maxc1, cax-dw, ...); ingest/owl_rules.py gives each the denial of one
    of its premises as the head instead, so that its firing is a conflict between two facts, recorded with the
    rule's id, and nothing is deleted.
    """
    if fact.polarity or not fact.source.startswith(DERIVED_SOURCE_PREFIX):
        return None
    rule = fact.source[len(DERIVED_SOURCE_PREFIX) :]
    return rule if rule.split(":", 1)[0] in INCONSISTENCY_RULES else None


def _groups(facts: Sequence[Fact], vocab: Vocabulary) -> Iterator[list[Fact]]:
    """Groups of facts that could replace each other; only pairs inside a group are compared."""
    groups: dict[tuple[Any, ...], list[Fact]] = defaultdict(list)
    opposite = {p for p, _ in vocab.opposites}
    for f in facts:
        for key in comparison_keys(f, vocab, opposite):
            groups[key].append(f)
    for group in groups.values():
        if len(group) > 1:
            yield group


def find_contradictions(
    facts: Iterable[Fact],
    vocab: Vocabulary,
    *,
    new: Collection[str] | None = None,
    trust: Mapping[str, float] | None = None,
) -> list[Contradiction]:
    """Every pairwise conflict among facts not retracted (disjointness needs the graph: see `find_disjointness`).

    Args:
        facts: the facts to compare; retracted ones are ignored.
        vocab: which predicates are functional, symmetric, opposite.
        new: when given, only pairs with at least one of these fact ids (a load against what was there).
        trust: current trust per source; a fact from an unknown source counts with its own trust.

    Returns:
        Conflicts sorted by id; the result does not depend on the order of `facts`.
    """
    trust = trust or {}
    live = sorted({f.fact_id: f for f in facts if f.status in LIVE}.values(), key=lambda f: f.fact_id)
    found: dict[str, Contradiction] = {}
    for group in _groups(live, vocab):
        for a, b in combinations(group, 2):
            if new is not None and a.fact_id not in new and b.fact_id not in new:
                continue
            kind = classify(a, b, vocab, trust)
            if kind is not None:
                c = pair(kind, a, b, trust)
                found[c.id] = c
    return [found[k] for k in sorted(found)]


# -- the store side: bulk fetch, then the pure classification ---------------------------------


def load_vocabulary(store: GraphStore) -> Vocabulary:
    """The predicate declarations detection needs, read from the store.

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.ingest.loader import open_names_sources

    found = Vocabulary.from_rows(store.run("predicates_all"))
    return replace(found, open_names=frozenset(open_names_sources(store)))


def facts_of_subjects(store: GraphStore, subjects: Iterable[str], *, fresh: Sequence[Fact] = ()) -> list[Fact]:
    """Facts (not retracted) whose subject is one of `subjects`, fetched in chunks, each once.

    Args:
        store: the store.
        subjects: concept ids.
        fresh: facts stored by the running transaction; they are taken from here, not read back, because
            Kùzu 0.11.3 may return wrong rows for relationships created in the same transaction.

    Raises:
        StoreError: the store failed.
    """
    ids = sorted(set(subjects))
    skip = {f.fact_id for f in fresh}
    out: dict[str, Fact] = {}
    for start in range(0, len(ids), _CHUNK):
        for r in store.iterate("conflict_facts_of", ids=ids[start : start + _CHUNK]):
            if r["fact_id"] not in skip and r["fact_id"] not in out:
                out[r["fact_id"]] = fact_from_row(r)
    wanted = set(ids)
    out.update((f.fact_id, f) for f in fresh if f.subject in wanted and f.status in LIVE)
    return list(out.values())


def _worth_comparing(
    added: Sequence[Fact], vocab: Vocabulary, opposite: dict[str, set[str]], *, memberships: bool
) -> list[Fact]:
    """The new facts that share a comparison key with another new fact, plus (when `memberships`, i.e. some
    disjointness axiom exists) every is_a/instance_of/disjoint_with fact for the hierarchy walk; built as
    Fact objects only for those.

    Facts can conflict only when they could replace each other: same subject, same or opposite predicate,
    and, unless the predicate is functional, the same object (symmetric predicates: either direction).
    A key met once cannot take part in any conflict.
    """
    columns = added if isinstance(added, FactColumns) else FactColumns(added)
    wanted = _sharing_a_key(columns, len(columns), vocab, opposite)
    if memberships:
        kinds = pa.array(sorted({*MEMBERSHIP, "disjoint_with"}), pa.string())
        wanted |= pc.is_in(columns.arrow("predicate"), value_set=kinds).to_numpy(False)
    kept = list(columns.take(pa.array(np.flatnonzero(wanted).astype(np.int64))))
    release_arrow_memory()
    return kept


def _sharing_a_key(
    columns: FactColumns, n_new: int, vocab: Vocabulary, opposite: dict[str, set[str]]
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which rows share a comparison key (see `_worth_comparing`) with another row; the rows from `n_new` on
    are stored facts, kept only when they share one with a new fact (the first `n_new`).

    Column-wise (a load of a million facts): each fact's comparison key is one integer made of the codes of its
    subject, predicate group and target (names and targets share one dictionary, so a symmetric fact's reversed
    key compares with the others'), counted at once; strings would cost ~300 MB more at a million.
    """
    n = len(columns)
    p_arr = columns.arrow("predicate")
    encoded = pc.dictionary_encode(p_arr)
    groups = pc.dictionary_encode(
        pa.array([sorted({p, *opposite.get(p, ())})[0] for p in encoded.dictionary.to_pylist()], pa.string())
    )
    g = groups.indices.to_numpy()[encoded.indices.to_numpy()].astype(np.int64)
    n_groups = max(len(groups.dictionary), 1)
    s = columns.arrow("subject")
    o = columns.arrow("object")
    names = pc.dictionary_encode(pa.chunked_array([s, pc.coalesce(o, columns.arrow("lexical"))]).combine_chunks())
    n_names = len(names.dictionary) + 1  # code 0: any target
    codes = names.indices.fill_null(-1).to_numpy().astype(np.int64) + 1
    subject, target = codes[:n], codes[n:]
    functional = pc.is_in(p_arr, value_set=pa.array(sorted(vocab.functional), pa.string())).to_numpy(False)
    key = (subject * n_groups + g) * n_names + np.where(functional, 0, target)
    both_ways = pc.and_(
        pc.is_in(p_arr, value_set=pa.array(sorted(vocab.symmetric), pa.string())),
        pc.fill_null(pc.not_equal(o, s), False),
    ).to_numpy(False)
    reverse = (target * n_groups + g) * n_names + subject
    distinct, counts = np.unique(np.concatenate([key, reverse[both_ways]]), return_counts=True)
    shared = distinct[counts > 1]
    wanted: np.ndarray[Any, np.dtype[np.bool_]] = np.isin(key, shared) | (both_ways & np.isin(reverse, shared))
    if n_new < n:
        mine = np.unique(np.concatenate([key[:n_new], reverse[:n_new][both_ways[:n_new]]]))
        wanted[n_new:] &= np.isin(key[n_new:], mine) | (both_ways[n_new:] & np.isin(reverse[n_new:], mine))
    return wanted


def _concat(first: FactColumns, second: FactColumns) -> FactColumns:
    if not len(second):
        return first
    return FactColumns.of({name: pa.concat_arrays([first.arrow(name), second.arrow(name)]) for name in COLUMNS})


def _stored_facts_by_key(
    store: GraphStore,
    columns: FactColumns,
    vocab: Vocabulary,
    opposite: dict[str, set[str]],
    *,
    new_concepts: Collection[str] = (),
) -> FactColumns:
    """Stored facts (not retracted, not stored by this load) with a subject and predicate of a new fact (or its
    opposite; a symmetric fact's object as subject too), read as Arrow columns. A concept created with the new
    facts (`new_concepts`) has no stored facts of its own, so it is not asked about."""
    predicates = columns.distinct("predicate")
    asked = predicates | {q for p in predicates for q in opposite.get(p, ())}
    subjects = columns.distinct("subject")
    symmetric = pc.is_in(columns.arrow("predicate"), value_set=pa.array(sorted(vocab.symmetric), pa.string()))
    subjects |= set(pc.unique(pc.filter(columns.arrow("object"), symmetric)).drop_null().to_pylist())
    wanted = sorted(subjects.difference(new_concepts))
    # Each call joins against every stored fact of its table, so calls are few and large: Kùzu 0.11.3 plans an
    # UNWIND of keys as a hash join over the whole table, for 100 subjects as for 20,000 (0.15-0.2 CPU s per
    # 125k facts), and reading five columns instead of all of them saves nothing measurable.
    parts: list[pa.Table] = []
    for start in range(0, len(wanted), 5 * _CHUNK):
        part = wanted[start : start + 5 * _CHUNK]
        for table in sorted({ATTR_TABLE} | {CORE_TABLES.get(p, GENERIC_TABLE) for p in asked}):
            template = "facts_by_key_value" if table == ATTR_TABLE else "facts_by_key_concept"
            rows = store.arrow_table(template, table, subjects=part, predicates=sorted(asked))
            if rows.num_rows:
                parts.append(rows)
    if not parts:
        return FactColumns()
    rows = pa.concat_tables([_fact_rows(t) for t in parts])
    # Facts this load stored are taken from the load, not read back (Kùzu 0.11.3 may return wrong rows for
    # relationships created in the same transaction).
    rows = rows.filter(pc.invert(pc.is_in(rows.column("fact_id"), value_set=columns.arrow("fact_id"))))
    literal = pc.equal(rows.column("object_table"), "Value")
    null = pa.scalar(None, pa.string())
    filled = {
        "object": pc.if_else(literal, null, rows.column("object")),
        "source": pc.fill_null(rows.column("source"), ""),
        "trust": pc.fill_null(rows.column("trust"), 0.5),
    }
    return FactColumns.of({name: filled.get(name, rows.column(name)).combine_chunks() for name in COLUMNS})


_ROW_TYPES = {
    "polarity": pa.bool_(),
    "confidence": pa.float64(),
    "trust": pa.float64(),
    "observed_at": pa.timestamp("us", tz="UTC"),  # Kùzu's zone-less stamps are UTC
    "loaded_at": pa.timestamp("us", tz="UTC"),
    "valid_from": pa.timestamp("us", tz="UTC"),
    "valid_to": pa.timestamp("us", tz="UTC"),
}


def _fact_rows(rows: pa.Table) -> pa.Table:
    """A fact query's Arrow rows with the column types of FactColumns."""
    columns = []
    for name in rows.column_names:
        col = rows.column(name)
        wanted = _ROW_TYPES.get(name, pa.string())
        if pa.types.is_timestamp(wanted) and pa.types.is_timestamp(col.type) and col.type.tz is None:
            col = col.cast(pa.timestamp("us")).cast(wanted)
        elif col.type != wanted:
            col = col.cast(wanted)
        columns.append(col)
    return pa.table(columns, names=rows.column_names)


def _trust_for(store: GraphStore, facts: Iterable[Fact]) -> dict[str, float]:
    return get_trust(store, {f.source for f in facts})


def candidate_subjects(store: GraphStore, vocab: Vocabulary) -> set[str]:
    """Subjects that may hold a pairwise conflict, found by aggregation inside the store.

    Raises:
        StoreError: the store failed.
    """
    subjects = {r["subject"] for r in store.iterate("conflict_candidates_polarity")}
    if vocab.functional:
        functional = sorted(vocab.functional)
        subjects |= {r["subject"] for r in store.iterate("conflict_candidates_functional", functional=functional)}
    if vocab.opposites:
        left = sorted({p for p, _ in vocab.opposites})
        subjects |= {r["subject"] for r in store.iterate("conflict_candidates_opposite", left=left, right=left)}
    if vocab.symmetric:
        symmetric = sorted(vocab.symmetric)
        subjects |= {r["subject"] for r in store.iterate("conflict_candidates_symmetric", symmetric=symmetric)}
    return subjects


Links = dict[str, set[tuple[str, str]]]  # concept -> {(neighbour, fact_id)}


def _walk(
    store: GraphStore,
    query: str,
    start: Iterable[str],
    *,
    up: bool,
    local: Links | None = None,
    new: Collection[str] = (),
    skip: Collection[str] = (),
) -> Links:
    """Every instance_of / is_a link reachable from `start` (upwards or downwards), one bulk query per level.

    Inside a load transaction the load's own links come from `local` (keyed in the walk's direction) and the
    queries give only the stored ones: Kùzu 0.11.3 returns wrong rows for relationships created in the running
    transaction (measured on the demo: one new is_a fact read back with twenty parents), so rows with a fact id
    in `skip` (the transaction's) are dropped. A concept in `new` (created by the load) has no other links and is not
    queried: loading the Gene Ontology after pizza.owl walks GO's 45k new classes without a query.
    """
    links: Links = defaultdict(set)
    local = local or {}
    seen = set(start)
    frontier = sorted(seen)
    while frontier:
        reached: set[str] = set()
        asked = [c for c in frontier if c not in new]
        for begin in range(0, len(asked), _CHUNK):
            for r in store.iterate(query, ids=asked[begin : begin + _CHUNK]):
                if r["fact_id"] in skip:
                    continue
                here, there = (r["concept"], r["parent"]) if up else (r["parent"], r["concept"])
                links[here].add((there, r["fact_id"]))
                if there not in seen:
                    reached.add(there)
        for here in frontier:
            for there, fact_id in local.get(here, ()):
                links[here].add((there, fact_id))
                if there not in seen:
                    reached.add(there)
        seen |= reached
        frontier = sorted(reached)
    return links


def _fresh_links(fresh: Iterable[Fact], *, up: bool) -> Links:
    """The active positive instance_of / is_a links among `fresh` facts, as the walk queries return them."""
    links: Links = defaultdict(set)
    for f in fresh:
        if f.predicate in MEMBERSHIP and f.polarity and f.status is Status.ACTIVE and f.object is not None:
            here, there = (f.subject, f.object) if up else (f.object, f.subject)
            links[here].add((there, f.fact_id))
    return links


def _reach(links: Links, start: str) -> set[str]:
    """Concepts reachable from `start` in one step or more."""
    found: set[str] = set()
    stack = [start]
    while stack:
        for there, _ in links.get(stack.pop(), ()):
            if there not in found:
                found.add(there)
                stack.append(there)
    return found


def _axiom_classes_above(up: Links, classes: set[str]) -> dict[str, set[str]]:
    """For each concept below one of `classes`, which of them are above it (the only ancestors a disjointness
    check needs). Concepts below none are left out: loading the Gene Ontology into a KB with pizza.owl's axioms
    then costs one pass over the links instead of every GO class's whole ancestor set."""
    below: Links = defaultdict(set)
    for x, parents in up.items():
        for p, fact_id in parents:
            below[p].add((x, fact_id))
    reaching = _reach_all(below, classes)
    above = {x: {p for p, _ in up.get(x, ()) if p in classes} for x in reaching}
    changed = True
    while changed:  # a fixpoint (the hierarchy may have cycles); as many passes as it is deep
        changed = False
        for x in reaching:
            mine = above[x]
            for p, _ in up.get(x, ()):
                extra = above.get(p)
                if extra and not extra <= mine:
                    mine |= extra
                    changed = True
    return above


def _reach_all(links: Links, start: Iterable[str]) -> set[str]:
    """Concepts reachable from any of `start` in one step or more."""
    found: set[str] = set()
    stack = list(start)
    while stack:
        for there, _ in links.get(stack.pop(), ()):
            if there not in found:
                found.add(there)
                stack.append(there)
    return found


def _path(links: Links, start: str, goal: str) -> list[str]:
    """Fact ids of a shortest path from `start` to `goal` (breadth first, ties broken by id)."""
    back: dict[str, tuple[str, str]] = {}
    frontier = [start]
    while frontier and goal not in back:
        nxt = []
        for node in frontier:
            for there, fact_id in sorted(links.get(node, ())):
                if there not in back and there != start:
                    back[there] = (node, fact_id)
                    nxt.append(there)
        frontier = nxt
    facts = []
    node = goal
    while node != start:
        node, fact_id = back[node]
        facts.append(fact_id)
    return facts[::-1]


def find_disjointness(
    store: GraphStore, *, fresh: Sequence[Fact] | None = None, new_concepts: Collection[str] = ()
) -> list[Contradiction]:
    """Concepts placed under two classes declared disjoint (relation conflicts reached through is_a).

    A concept below both classes of an axiom violates it (OWL 2 RL cax-dw). Only the highest violators are
    reported: sub-classes and instances of a violating class inherit its violation and are not reported
    again. The hierarchy is walked level by level with bulk queries, from the axioms' classes down (a full
    scan, or a new axiom) or from the subjects of new instance_of / is_a facts up (a load).

    Args:
        store: the store.
        fresh: when given (a load hook), only violations whose paths use one of these facts, which are
            also taken from here instead of being read back (see `facts_of_subjects`); it must then hold every
            instance_of, is_a and disjoint_with fact the running transaction stored.
        new_concepts: concepts the load created (with `fresh`): they have no links but those in `fresh`, and
            are not queried.

    Raises:
        StoreError: the store failed.
    """
    new = {f.fact_id for f in fresh} if fresh is not None else None
    axioms = _disjoint_axioms(store, fresh)
    if not axioms:
        return []
    members = {f.subject for f in fresh or () if f.predicate in MEMBERSHIP}
    # Inside a load (`fresh`) the walks take its links from memory and only the stored ones from queries.
    walk = _Walker(store, fresh, new_concepts if fresh is not None else (), new or ())
    whole = [a for a in axioms if new is None or a in new]  # axioms whose every violation must be found
    below_both = _below_both(walk, axioms, whole)
    suspects = members.union(*below_both.values())
    if not suspects:
        return []
    up = walk("conflict_parents", suspects, up=True)
    rows = _violations(axioms, suspects, members, below_both, up)
    if new is not None:
        rows = [r for r in rows if new & {r[0], *r[2], *r[3]}]
    return _relation_conflicts(store, rows, fresh)


# (axiom, concept, fact ids of the path up to the left class, of the path up to the right class)
_Violation = tuple[str, str, list[str], list[str]]


@dataclass(frozen=True, slots=True)
class _Walker:
    """`_walk` with what a load gives it: the links of its `fresh` facts from memory, the concepts it created
    (`new`, not queried) and the fact ids its transaction stored (`skip`, dropped from the query rows)."""

    store: GraphStore
    fresh: Sequence[Fact] | None
    new: Collection[str]
    skip: Collection[str]

    def __call__(self, query: str, start: Iterable[str], *, up: bool) -> Links:
        local = _fresh_links(self.fresh, up=up) if self.fresh is not None else None
        return _walk(self.store, query, start, up=up, local=local, new=self.new, skip=self.skip)


def _disjoint_axioms(store: GraphStore, fresh: Sequence[Fact] | None) -> dict[str, tuple[str, str]]:
    """Every disjointness axiom, id -> (left class, right class); those the running transaction stored (in
    `fresh`) come from memory, not read back."""
    axioms = {r["axiom"]: (r["left"], r["right"]) for r in store.run("conflict_disjoint_axioms")}
    for f in fresh or ():
        axioms.pop(f.fact_id, None)
        if f.predicate == "disjoint_with" and f.polarity and f.status is Status.ACTIVE and f.object is not None:
            axioms[f.fact_id] = (f.subject, f.object)
    return axioms


def _below_both(walk: _Walker, axioms: Mapping[str, tuple[str, str]], whole: Sequence[str]) -> dict[str, set[str]]:
    """For each axiom in `whole`, the concepts below both its classes (walked down from the classes)."""
    if not whole:
        return {}
    down = walk("conflict_children", {c for a in whole for c in axioms[a]}, up=False)
    below_both = {}
    for a in whole:
        left, right = axioms[a]
        below_both[a] = _reach(down, left) & _reach(down, right)
    return below_both


def _violations(
    axioms: Mapping[str, tuple[str, str]],
    suspects: set[str],
    members: set[str],
    below_both: Mapping[str, set[str]],
    up: Links,
) -> list[_Violation]:
    """The highest violators among `suspects` of each axiom whose classes are both above them, sorted."""
    above = _axiom_classes_above(up, {c for pair in axioms.values() for c in pair})
    by_class: dict[str, list[str]] = defaultdict(list)
    for a, (left, right) in axioms.items():
        by_class[left].append(a)
        by_class[right].append(a)
    rows = []
    # Per concept, only the axioms whose classes are above it (pizza.owl has thousands of pairwise axioms, and a
    # load thousands of new members: their product was minutes and gigabytes).
    for x in suspects:
        mine = above.get(x)
        if not mine:
            continue
        for a in {a for c in mine for a in by_class[c]}:
            left, right = axioms[a]
            if not {left, right} <= mine or (x not in members and x not in below_both.get(a, ())):
                continue
            if any({left, right} <= above.get(p, set()) for p, _ in up.get(x, ())):
                continue  # inherited from a parent that violates the axiom itself
            rows.append((a, x, _path(up, x, left), _path(up, x, right)))
    rows.sort()
    return rows


def _relation_conflicts(
    store: GraphStore, rows: Sequence[_Violation], fresh: Sequence[Fact] | None
) -> list[Contradiction]:
    """One relation conflict per violation, with the facts of the axiom and both paths, ordered by id."""
    wanted = {i for a, _, left_facts, right_facts in rows for i in (a, *left_facts, *right_facts)}
    facts = facts_by_id(store, wanted, fresh=[f for f in fresh or () if f.fact_id in wanted])
    trust = _trust_for(store, facts.values())
    found = {}
    for a, x, left_facts, right_facts in rows:
        ids = sorted({a, *left_facts, *right_facts})
        c = Contradiction(
            ConflictType.RELATION_CONFLICT,
            tuple(facts[i] for i in ids),
            f"{a}@{x}",
            # The concept's own membership links are in doubt, not the axiom or the rest of the hierarchy.
            doubted=tuple(sorted({left_facts[0], right_facts[0]})),
            concept=x,
            axiom=a,
            trust={facts[i].source: trust[facts[i].source] for i in ids if facts[i].source in trust},
        )
        found[c.id] = c
    return [found[k] for k in sorted(found)]


# Finds the pairwise conflicts of the whole knowledge base for a vocabulary: the embedded default below, or an
# engine that runs `comparison_keys` and `find_contradictions` elsewhere (kgbrain/scale/conflicts.py).
PairwiseScan = Callable[[GraphStore, Vocabulary], list[Contradiction]]


def pairwise_conflicts(store: GraphStore, vocab: Vocabulary) -> list[Contradiction]:
    """Every pairwise conflict of the knowledge base (all but disjointness), sorted by id.

    Raises:
        StoreError: the store failed.
    """
    facts = facts_of_subjects(store, candidate_subjects(store, vocab))
    return find_contradictions(facts, vocab, trust=_trust_for(store, facts))


def scan(store: GraphStore, pairwise: PairwiseScan = pairwise_conflicts) -> list[Contradiction]:
    """Every conflict in the whole knowledge base (`pairwise`: where the pairs are compared).

    Raises:
        StoreError: the store failed.
    """
    found = pairwise(store, load_vocabulary(store))
    return sorted([*found, *find_disjointness(store)], key=lambda c: c.id)


def detect_new(
    store: GraphStore, added: Sequence[Fact], *, only_new: bool = False, new_concepts: Collection[str] = ()
) -> list[Contradiction]:
    """Conflicts between freshly stored facts and everything else, in a few bulk queries.

    With `only_new` (nothing was stored before these facts) the candidates come from `added` alone, and
    only facts that share a comparison key with another new fact are built and compared: a first bulk
    load of a million facts then compares the few that can conflict instead of all of them. `new_concepts`
    are concepts created with `added` (a load's): the hierarchy walk follows their links in memory.

    Raises:
        StoreError: the store failed.
    """
    if not added:
        return []
    vocab = load_vocabulary(store)
    opposite: dict[str, set[str]] = defaultdict(set)
    for p, q in vocab.opposites:
        opposite[p].add(q)
    # A load report may build its facts lazily: build them once (or only the comparable ones).
    if only_new:  # nothing was stored before: a disjointness axiom can only come with these facts
        predicates = added.distinct("predicate") if isinstance(added, FactColumns) else {f.predicate for f in added}
        added = _worth_comparing(added, vocab, opposite, memberships="disjoint_with" in predicates)
        facts = [f for f in added if f.status in LIVE]
    else:  # against the stored facts too: only those sharing a comparison key with a new fact become Facts
        columns = added if isinstance(added, FactColumns) else FactColumns(added)
        stored = _stored_facts_by_key(store, columns, vocab, opposite, new_concepts=new_concepts)
        n = len(columns)
        both = _concat(columns, stored)
        wanted = _sharing_a_key(both, n, vocab, opposite)
        kinds = pa.array(sorted({*MEMBERSHIP, "disjoint_with"}), pa.string())
        member = pc.is_in(columns.arrow("predicate"), value_set=kinds).to_numpy(False)
        added = list(columns.take(pa.array(np.flatnonzero(wanted[:n] | member).astype(np.int64))))
        compared = stored.take(pa.array(np.flatnonzero(wanted[n:]).astype(np.int64)))
        facts = [f for f in (*added, *compared) if f.status in LIVE]
        release_arrow_memory()
    new = {f.fact_id for f in added}
    found = find_contradictions(facts, vocab, new=new, trust=_trust_for(store, facts))
    memberships = [f for f in added if f.predicate in MEMBERSHIP or f.predicate == "disjoint_with"]
    if memberships:
        found += find_disjointness(store, fresh=memberships, new_concepts=new_concepts)
    return sorted(found, key=lambda c: c.id)
