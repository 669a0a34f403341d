"""Rule materialisation on Spark: the stored strict, stratified program, its joins evaluated by Spark.

The executor's semi-naive loop (reasoning/rules/executor.py `Closure._fixpoint`) runs unchanged on the driver:
which rule fires over which delta range, the commit that numbers new tuples, the comparisons and `not` (an
anti-join against the tuples of the finished lower strata and of this one), and everything after the fixpoint
(derived facts with their weights, derivation records, the one-transaction write of memory_engine.py).
`SparkClosure` replaces one step, the join of a rule body's positive atoms: each (rule, delta position) of a
round is one DataFrame plan over the tuple table, generic over the compiled atoms (relation and constant
filters per atom, equi-joins on shared variables, a cross join when none is shared). Its rows come back in the
executor's order (each atom's position in its tuple list, atoms in join order), so the first firing of every
derived fact is the executor's and the derived facts and derivation records are the same.

The tuple table lives in Spark as one checkpoint-free leaf per round's new tuples (they are built from arrays
on the driver, so no plan grows with the rounds). What stays on the driver: the term dictionary and the closure's
tuples, as for the embedded executor; so this scales the joins, not the size of the closure.

Refused: defeasible rules and defeaters (their rounds need the whole attack relation; run them embedded).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from kgbrain.errors import NotOnEngine
from kgbrain.reasoning.rules.derivations import RunReport
from kgbrain.reasoning.rules.executor import Closure, FactRow, _Bindings, empty_bindings
from kgbrain.reasoning.rules.memory_engine import Consequences, evaluate_stored, materialise_memory
from kgbrain.reasoning.rules.rulebase import stored_program
from kgbrain.ruleset import Atom, Const, Program, RuleKind, Var
from kgbrain.scale.session import SparkSpec, spark_session
from kgbrain.store.protocol import GraphStore


class SparkClosure(Closure):
    """A `Closure` whose positive body joins run on Spark (see the module docstring)."""

    def __init__(self, spark: Any, facts: list[FactRow]) -> None:
        """Encode `facts` as the executor does; joins go to the `spark` session."""
        super().__init__(facts)
        self.spark = spark
        self._parts: list[Any] = []  # one DataFrame per batch of tuples shipped
        self._shipped = 0

    def _tuples(self) -> Any:
        """The tuple table (tid, s, r, o) in Spark, brought up to date with the driver's tuples."""
        import pyarrow as pa

        size = self.size
        if size > self._shipped:
            lo = self._shipped
            table = pa.table(
                {
                    "tid": np.arange(lo, size, dtype=np.int64),
                    "s": self._s.data[lo:size],
                    "r": self._r.data[lo:size],
                    "o": self._o.data[lo:size],
                }
            )
            self._parts.append(self.spark.createDataFrame(table))
            self._shipped = size
        from pyspark.sql import DataFrame

        return functools.reduce(DataFrame.unionByName, self._parts)

    def _atom_frame(self, tuples: Any, atom: Atom, k: int, lo: int, hi: int) -> Any:
        """The tuples in [lo, hi) an atom matches: `_select`'s filters as a plan; columns src, tid, variables."""
        from pyspark.sql import functions as F

        found = None
        for j, (_, r, c, _) in enumerate(self._sources(atom)):
            cond = (F.col("r") == r) & (F.col("tid") >= lo) & (F.col("tid") < hi)
            if c >= 0:
                cond &= F.col("o") == c
            part = tuples.filter(cond).withColumn(f"_src{k}", F.lit(j))
            found = part if found is None else found.unionByName(part)
        if found is None:
            return None
        terms: list[tuple[Var | Const, str]] = [(atom.args[0], "s")]
        if not atom.unary:
            terms.append((atom.args[1], "o"))
        named: dict[str, str] = {}
        for term, col in terms:
            if isinstance(term, Const):
                found = found.filter(F.col(col) == self._const_id(term))
            elif term.name in named:
                found = found.filter(F.col(col) == F.col(named[term.name]))
            else:
                named[term.name] = col
        out = [F.col(f"_src{k}"), F.col("tid").alias(f"_tid{k}")]
        return found.select(*out, *(F.col(col).alias(_var(v)) for v, col in named.items()))

    def _positive(self, positive: Sequence[Atom], ranges: Sequence[tuple[int, int]], order: list[int]) -> _Bindings:
        if not positive:
            return super()._positive(positive, ranges, order)
        tuples = self._tuples()
        joined = None
        bound: set[str] = set()
        for k in order:
            frame = self._atom_frame(tuples, positive[k], k, *ranges[k])
            if frame is None:
                return empty_bindings(positive)
            names = {_var(v) for v in positive[k].variables()}
            if joined is None:
                joined = frame
            elif names & bound:
                joined = joined.join(frame, sorted(names & bound), "inner")
            else:
                joined = joined.crossJoin(frame)
            bound |= names
        assert joined is not None
        rows = joined.toArrow()
        if rows.num_rows == 0:
            return empty_bindings(positive)
        cols = {name: rows.column(name).to_numpy().astype(np.int64) for name in rows.column_names}
        # The executor's row order: lexicographic by (source, tuple id) of each atom in join order.
        keys = [cols[f"{p}{k}"] for k in order for p in ("_src", "_tid")]
        at = np.lexsort(keys[::-1])
        variables = {v for lit in positive for v in lit.variables()}
        return _Bindings(
            {v: cols[_var(v)][at] for v in variables},
            [cols[f"_tid{k}"][at] for k in range(len(positive))],
            len(at),
        )


def _var(name: str) -> str:
    return f"v_{name}"


def refuse_defeasible(program: Program) -> None:
    """Raise unless every rule is strict.

    Raises:
        NotOnEngine: a defeasible rule or defeater.
    """
    for rule in program.rules:
        if rule.kind is not RuleKind.STRICT:
            raise NotOnEngine(
                f"rule {rule.id!r} is {rule.kind.value}: Spark runs strict, stratified rules only; "
                "materialise defeasible rules and defeaters with the embedded engine (--engine embedded)"
            )


def evaluate_on_spark(store: GraphStore, program: Program, spec: SparkSpec) -> Consequences:
    """The program's consequences over the stored active facts, joins on Spark; nothing written.

    Raises:
        NotOnEngine: a rule is not strict.
        InputError: the program cannot be stratified, or pyspark is missing.
        EngineError: Spark failed.
        StoreError: the store failed.
    """
    refuse_defeasible(program)
    with spark_session(spec) as spark:
        return evaluate_stored(store, program, functools.partial(SparkClosure, spark))[1]


def materialise_on_spark(store: GraphStore, spec: SparkSpec) -> RunReport:
    """Run the stored program to its fixpoint with the joins on Spark, and store what is new (one transaction).

    Raises:
        NotOnEngine: a stored rule is not strict.
        InputError: the program cannot be stratified, or pyspark is missing.
        EngineError: Spark failed.
        StoreError: the store failed.
    """
    program = stored_program(store)
    refuse_defeasible(program)
    with spark_session(spec) as spark:
        return materialise_memory(store, program, functools.partial(SparkClosure, spark))
