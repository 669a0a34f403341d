"""The in-memory rule executor: semi-naive evaluation of a stratified strict `Program` with numpy hash joins.

The Cypher compilation (reasoning/rules/cypher_engine.py) is the definition of what rules derive; this is its fast
path, held to it by a hypothesis property test (tests/reasoning/rules/test_executor_vs_cypher.py). Semantics, as in
ruleset.py:

- a fact table is every active fact, stored or derived (`FactRow`s: the caller filters by status);
- a binary atom `p(X, Y)` matches facts `X p Y` (Y a concept or a literal value); a unary atom `c(X)` matches
  `X instance_of c` and `X is_a c`; a unary head derives `X instance_of c`;
- `~p(...)` (negated) matches facts of polarity false and derives them;
- `not p(...)` (naf) holds when no fact of the atom's polarity matches; its variables not bound by the positive
  atoms are existential; rules run stratum by stratum (`stratify`), so a naf atom sees a finished relation;
- comparisons: `<`, `<=`, `>`, `>=` hold on two numbers only; `=`/`!=` compare numbers by value and anything
  else by identity (a concept is never equal to a string literal with the same text).

Every firing is reported: a `Derivation` per rule and distinct tuple of premise facts (one per positive body
atom, in body order), including firings whose head was already stored, so truth maintenance can count support.
A premise that is itself derived is named by `derived_fact_id` (the fact id of the statement with source
`rule:<smallest rule id deriving it>`); a statement stored under several fact ids is named by the smallest.

Facts are integer-encoded tuples (subject, relation, object) where a relation is predicate × polarity; the
tuple store is append-only, so semi-naive "old", "delta" and "all" are index ranges over per-relation index
arrays, and a join is a sort + searchsorted over key arrays.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kgbrain.errors import InputError
from kgbrain.knowledge import Fact, literal_target, make_fact_id
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.ruleset import (
    DERIVED_SOURCE_PREFIX,
    Atom,
    CompareOp,
    Comparison,
    Const,
    Derivation,
    Program,
    Rule,
    RuleKind,
    Var,
)
from kgbrain.store.protocol import GraphStore

Ints = npt.NDArray[np.int64]
MEMBERSHIP = ("instance_of", "is_a")  # the predicates a unary atom matches


@dataclass(frozen=True, slots=True)
class FactRow:
    """One active fact: `object` a concept id, or None and `value` a literal (str lexical form, or a number).

    `target` is how the literal enters fact ids (knowledge.literal_target); it defaults to str(value).
    """

    fact_id: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool = True
    value: str | int | float | bool | None = None
    target: str | None = None

    @classmethod
    def from_fact(cls, fact: Fact) -> FactRow:
        """From a `knowledge.Fact` (the rule engine's `Executor` protocol hands facts over this way)."""
        if fact.value is None:
            return cls(fact.fact_id, fact.subject, fact.predicate, fact.object, fact.polarity)
        lit = fact.value
        value = lit.python()
        target = literal_target(lit.lexical, lit.datatype, lit.unit)
        return cls(fact.fact_id, fact.subject, fact.predicate, None, fact.polarity, value, target)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> FactRow:
        """From a query row with subject/predicate/object/polarity/fact_id (and value/number/target for literals)."""
        obj = row.get("object")
        if obj is not None and row.get("value") is None:
            return cls(row["fact_id"], row["subject"], row["predicate"], obj, bool(row["polarity"]))
        number = row.get("number")
        value = row.get("value")
        target = row.get("target")
        if target is None and row.get("datatype") is not None:
            target = literal_target(str(value), row["datatype"], row.get("unit"))
        if number is not None and isinstance(value, str) and is_number(value):
            value = number
        return cls(row["fact_id"], row["subject"], row["predicate"], None, bool(row["polarity"]), value, target)


def is_number(text: str) -> bool:
    """Whether a literal's text reads as a number (its rule comparisons are then numeric)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def literal_key(value: str | int | float | bool) -> tuple[str, str | float]:
    """The identity of a literal value: numbers by value (5 == 5.0), booleans and strings by text."""
    if isinstance(value, bool):
        return ("v", "true" if value else "false")
    if isinstance(value, int | float):
        return ("v", float(value))
    return ("v", value)


def derived_fact_id(rule: str, subject: str, predicate: str, target: str, polarity: bool) -> str:
    """The fact id of a derived statement, as stored with source `rule:<rule>`."""
    return make_fact_id(subject, predicate, target, polarity, DERIVED_SOURCE_PREFIX + rule)


class _Grow:
    """An append-only int64 array with amortised growth."""

    __slots__ = ("data", "size")

    def __init__(self) -> None:
        self.data: Ints = np.empty(16, dtype=np.int64)
        self.size = 0

    def extend(self, values: Ints) -> None:
        need = self.size + len(values)
        if need > len(self.data):
            grown = np.empty(max(need, 2 * len(self.data)), dtype=np.int64)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size : need] = values
        self.size = need

    def view(self) -> Ints:
        return self.data[: self.size]

    @classmethod
    def of(cls, values: Ints) -> _Grow:
        """Over `values` as they are (the first `extend` copies them)."""
        grown = cls()
        grown.data, grown.size = values, len(values)
        return grown


class TooManyRows(InputError):
    """A query's join would hold more rows than its budget (a cross product of big relations)."""

    def __init__(self, rows: int, limit: int) -> None:
        super().__init__(
            f"the query would build {rows:,} intermediate solutions, more than the {limit:,} a query may hold; "
            "share variables between its patterns or name constants (LIMIT does not bound the work)"
        )


def _join(left: Ints, right: Ints, limit: int | None = None) -> tuple[Ints, Ints]:
    """Row pairs (i, j) with left[i] == right[j] (a sort-merge equi-join, fully vectorised).

    Raises:
        TooManyRows: there would be more than `limit` pairs (counted before any is built).
    """
    if not len(left) or not len(right):
        empty = np.empty(0, dtype=np.int64)
        return empty, empty
    order = np.argsort(right, kind="stable")
    ordered = right[order]
    lo = np.searchsorted(ordered, left, "left")
    counts = np.searchsorted(ordered, left, "right") - lo
    total = int(counts.sum())
    if limit is not None and total > limit:
        raise TooManyRows(total, limit)
    li = np.repeat(np.arange(len(left), dtype=np.int64), counts)
    starts = np.cumsum(counts) - counts
    ri = order[np.repeat(lo - starts, counts) + np.arange(total, dtype=np.int64)]
    return li, ri


@dataclass
class _Bindings:
    """A table of partial matches: a column of term ids per variable and of tuple ids per matched atom."""

    columns: dict[str, Ints]
    premises: list[Ints]
    rows: int

    def take(self, index: Ints) -> _Bindings:
        return _Bindings({v: c[index] for v, c in self.columns.items()}, [p[index] for p in self.premises], len(index))


def empty_bindings(positive: Sequence[Atom]) -> _Bindings:
    """No match: an empty column per variable and per atom."""
    empty = np.empty(0, dtype=np.int64)
    return _Bindings({v: empty for lit in positive for v in lit.variables()}, [empty] * len(positive), 0)


def join_order(positive: Sequence[Atom], first: int) -> list[int]:
    """The order the positive atoms are joined in: `first`, then always the atom sharing most bound variables."""
    order = [first] if positive else []
    done = set(order)
    while len(order) < len(positive):
        bound = set().union(*(positive[k].variables() for k in order)) if order else set()
        pick = max(
            (k for k in range(len(positive)) if k not in done),
            key=lambda k: (len(positive[k].variables() & bound), -len(positive[k].variables())),
        )
        order.append(pick)
        done.add(pick)
    return order


def stratify(rules: Sequence[Rule]) -> list[list[Rule]]:
    """Rules grouped into strata so that every naf atom refers to relations finished in an earlier stratum.

    Raises:
        InputError: a relation depends on its own negation (the message names the cycle's rules).
    """
    heads: dict[tuple[str, str, bool], list[int]] = defaultdict(list)  # relation node -> rules defining it
    for i, rule in enumerate(rules):
        for node in _head_nodes(rule.head):
            heads[node].append(i)
    level = [0] * len(rules)
    # Bellman-Ford-style longest path: a rule sits above rules it reads (>= ) and strictly above those it negates.
    deps: list[list[tuple[int, int]]] = []
    for rule in rules:
        edges: list[tuple[int, int]] = []
        for lit in rule.body:
            if isinstance(lit, Atom):
                for node in _body_nodes(lit, heads):
                    edges += [(j, 1 if lit.naf else 0) for j in heads.get(node, ())]
        deps.append(edges)
    for _ in range(len(rules) + 1):
        changed = False
        for i, edges in enumerate(deps):
            for j, strict in edges:
                if level[j] + strict > level[i]:
                    level[i] = level[j] + strict
                    changed = True
                    if level[i] > len(rules):
                        cycle = sorted({rules[i].id, rules[j].id})
                        raise InputError(
                            f"rules {', '.join(cycle)} are not stratifiable: a relation depends on its own "
                            "negation as failure through them"
                        )
        if not changed:
            break
    strata: dict[int, list[Rule]] = defaultdict(list)
    for i, rule in enumerate(rules):
        strata[level[i]].append(rule)
    return [strata[k] for k in sorted(strata)]


def _head_nodes(head: Atom) -> list[tuple[str, str, bool]]:
    pol = not head.negated
    if head.unary:
        return [("m", head.predicate, pol)]
    if head.predicate in MEMBERSHIP:
        obj = head.args[1]
        return [("m", str(obj.value) if isinstance(obj, Const) else "*", pol)]
    return [("p", head.predicate, pol)]


def _body_nodes(atom: Atom, heads: Mapping[tuple[str, str, bool], list[int]]) -> list[tuple[str, str, bool]]:
    pol = not atom.negated
    if atom.unary:
        return [("m", atom.predicate, pol), ("m", "*", pol)]
    if atom.predicate in MEMBERSHIP:
        obj = atom.args[1]
        if isinstance(obj, Const):
            return [("m", str(obj.value), pol), ("m", "*", pol)]
        return [n for n in heads if n[0] == "m" and n[2] == pol]
    return [("p", atom.predicate, pol)]


class Closure:
    """The fact table plus everything a program derives from it; also answers rule-body queries over both."""

    def __init__(self, facts: Iterable[FactRow | Fact | Mapping[str, Any]]) -> None:
        """Encode the facts (active ones only: the caller filters by status)."""
        self._frozen_terms = False
        self.max_rows: int | None = None  # a query's budget (match_ids); materialisation joins are not bounded
        self.terms: list[str | tuple[str, str | float]] = []
        self.term_index: dict[str | tuple[str, str | float], int] = {}
        self.numbers: list[float] = []  # per term: its numeric value, or nan
        self.targets: list[str] = []  # per term: how it enters a fact id
        self.relations: list[tuple[str, bool]] = []
        self.relation_index: dict[tuple[str, bool], int] = {}
        subj: list[int] = []
        rel: list[int] = []
        obj: list[int] = []
        ids: list[str] = []
        for raw in facts:
            if isinstance(raw, FactRow):
                row = raw
            elif isinstance(raw, Fact):
                row = FactRow.from_fact(raw)
            else:
                row = FactRow.from_row(raw)
            subj.append(self.concept(row.subject))
            rel.append(self.relation(row.predicate, row.polarity))
            if row.object is not None:
                obj.append(self.concept(row.object))
            else:
                assert row.value is not None
                obj.append(self.literal(row.value, row.target))
            ids.append(row.fact_id)
        self.stored_ids: dict[int, str] = {}  # tuple id -> smallest stored fact id
        self.stored_all: dict[int, list[str]] = {}  # tuple id -> every stored fact id (sorted)
        self.rounds = 0
        self.restored = False  # read back by `restore`: it answers matches, it holds no firings or fact ids
        self._s, self._r, self._o = _Grow(), _Grow(), _Grow()
        self._keys = np.empty(0, dtype=np.int64)  # sorted tuple keys
        self._key_pos = np.empty(0, dtype=np.int64)  # tuple id of each sorted key
        self._by_rel: dict[int, _Grow] = defaultdict(_Grow)
        self._by_rel_obj: dict[tuple[int, int], _Grow] = defaultdict(_Grow)
        self._fired: list[tuple[int, Ints, list[Ints]]] = []  # (rule, head tuple ids, premise tuple ids)
        self._rules: list[Rule] = []
        self.last_match_rows = 0
        self._pending = (np.asarray(subj, dtype=np.int64), np.asarray(rel, dtype=np.int64))
        self._pending_obj = np.asarray(obj, dtype=np.int64)
        self._pending_ids = ids

    # -- encoding ---------------------------------------------------------------------------------

    def concept(self, name: str) -> int:
        """The term id of a concept (created when new)."""
        return self._term(name, math.nan, name)

    def literal(self, value: str | int | float | bool, target: str | None = None) -> int:
        """The term id of a literal value (created when new)."""
        key = literal_key(value)
        number = key[1] if isinstance(key[1], float) else math.nan
        return self._term(key, number, target if target is not None else str(value))

    def _term(self, key: str | tuple[str, str | float], number: float, target: str) -> int:
        i = self.term_index.get(key)
        if i is None:
            if self._frozen_terms:
                raise ValueError(f"new term {key!r} after facts were encoded")
            i = self.term_index[key] = len(self.terms)
            self.terms.append(key)
            self.numbers.append(number)
            self.targets.append(target)
        return i

    def relation(self, predicate: str, polarity: bool) -> int:
        """The relation id of predicate × polarity (created when new)."""
        key = (predicate, polarity)
        i = self.relation_index.get(key)
        if i is None:
            i = self.relation_index[key] = len(self.relations)
            self.relations.append(key)
        return i

    def _const(self, term: Const) -> int:
        return self.literal(term.value) if term.literal else self.concept(str(term.value))

    def _prepare(self, rules: Iterable[Rule]) -> None:
        """Register every constant and relation of the rules, then encode the pending facts (keys need sizes).

        Runs once: later constants (of a query) that name nothing stored simply match nothing.
        """
        if self._frozen_terms:
            return
        for rule in rules:
            for lit in (rule.head, *rule.body):
                args = lit.args if isinstance(lit, Atom) else (lit.left, lit.right)
                for a in args:
                    if isinstance(a, Const):
                        self._const(a)
                if isinstance(lit, Atom):
                    if lit.unary:
                        self.concept(lit.predicate)
                        for p in MEMBERSHIP:
                            self.relation(p, not lit.negated)
                    else:
                        self.relation(lit.predicate, not lit.negated)
        if self._frozen_terms:
            return
        self._frozen_terms = True
        self._nt = max(len(self.terms), 1)
        self._nr = max(len(self.relations), 1)
        if self._nt * self._nt * self._nr >= 2**62:
            raise ValueError("too many terms to key tuples in 64 bits")
        self._numbers = np.asarray(self.numbers, dtype=np.float64)
        self._is_concept = np.asarray([isinstance(k, str) for k in self.terms], dtype=bool)
        self._membership = {
            self.relation_index[(p, pol)]
            for p in MEMBERSHIP
            for pol in (True, False)
            if (p, pol) in self.relation_index
        }
        s, r = self._pending
        o, ids = self._pending_obj, self._pending_ids
        self._pending_ids = []
        if not ids:
            return
        keys = (s * self._nr + r) * self._nt + o
        by_key: dict[int, list[str]] = defaultdict(list)  # every fact id per distinct statement
        for k, fid in zip(keys.tolist(), ids, strict=True):
            by_key[k].append(fid)
        uniq, first = np.unique(keys, return_index=True)
        tids = self._append(s[first], r[first], o[first], uniq)
        self.stored_all = {t: sorted(by_key[k]) for t, k in zip(tids.tolist(), uniq.tolist(), strict=True)}
        self.stored_ids = {t: fids[0] for t, fids in self.stored_all.items()}

    def _append(self, s: Ints, r: Ints, o: Ints, keys: Ints) -> Ints:
        """Add new distinct tuples (keys not yet present); returns their tuple ids."""
        start = self._s.size
        tids = np.arange(start, start + len(s), dtype=np.int64)
        self._s.extend(s)
        self._r.extend(r)
        self._o.extend(o)
        order = np.argsort(keys, kind="stable")
        at = np.searchsorted(self._keys, keys[order])  # a merge, O(n + m), instead of re-sorting everything
        self._keys = np.insert(self._keys, at, keys[order])
        self._key_pos = np.insert(self._key_pos, at, tids[order])
        order = np.lexsort((tids, r))
        rs = r[order]
        cuts = np.flatnonzero(np.diff(rs)) + 1
        for chunk in np.split(order, cuts):
            if len(chunk):
                self._by_rel[int(r[chunk[0]])].extend(tids[chunk])
        member = np.isin(r, list(self._membership)) if self._membership else np.zeros(len(r), dtype=bool)
        if member.any():
            mi = np.flatnonzero(member)
            order = mi[np.lexsort((tids[mi], o[mi], r[mi]))]
            pairs = r[order] * self._nt + o[order]
            cuts = np.flatnonzero(np.diff(pairs)) + 1
            for chunk in np.split(order, cuts):
                self._by_rel_obj[(int(r[chunk[0]]), int(o[chunk[0]]))].extend(tids[chunk])
        return tids

    def _lookup(self, keys: Ints) -> Ints:
        """Tuple ids of keys (-1 where absent)."""
        if not len(self._keys):
            return np.full(len(keys), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        found = self._keys[pos] == keys
        return np.where(found, self._key_pos[pos], -1)

    @property
    def size(self) -> int:
        """Tuples held (stored and derived)."""
        return self._s.size

    # -- persisting (reasoning/rules/closure_file.py) ----------------------------------------------

    def state(self) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """What matching reads, as marshal-able data and arrays: terms, relations, tuples and their indexes.

        Not the firings nor the stored fact ids: a query reads neither, and they are most of a closure's memory.
        """
        self._prepare([])
        rel_keys, obj_keys = sorted(self._by_rel), sorted(self._by_rel_obj)
        meta = {
            "terms": self.terms,
            "targets": self.targets,
            "relations": self.relations,
            "membership": sorted(self._membership),
            "rel_keys": rel_keys,
            "obj_keys": obj_keys,
            "rounds": self.rounds,
        }
        arrays = {
            "s": self._s.view(),
            "r": self._r.view(),
            "o": self._o.view(),
            "keys": self._keys,
            "key_pos": self._key_pos,
            "numbers": self._numbers,
            "is_concept": self._is_concept,
            "by_rel": _concat([self._by_rel[k].view() for k in rel_keys]),
            "by_rel_len": np.asarray([self._by_rel[k].size for k in rel_keys], dtype=np.int64),
            "by_obj": _concat([self._by_rel_obj[k].view() for k in obj_keys]),
            "by_obj_len": np.asarray([self._by_rel_obj[k].size for k in obj_keys], dtype=np.int64),
        }
        return meta, arrays

    @classmethod
    def restore(cls, meta: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]]) -> Closure:
        """The closure `state` described (its arrays used as they are).

        Raises:
            ValueError: the parts do not fit together (a file that is not what `state` gave).
        """
        c = cls(())
        c.terms, c.targets = list(meta["terms"]), list(meta["targets"])
        c.relations = [(str(p), bool(pol)) for p, pol in meta["relations"]]
        c.term_index = {t: i for i, t in enumerate(c.terms)}
        c.relation_index = {k: i for i, k in enumerate(c.relations)}
        size, nt = len(arrays["s"]), len(c.terms)
        lengths = {len(arrays[n]) for n in ("s", "r", "o", "keys", "key_pos")}
        if lengths != {size} or {len(arrays["numbers"]), len(arrays["is_concept"]), len(c.targets)} != {nt}:
            raise ValueError("closure parts of different lengths")
        if len(c.term_index) != nt or len(c.relation_index) != len(c.relations):
            raise ValueError("duplicate terms or relations")
        c._frozen_terms, c.restored, c.rounds = True, True, int(meta["rounds"])
        c._nt, c._nr = max(nt, 1), max(len(c.relations), 1)
        c.numbers = arrays["numbers"].tolist()
        c._numbers, c._is_concept = arrays["numbers"], arrays["is_concept"].astype(bool)
        c._membership = {int(r) for r in meta["membership"]}
        c._s, c._r, c._o = (_Grow.of(arrays[n]) for n in ("s", "r", "o"))
        c._keys, c._key_pos = arrays["keys"], arrays["key_pos"]
        c._by_rel.update(_split(meta["rel_keys"], arrays["by_rel"], arrays["by_rel_len"], int))
        c._by_rel_obj.update(_split(meta["obj_keys"], arrays["by_obj"], arrays["by_obj_len"], tuple))
        return c

    # -- matching ---------------------------------------------------------------------------------

    def _sources(self, atom: Atom) -> list[tuple[_Grow, int, int, int]]:
        """(index array, relation, fixed object or -1, role) lists an atom draws tuples from."""
        pol = not atom.negated
        if atom.unary:
            c = self.term_index.get(atom.predicate)
            out = []
            for p in MEMBERSHIP:
                r = self.relation_index.get((p, pol))
                if r is not None and c is not None and (r, c) in self._by_rel_obj:
                    out.append((self._by_rel_obj[(r, c)], r, c, 0))
            return out
        r = self.relation_index.get((atom.predicate, pol))
        if r is None:
            return []
        obj = atom.args[1]
        if r in self._membership and isinstance(obj, Const):
            c = self._const_id(obj)
            if c < 0 or (r, c) not in self._by_rel_obj:
                return []
            return [(self._by_rel_obj[(r, c)], r, c, 0)]
        if r not in self._by_rel:
            return []
        return [(self._by_rel[r], r, -1, 0)]

    def _const_id(self, term: Const) -> int:
        key = literal_key(term.value) if term.literal else str(term.value)
        return self.term_index.get(key, -1)

    def _select(self, atom: Atom, lo: int, hi: int) -> tuple[Ints, dict[str, Ints]]:
        """Tuples in [lo, hi) matching the atom's relation and constants: (tuple ids, variable -> term ids)."""
        parts = []
        for index, _r, _c, _ in self._sources(atom):
            ids = index.view()
            a, b = np.searchsorted(ids, [lo, hi])
            if b > a:
                parts.append(ids[a:b])
        if not parts:
            return np.empty(0, dtype=np.int64), {v: np.empty(0, dtype=np.int64) for v in atom.variables()}
        tids = parts[0] if len(parts) == 1 else np.concatenate(parts)
        s = self._s.data[tids]
        cols = [(atom.args[0], s)] if atom.unary else [(atom.args[0], s), (atom.args[1], self._o.data[tids])]
        mask: npt.NDArray[np.bool_] | None = None
        out: dict[str, Ints] = {}
        for term, col in cols:
            if isinstance(term, Const):
                m = col == self._const_id(term)
                mask = m if mask is None else mask & m
            elif term.name in out:
                m = col == out[term.name]
                mask = m if mask is None else mask & m
            else:
                out[term.name] = col
        if mask is not None:
            tids = tids[mask]
            out = {v: c[mask] for v, c in out.items()}
        return tids, out

    def _extend(self, b: _Bindings, atom: Atom, lo: int, hi: int) -> _Bindings:
        tids, cols = self._select(atom, lo, hi)
        shared = [v for v in cols if v in b.columns]
        limit = self.max_rows
        if not shared:
            if limit is not None and b.rows * len(tids) > limit:
                raise TooManyRows(b.rows * len(tids), limit)
            li = np.repeat(np.arange(b.rows, dtype=np.int64), len(tids))
            ri = np.tile(np.arange(len(tids), dtype=np.int64), b.rows)
        else:
            lk = b.columns[shared[0]]
            rk = cols[shared[0]]
            if len(shared) == 2:
                lk = lk * self._nt + b.columns[shared[1]]
                rk = rk * self._nt + cols[shared[1]]
            li, ri = _join(lk, rk, limit)
        out = b.take(li)
        for v, c in cols.items():
            if v not in out.columns:
                out.columns[v] = c[ri]
        out.premises.append(tids[ri])
        return out

    def _exclude(self, b: _Bindings, atom: Atom) -> _Bindings:
        """Rows for which no tuple matches the naf atom (its unbound variables are existential)."""
        tids, cols = self._select(atom, 0, self.size)
        bound = [v for v in cols if v in b.columns]
        if not len(tids):
            return b
        if not bound:
            return b.take(np.empty(0, dtype=np.int64))
        lk = b.columns[bound[0]]
        rk = cols[bound[0]]
        if len(bound) == 2:
            lk = lk * self._nt + b.columns[bound[1]]
            rk = rk * self._nt + cols[bound[1]]
        return b.take(np.flatnonzero(~np.isin(lk, rk)))

    def _value(self, b: _Bindings, term: Var | Const) -> Ints:
        if isinstance(term, Var):
            return b.columns[term.name]
        return np.full(b.rows, self._const_id(term), dtype=np.int64)

    def _numeric(self, b: _Bindings, term: Var | Const, ids: Ints) -> npt.NDArray[np.float64]:
        """Numeric values of a comparison side (nan: not a number); a constant need not be a stored term."""
        if isinstance(term, Const):
            key = literal_key(term.value) if term.literal else ("c", "")
            number = key[1] if isinstance(key[1], float) and not isinstance(term.value, bool) else math.nan
            return np.full(b.rows, number, dtype=np.float64)
        return np.where(ids >= 0, self._numbers[np.maximum(ids, 0)], np.nan)

    def _compare(self, b: _Bindings, c: Comparison) -> _Bindings:
        left, right = self._value(b, c.left), self._value(b, c.right)
        ln, rn = self._numeric(b, c.left, left), self._numeric(b, c.right, right)
        both = ~np.isnan(ln) & ~np.isnan(rn)
        if c.op in (CompareOp.EQ, CompareOp.NE):
            equal = np.where(both, ln == rn, (left == right) & (left >= 0))
            keep = equal if c.op is CompareOp.EQ else ~equal
        else:
            with np.errstate(invalid="ignore"):
                fn = {CompareOp.LT: np.less, CompareOp.LE: np.less_equal, CompareOp.GT: np.greater}
                keep = both & fn.get(c.op, np.greater_equal)(ln, rn)
        return b.take(np.flatnonzero(keep))

    def _body(self, body: Sequence[Atom | Comparison], ranges: Sequence[tuple[int, int]], first: int = 0) -> _Bindings:
        """Join the positive atoms (atom k over tuple range ranges[k], starting with atom `first`), then filter."""
        positive = [lit for lit in body if isinstance(lit, Atom) and not lit.naf]
        b = self._positive(positive, ranges, join_order(positive, first))
        for lit in body:
            if not b.rows:
                break
            if isinstance(lit, Comparison):
                b = self._compare(b, lit)
            elif lit.naf:
                b = self._exclude(b, lit)
        return b

    def _positive(self, positive: Sequence[Atom], ranges: Sequence[tuple[int, int]], order: list[int]) -> _Bindings:
        """The matches of the positive atoms, joined in `order`, premises in body order.

        Rows come lexicographically ordered by each atom's position in its tuple list (`_sources` order, then tuple
        id), atoms taken in `order`: what the derived facts' weights (first firing wins) depend on, and what
        another evaluation of the joins (kgbrain/scale) reproduces.
        """
        b = _Bindings({}, [], 1)
        for k in order:
            b = self._extend(b, positive[k], *ranges[k])
            if not b.rows:
                return empty_bindings(positive)
        b.premises = [b.premises[order.index(k)] for k in range(len(positive))]
        return b

    # -- evaluation -------------------------------------------------------------------------------

    def run(self, program: Program | Sequence[Rule], strata: Sequence[Sequence[Rule]] | None = None) -> None:
        """Derive everything the strict rules of `program` derive (to a fixpoint, stratum by stratum).

        Raises:
            InputError: the program is not stratifiable.
            ValueError: a rule is defeasible or a defeater (the Cypher engine decides those).
        """
        rules = list(program.rules if isinstance(program, Program) else program)
        for rule in rules:
            if rule.kind is not RuleKind.STRICT:
                raise ValueError(f"rule {rule.id!r} is {rule.kind.value}: the in-memory executor runs strict rules")
        self._prepare(rules)
        for stratum in strata if strata is not None else stratify(rules):
            self._fixpoint(list(stratum))

    def _fixpoint(self, rules: list[Rule]) -> None:
        ids = []
        for rule in rules:
            ids.append(len(self._rules))
            self._rules.append(rule)
        d_lo, d_hi = 0, self.size
        first = True
        while first or d_hi > d_lo:
            heads: list[tuple[int, Ints, Ints, Ints, list[Ints]]] = []
            for rid, rule in zip(ids, rules, strict=True):
                positive = [lit for lit in rule.body if isinstance(lit, Atom) and not lit.naf]
                if not positive:
                    if first:
                        heads.append(self._head(rid, rule, self._body(list(rule.body), [])))
                    continue
                for i, atom in enumerate(positive):
                    if not any(self._has(index, d_lo, d_hi) for index, *_ in self._sources(atom)):
                        continue
                    ranges = [(0, d_lo)] * i + [(d_lo, d_hi)] + [(0, d_hi)] * (len(positive) - i - 1)
                    b = self._body(list(rule.body), ranges, first=i)
                    if b.rows:
                        heads.append(self._head(rid, rule, b))
            first = False
            self.rounds += 1
            self._commit(heads)
            d_lo, d_hi = d_hi, self.size

    def register(self, rules: Sequence[Rule]) -> list[int]:
        """Prepare the closure for these rules (of any kind) and give each its id in `fired`."""
        self._prepare(rules)
        ids = list(range(len(self._rules), len(self._rules) + len(rules)))
        self._rules.extend(rules)
        return ids

    def strict_fixpoint(self, rules: Sequence[Rule]) -> None:
        """Run strict rules (one stratum) to their fixpoint over every tuple, recording every firing."""
        self._prepare(rules)
        self._fixpoint(list(rules))

    def fire(self, rid: int) -> tuple[int, Ints, Ints, Ints, list[Ints]]:
        """Every firing of a registered rule over the current tuples, not committed: (rid, s, r, o, premises)."""
        rule = self._rules[rid]
        positive = [lit for lit in rule.body if isinstance(lit, Atom) and not lit.naf]
        return self._head(rid, rule, self._body(list(rule.body), [(0, self.size)] * len(positive)))

    def rule(self, rid: int) -> Rule:
        """The registered rule with this id."""
        return self._rules[rid]

    def commit(self, heads: list[tuple[int, Ints, Ints, Ints, list[Ints]]]) -> None:
        """Add firings (from `fire`) as tuples and recorded firings."""
        self._commit(heads)

    @property
    def fired(self) -> list[tuple[Rule, Ints, list[Ints]]]:
        """Every recorded firing group, in evaluation order: (rule, head tuple ids, premise tuple id columns)."""
        return [(self._rules[rid], hs, premises) for rid, hs, premises in self._fired]

    def tuple_key(self, tid: int) -> tuple[int, int, int]:
        """(subject term, relation, object term) of a tuple."""
        return int(self._s.data[tid]), int(self._r.data[tid]), int(self._o.data[tid])

    def find(self, subject: int, relation: int, obj: int) -> int:
        """The tuple id of a statement, or -1."""
        if relation >= self._nr:
            return -1
        key = np.asarray([(subject * self._nr + relation) * self._nt + obj], dtype=np.int64)
        return int(self._lookup(key)[0])

    @staticmethod
    def _has(index: _Grow, lo: int, hi: int) -> bool:
        ids = index.view()
        a, b = np.searchsorted(ids, [lo, hi])
        return bool(b > a)

    def _head(self, rid: int, rule: Rule, b: _Bindings) -> tuple[int, Ints, Ints, Ints, list[Ints]]:
        """The head tuples of the body's matches; a literal bound to the subject derives nothing."""
        head = rule.head
        s = self._value(b, head.args[0])
        if head.unary:
            r = np.full(b.rows, self.relation_index[("instance_of", not head.negated)], dtype=np.int64)
            o = np.full(b.rows, self.term_index[head.predicate], dtype=np.int64)
        else:
            o = self._value(b, head.args[1])
            r = np.full(b.rows, self.relation_index[(head.predicate, not head.negated)], dtype=np.int64)
        keep = self._is_concept[s]
        if not keep.all():
            idx = np.flatnonzero(keep)
            return rid, s[idx], r[idx], o[idx], [p[idx] for p in b.premises]
        return rid, s, r, o, b.premises

    def _commit(self, heads: list[tuple[int, Ints, Ints, Ints, list[Ints]]]) -> None:
        """Add the new distinct head tuples and record every firing."""
        if not heads:
            return
        s = np.concatenate([h[1] for h in heads])
        r = np.concatenate([h[2] for h in heads])
        o = np.concatenate([h[3] for h in heads])
        keys = (s * self._nr + r) * self._nt + o
        known = self._lookup(keys)
        fresh = known < 0
        if fresh.any():
            uniq, first = np.unique(keys[fresh], return_index=True)
            fi = np.flatnonzero(fresh)[first]
            self._append(s[fi], r[fi], o[fi], uniq)
            known = self._lookup(keys)
        at = 0
        for rid, hs, _, _, premises in heads:
            n = len(hs)
            self._fired.append((rid, known[at : at + n], premises))
            at += n

    # -- results ----------------------------------------------------------------------------------

    def statement(self, tid: int) -> tuple[str, str, str | None, bool, str | int | float | bool | None]:
        """(subject, predicate, object concept or None, polarity, literal value or None) of a tuple."""
        pred, pol = self.relations[int(self._r.data[tid])]
        subject = self.terms[int(self._s.data[tid])]
        obj = self.terms[int(self._o.data[tid])]
        assert isinstance(subject, str)
        if isinstance(obj, str):
            return subject, pred, obj, pol, None
        return subject, pred, None, pol, _value(obj[1])

    def fact_ids(self) -> list[str]:
        """The fact id naming each tuple: the smallest stored one, else the derived one (see module doc)."""
        self._whole()
        names = [""] * self.size
        for tid, fid in self.stored_ids.items():
            names[tid] = fid
        if not self._fired:
            return names
        order = sorted(range(len(self._rules)), key=lambda i: self._rules[i].id)
        rank = np.empty(max(len(self._rules), 1), dtype=np.int64)
        rank[order] = np.arange(len(order))
        best = np.full(self.size, len(order), dtype=np.int64)
        for rid, hs, _ in self._fired:
            np.minimum.at(best, hs, rank[rid])
        s, r, o = self._s.view(), self._r.view(), self._o.view()
        terms, relations, targets = self.terms, self.relations, self.targets
        for t in np.flatnonzero(best < len(order)).tolist():
            if not names[t]:
                pred, pol = relations[int(r[t])]
                rule = self._rules[order[int(best[t])]].id
                names[t] = derived_fact_id(rule, str(terms[int(s[t])]), pred, targets[int(o[t])], pol)
        return names

    def derivations(self) -> list[Derivation]:
        """Every firing, as rule id + head statement + premise fact ids (body order, positive atoms only)."""
        names = self.fact_ids()
        terms, relations = self.terms, self.relations
        s, r, o = self._s.view(), self._r.view(), self._o.view()
        out: list[Derivation] = []
        for rid, hs, premises in self._fired:
            rule = self._rules[rid].id
            cols = [[names[i] for i in p.tolist()] for p in premises]
            premise_rows = list(zip(*cols, strict=True)) if cols else [()] * len(hs)
            for t, prem in zip(hs.tolist(), premise_rows, strict=True):
                pred, pol = relations[int(r[t])]
                obj = terms[int(o[t])]
                subject = terms[int(s[t])]
                assert isinstance(subject, str)
                if isinstance(obj, str):
                    out.append(Derivation(rule, subject, pred, obj, pol, prem))
                else:
                    out.append(Derivation(rule, subject, pred, None, pol, prem, _value(obj[1])))
        return out

    def derived(self) -> list[int]:
        """Tuple ids of statements that rules derived and no stored fact states."""
        self._whole()
        return list(range(len(self.stored_ids), self.size))

    def _whole(self) -> None:
        if self.restored:
            raise ValueError("a closure read back from its file answers matches only: it holds no fact ids")

    def match_ids(self, body: Sequence[Atom | Comparison], *, max_rows: int | None = None) -> dict[str, Ints]:
        """Every binding of the body's variables over stored and derived facts, as term-id columns.

        The number of rows is `last_match_rows` (it matters when the body binds no variable).

        Raises:
            TooManyRows: a join on the way would hold more than `max_rows` rows.
        """
        self._prepare([])
        positive = [lit for lit in body if isinstance(lit, Atom) and not lit.naf]
        first = 0
        if len(positive) > 1:  # start from the most selective atom
            first = min(range(len(positive)), key=lambda k: len(self._select(positive[k], 0, self.size)[0]))
        self.max_rows = max_rows
        try:
            b = self._body(list(body), [(0, self.size)] * len(positive), first=first)
        finally:
            self.max_rows = None
        self.last_match_rows = b.rows
        return b.columns

    def match(self, body: Sequence[Atom | Comparison]) -> dict[str, list[str | int | float | bool]]:
        """Every binding of the body's variables over stored and derived facts (a rule-body query)."""
        return {v: [self.term_value(t) for t in col.tolist()] for v, col in self.match_ids(body).items()}

    def term_value(self, t: int) -> str | int | float | bool:
        """A concept id, or a literal's value (integral numbers as int)."""
        key = self.terms[t]
        if isinstance(key, str):
            return key
        value = key[1]
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value


def _concat(parts: list[Ints]) -> Ints:
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)


def _split(keys: Sequence[Any], flat: Ints, lengths: Ints, key: Callable[[Any], Any]) -> Iterator[tuple[Any, _Grow]]:
    """Index arrays cut out of their concatenation, by key (the parts of `Closure.state`)."""
    if len(keys) != len(lengths) or int(lengths.sum()) != len(flat) or (lengths < 0).any():
        raise ValueError("closure index lengths do not add up")
    at = 0
    for k, n in zip(keys, lengths.tolist(), strict=True):
        yield key(k), _Grow.of(flat[at : at + n])
        at += n


def _value(value: str | float) -> str | int | float:
    """A literal key's value as given: integral numbers as int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def read_facts(graph: FactGraph, store: GraphStore) -> Iterator[FactRow]:
    """Every active fact: concept-to-concept ones from the reasoner's mirror, literal ones from the store.

    Raises:
        StoreError: the store failed.
    """
    names, preds = graph.names, graph.pred_names
    ids = graph.fact_id.tolist()
    for s, p, o, pol, fid in zip(
        graph.subject.tolist(),
        graph.predicate.tolist(),
        graph.object.tolist(),
        graph.polarity.tolist(),
        ids,
        strict=True,
    ):
        yield FactRow(fid.decode("utf-8"), names[s], preds[p], names[o], pol)
    for row in store.iterate("rules_value_facts", status="active"):
        yield FactRow.from_row(row)


def evaluate(program: Program, facts: Iterable[FactRow | Fact | Mapping[str, Any]]) -> list[Derivation]:
    """Every derivation the strict rules of `program` make from the active `facts`, to a fixpoint.

    This is `kgbrain.reasoning.rules.cypher_engine.Executor`: the fast path for strict programs.
    """
    closure = Closure(facts)
    closure.run(program)
    return closure.derivations()
