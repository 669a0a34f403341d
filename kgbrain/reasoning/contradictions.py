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
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from typing import Any

from kgbrain.knowledge import Fact, Status
from kgbrain.memory.trust import get_trust
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import fact_from_row

# Seed 001: "source_trust разница > 0.3".
TRUST_GAP = 0.3
# Facts compared by detection: everything but what a person retracted. Outdated and disputed facts stay in,
# so which pairs conflict depends only on the facts, not on the order they arrived in (a value outdated by
# a 2021 census is still compared with a 2024 rumour, as it would have been had the rumour come first).
LIVE = frozenset({Status.ACTIVE, Status.DISPUTED, Status.OUTDATED})
# Links a disjointness violation is reached through.
MEMBERSHIP = frozenset({"is_a", "instance_of"})
_CHUNK = 20_000


class ConflictType(str, Enum):
    """The five structural conflict types of seed 001."""

    OPPOSITE_POLARITY = "opposite_polarity"
    CONFLICTING_VALUE = "conflicting_value"
    SOURCE_CONFLICT = "source_conflict"
    RELATION_CONFLICT = "relation_conflict"
    STALE_EVIDENCE = "stale_evidence"


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What detection needs to know about predicates."""

    functional: frozenset[str] = frozenset()
    symmetric: frozenset[str] = frozenset({"related_to", "disjoint_with"})
    # Unordered pairs of predicates declared opposite, stored in both orders.
    opposites: frozenset[tuple[str, str]] = frozenset({("causes", "prevents"), ("prevents", "causes")})

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
    trust = trust or {}
    ta, tb = trust.get(a.source, a.trust), trust.get(b.source, b.trust)
    if a.polarity != b.polarity:
        if claim_key(a, vocab) != claim_key(b, vocab):
            return None  # "X does not cause Y" is compatible with anything but "X causes Y"
        return ConflictType.SOURCE_CONFLICT if _gap(ta, tb) > TRUST_GAP else ConflictType.OPPOSITE_POLARITY
    if not a.polarity:
        return None  # two denials never conflict
    if a.subject != b.subject:
        return None
    if a.predicate == b.predicate:
        if a.predicate not in vocab.functional or not comparable(a, b) or target_key(a) == target_key(b):
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


def _groups(facts: Sequence[Fact], vocab: Vocabulary) -> Iterator[list[Fact]]:
    """Groups of facts that could replace each other; only pairs inside a group are compared."""
    by_claim: dict[tuple[Any, ...], list[Fact]] = defaultdict(list)
    by_attribute: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    by_pair: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    opposite = {p for p, _ in vocab.opposites}
    for f in facts:
        by_claim[claim_key(f, vocab)].append(f)
        if f.polarity and f.predicate in vocab.functional:
            by_attribute[(f.subject, f.predicate)].append(f)
        if f.polarity and f.object is not None and f.predicate in opposite:
            by_pair[(f.subject, f.object)].append(f)
    for groups in (by_claim, by_attribute, by_pair):
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
    return Vocabulary.from_rows(store.run("predicates_all"))


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


def facts_by_id(store: GraphStore, fact_ids: Iterable[str], *, fresh: Sequence[Fact] = ()) -> dict[str, Fact]:
    """Facts by id, whatever their status (`fresh`: see `facts_of_subjects`).

    Raises:
        StoreError: the store failed.
    """
    out: dict[str, Fact] = {f.fact_id: f for f in fresh}
    ids = sorted(set(fact_ids) - out.keys())
    for start in range(0, len(ids), _CHUNK):
        for r in store.iterate("tms_facts_get", ids=ids[start : start + _CHUNK]):
            f = fact_from_row(r)
            out.setdefault(f.fact_id, f)
    return out


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


def find_disjointness(store: GraphStore, *, fresh: Sequence[Fact] | None = None) -> list[Contradiction]:
    """Concepts placed under two classes declared disjoint (relation conflicts reached through is_a).

    Only the highest such concepts are reported: when a class violates the axiom, its sub-classes and
    instances inherit the violation and are not reported again.

    Raises:
        StoreError: the store failed.
    """
    new = {f.fact_id for f in fresh} if fresh is not None else None
    rows = store.run("conflict_disjoint")
    violators: dict[str, set[str]] = defaultdict(set)
    for r in rows:
        violators[r["axiom"]].add(r["concept"])
    keep = []
    for r in rows:
        inherited = {r["left_step"], r["right_step"]} & violators[r["axiom"]]
        involved = {r["axiom"], *r["left_facts"], *r["right_facts"]}
        if not inherited and (new is None or involved & new):
            keep.append(r)
    wanted = {i for r in keep for i in (r["axiom"], *r["left_facts"], *r["right_facts"])}
    facts = facts_by_id(store, wanted, fresh=[f for f in fresh or () if f.fact_id in wanted])
    trust = _trust_for(store, facts.values())
    found = {}
    for r in keep:
        ids = sorted({r["axiom"], *r["left_facts"], *r["right_facts"]})
        c = Contradiction(
            ConflictType.RELATION_CONFLICT,
            tuple(facts[i] for i in ids),
            f"{r['axiom']}@{r['concept']}",
            # The concept's own membership links are in doubt, not the axiom or the rest of the hierarchy.
            doubted=tuple(sorted({r["left_facts"][0], r["right_facts"][0]})),
            concept=r["concept"],
            axiom=r["axiom"],
            trust=trust,
        )
        found[c.id] = c
    return [found[k] for k in sorted(found)]


def scan(store: GraphStore) -> list[Contradiction]:
    """Every conflict in the whole knowledge base.

    Raises:
        StoreError: the store failed.
    """
    vocab = load_vocabulary(store)
    facts = facts_of_subjects(store, candidate_subjects(store, vocab))
    found = find_contradictions(facts, vocab, trust=_trust_for(store, facts))
    return sorted([*found, *find_disjointness(store)], key=lambda c: c.id)


def detect_new(store: GraphStore, added: Sequence[Fact]) -> list[Contradiction]:
    """Conflicts between freshly stored facts and everything else, in a few bulk queries.

    Raises:
        StoreError: the store failed.
    """
    if not added:
        return []
    vocab = load_vocabulary(store)
    subjects = {f.subject for f in added}
    # A symmetric statement may be contradicted by one stored in the other direction.
    subjects |= {f.object for f in added if f.object is not None and f.predicate in vocab.symmetric}
    facts = facts_of_subjects(store, subjects, fresh=added)
    new = {f.fact_id for f in added}
    found = find_contradictions(facts, vocab, new=new, trust=_trust_for(store, facts))
    if any(f.predicate in MEMBERSHIP or f.predicate == "disjoint_with" for f in added):
        found += find_disjointness(store, fresh=added)
    return sorted(found, key=lambda c: c.id)
