"""LoadBatch: everything one input file contributes, validated, before it touches the store.

Facts are kept column-wise (`FactColumns`): a million-row file stays a handful of Python lists that
become Arrow arrays for COPY, instead of a million objects. It still behaves like a list of Facts for
readers that append one at a time and for load hooks that iterate.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import timezone
from typing import TYPE_CHECKING, Any, overload

from kgbrain.errors import InputError
from kgbrain.ingest.cells import field_too_long
from kgbrain.knowledge import Annotation, Authority, Declaration, Fact, Literal, Status
from kgbrain.ruleset import Rule, Superiority

if TYPE_CHECKING:  # pyarrow is imported where Arrow columns are used: verify reads claims without it
    import pyarrow as pa

COLUMNS: tuple[str, ...] = (
    "subject",
    "predicate",
    "object",
    "lexical",
    "datatype",
    "unit",
    "value_lang",
    "polarity",
    "confidence",
    "source",
    "trust",
    "authority",
    "observed_at",
    "loaded_at",
    "status",
    "lang",
    "fact_id",
    "valid_from",
    "valid_to",
)
_OPTIONAL = ("valid_from", "valid_to")
TIME_COLUMNS = frozenset({"observed_at", "loaded_at", "valid_from", "valid_to"})


def arrow_type(name: str) -> pa.DataType:
    """The Arrow type of a fact column (timestamps are UTC instants)."""
    import pyarrow as pa

    if name in TIME_COLUMNS:
        return pa.timestamp("us", tz="UTC")
    return {"polarity": pa.bool_(), "confidence": pa.float64(), "trust": pa.float64()}.get(name, pa.string())


class FactColumns(Sequence[Fact]):
    """Facts stored as parallel columns; `object` is None for literal facts (then lexical/datatype are set).

    A column is a Python list (readers that append row by row) or an Arrow array (the bulk path: a million
    facts stay ~150 bytes each instead of ~500 as Python objects); `column` gives a list and `arrow` an array,
    converting on first use. `authority` and `status` hold enum values as strings; `fact_id` may hold "" until
    computed.
    """

    __slots__ = COLUMNS

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        for name in COLUMNS:
            setattr(self, name, [])
        self.extend(facts)

    def __len__(self) -> int:
        return len(self.subject)  # type: ignore[attr-defined]

    @staticmethod
    def _row(f: Fact) -> tuple[Any, ...]:
        v = f.value
        return (
            f.subject, f.predicate, f.object,
            v.lexical if v else None, v.datatype if v else None, v.unit if v else None, v.lang if v else None,
            f.polarity, f.confidence, f.source, f.trust,
            f.authority.value if f.authority else None, f.observed_at, f.loaded_at, f.status.value, f.lang, f.fact_id,
            f.valid_from, f.valid_to,
        )  # fmt: skip

    def append(self, f: Fact) -> None:
        """Add one Fact."""
        for name, value in zip(COLUMNS, self._row(f), strict=True):
            self.column(name).append(value)

    def extend(self, facts: Iterable[Fact]) -> None:
        """Add Facts (row tuples transposed once: a rules run adds 100k+ derived facts at a time)."""
        rows = [self._row(f) for f in facts]
        if rows:
            for name, column in zip(COLUMNS, zip(*rows, strict=True), strict=True):
                self.column(name).extend(column)

    def column(self, name: str) -> list[Any]:
        """One column as a list (shared, not copied)."""
        values = getattr(self, name)
        if isinstance(values, list):
            return values
        values = _to_list(name, values)
        setattr(self, name, values)
        return values

    def arrow(self, name: str) -> pa.Array:
        """One column as an Arrow array (shared, not copied; a list column is converted once)."""
        import pyarrow as pa

        values = getattr(self, name)
        if isinstance(values, pa.ChunkedArray):
            values = values.combine_chunks()
        elif isinstance(values, list):
            values = pa.array(values, arrow_type(name))
        else:
            return values
        setattr(self, name, values)
        return values

    def distinct(self, name: str) -> set[Any]:
        """The distinct values of a column (None included when some row has none)."""
        values = getattr(self, name)
        if isinstance(values, list):
            return set(values)
        return set(values.unique().to_pylist())

    def concepts(self) -> set[str]:
        """Every subject and concept object."""
        return (self.distinct("subject") | self.distinct("object")) - {None}

    def fact(self, i: int) -> Fact:
        """The i-th fact as a Fact object."""
        return _make_fact(*(self.column(name)[i] for name in COLUMNS))

    @overload
    def __getitem__(self, i: int) -> Fact: ...

    @overload
    def __getitem__(self, i: slice) -> FactColumns: ...

    def __getitem__(self, i: int | slice) -> Fact | FactColumns:
        if isinstance(i, slice):
            return self.take(list(range(len(self)))[i])
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self.fact(i if i >= 0 else len(self) + i)

    def __iter__(self) -> Iterator[Fact]:
        return (_make_fact(*row) for row in zip(*(self.column(name) for name in COLUMNS), strict=True))

    def take(self, indices: list[int] | pa.Array) -> FactColumns:
        """A new FactColumns with the rows at `indices`, in that order (Arrow columns stay Arrow)."""
        out = FactColumns.of({name: getattr(self, name) for name in COLUMNS})
        out.keep(indices)
        return out

    def keep(self, indices: list[int] | pa.Array) -> None:
        """Keep only the rows at `indices` (in that order), replacing one column at a time."""
        import pyarrow as pa

        positions = indices if isinstance(indices, pa.Array) else pa.array(indices, pa.int64())
        rows = indices if isinstance(indices, list) else None
        for name in COLUMNS:
            column = getattr(self, name)
            if isinstance(column, list):
                rows = positions.to_pylist() if rows is None else rows
                setattr(self, name, [column[i] for i in rows])
            else:
                setattr(self, name, column.take(positions))
            del column

    @staticmethod
    def of(columns: dict[str, Any]) -> FactColumns:
        """Adopt ready-made columns (every name of COLUMNS, lists or Arrow arrays of equal lengths)."""
        out = FactColumns()
        if any(name not in columns for name in _OPTIONAL):  # readers with no intervals leave them out
            n = len(columns["subject"])
            columns = {**{name: [None] * n for name in _OPTIONAL}, **columns}
        lengths = {len(columns[name]) for name in COLUMNS}
        if len(lengths) > 1:
            raise ValueError(f"columns of unequal length: {sorted(lengths)}")
        for name in COLUMNS:
            setattr(out, name, columns[name])
        return out


def release_arrow_memory() -> None:
    """Give the memory Arrow's pool keeps after a big step back to the system (mimalloc holds on to it otherwise,
    and a load's peak is the sum of such steps)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _to_list(name: str, values: pa.Array | pa.ChunkedArray) -> list[Any]:
    import pyarrow as pa
    import pyarrow.compute as pc

    if name in TIME_COLUMNS:
        # Python datetimes in timezone.utc, as the row-by-row reader makes them (Arrow would give ZoneInfo("UTC")).
        naive = values.cast(pa.timestamp("us")).to_pylist()
        return [None if t is None else t.replace(tzinfo=timezone.utc) for t in naive]
    if name == "fact_id":
        return [x or "" for x in values.to_pylist()]
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    # One Python object per distinct value: names and sources repeat a lot (a million separate copies of
    # "is_a" alone would cost ~50 MB).
    encoded = pc.dictionary_encode(values)
    chunks = encoded.chunks if isinstance(encoded, pa.ChunkedArray) else [encoded]
    out: list[Any] = []
    for chunk in chunks:
        distinct = chunk.dictionary.to_pylist()
        out.extend(None if i is None else distinct[i] for i in chunk.indices.to_pylist())
    return out


_AUTHORITIES = {a.value: a for a in Authority}
_STATUSES = {s.value: s for s in Status if s is not Status.OUT_OF_TIME}


def _make_fact(
    subject: str,
    predicate: str,
    obj: str | None,
    lexical: str | None,
    datatype: str | None,
    unit: str | None,
    value_lang: str | None,
    polarity: bool,
    confidence: float,
    source: str,
    trust: float,
    authority: str | None,
    observed_at: Any,
    loaded_at: Any,
    status: str,
    lang: str | None,
    fact_id: str,
    valid_from: Any = None,
    valid_to: Any = None,
) -> Fact:
    value = None if lexical is None else Literal(lexical, datatype or "string", unit, value_lang)
    return Fact(
        subject,
        predicate,
        obj,
        value,
        polarity,
        confidence,
        source,
        trust,
        _AUTHORITIES[authority] if authority else None,
        observed_at,
        loaded_at,
        _STATUSES[status],
        lang,
        fact_id,
        valid_from,
        valid_to,
    )


def _as_columns(facts: FactColumns | Iterable[Fact]) -> FactColumns:
    return facts if isinstance(facts, FactColumns) else FactColumns(facts)


@dataclass(slots=True)
class LoadBatch:
    """The parsed content of one file; loaded all-or-nothing."""

    file: str
    facts: FactColumns = field(default_factory=FactColumns)
    annotations: list[Annotation] = field(default_factory=list)
    declarations: list[Declaration] = field(default_factory=list)
    source_trust: dict[str, float] = field(default_factory=dict)
    source_authority: dict[str, str] = field(default_factory=dict)
    # Explicit `source_trust` rows: they set the stored trust even when the source is known already.
    trust_overrides: dict[str, float] = field(default_factory=dict)
    # Exported truth-maintenance records to restore, by kind ("conflict_record", "retraction_record").
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rows_read: int = 0
    # What a format reader saw but could not map (e.g. OWL class expressions), by kind.
    skipped: dict[str, int] = field(default_factory=dict)
    # Extra counters a reader wants in the load report (e.g. triples read).
    extra: dict[str, int] = field(default_factory=dict)
    # Rules the file states: OWL 2 RL axioms of an ontology (ingest/owl_rules.py)
    rules: list[Rule] = field(default_factory=list)
    # Superiority between rules (an export's rule_order_record rows)
    superiority: list[Superiority] = field(default_factory=list)
    # How many of those rules each OWL 2 RL table gave (cax-sco, prp-dom, cls-int1, ...)
    owl2rl: dict[str, int] = field(default_factory=dict)
    # Predicate IRIs this file names for the first time -> their predicate names (identity by IRI: the loader
    # records them, and every later file and SPARQL query resolves that IRI to the same name).
    predicate_iris: dict[str, str] = field(default_factory=dict)
    # IRIs this file merged into another term's concept (owl:sameAs) -> that concept's id: a later file's
    # statements about such an IRI go to the same concept (the loader records them, like predicate_iris).
    same_iris: dict[str, str] = field(default_factory=dict)
    # Sources and whether they assume unique names (two names, two things). A source not listed keeps what is
    # recorded, and assumes them when nothing is (a facts file's ids are kgbrain's own); an RDF file lists its
    # source as False, as OWL does (no unique-name assumption: prp-fp makes two values owl:sameAs).
    source_unique_names: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Readers may hand over a plain list of Facts.
        self.facts = _as_columns(self.facts)

    @property
    def empty(self) -> bool:
        """Nothing here would change a knowledge base (an empty file, a header alone, an empty ontology).

        Rules count: an ontology of property axioms alone (`r owl:propertyChainAxiom (p q)`) states no fact.
        """
        stated = bool(self.annotations or self.declarations or self.trust_overrides or self.records)
        stated = stated or bool(self.rules or self.superiority)
        return not (len(self.facts) or stated)


_TEXT_COLUMNS = ("subject", "object", "lexical", "datatype", "unit", "value_lang", "source", "lang")


def check_text(batch: LoadBatch) -> None:
    """Refuse text that is not valid Unicode (a lone surrogate from a `\\uD800` escape: Kùzu cannot take it), a NUL, and
    any text too long.

    One join per column keeps this cheap on a million facts; the slow search runs only on a failure.

    Raises:
        InputError: some text of the batch holds a lone surrogate or a NUL, or is too long.
    """
    # Arrow columns need no check: Arrow's readers refuse invalid UTF-8 (and JSON's lone surrogate escapes).
    columns: dict[str, list[Any]] = {
        name: values for name in _TEXT_COLUMNS if isinstance(values := getattr(batch.facts, name), list)
    }
    columns["name"] = [a.concept for a in batch.annotations] + [a.text for a in batch.annotations]
    columns["declaration"] = [d.predicate for d in batch.declarations] + [d.value for d in batch.declarations]
    columns["source"] = columns.get("source", []) + list(batch.source_trust)
    for name in _TEXT_COLUMNS:
        arrow = getattr(batch.facts, name)
        if not isinstance(arrow, list) and arrow is not None and (where := _nul_at(arrow)) is not None:
            raise InputError(f"{batch.file}: fact {where}: field {name!r}: contains a NUL character")
    for name, values in columns.items():
        _check_lengths(batch.file, name, values)
        joined = "\x1f".join(v for v in values if isinstance(v, str))
        if "\x00" in joined:  # (the service refuses a NUL at its boundary; a file must not bring one in either)
            where = next(n for n, v in enumerate(values, start=1) if isinstance(v, str) and "\x00" in v)
            raise InputError(f"{batch.file}: fact {where}: field {name!r}: contains a NUL character")
        try:
            joined.encode("utf-8")
        except UnicodeEncodeError:
            bad = next(v for v in values if v is not None and _bad_unicode(v))
            raise InputError(
                f"{batch.file}: field {name!r}: text with a lone surrogate ({bad.encode('utf-8', 'replace')[:60]!r})"
            ) from None


def _nul_at(values: pa.Array | pa.ChunkedArray) -> int | None:
    """The 1-based position of the first text holding a NUL in an Arrow column, if any."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_string(values.type) and not pa.types.is_large_string(values.type):
        return None
    found = pc.match_substring(values, "\x00")
    if not pc.any(found).as_py():
        return None
    return int(pc.index(found, True).as_py()) + 1


def _check_lengths(file: str, name: str, values: list[Any]) -> None:
    """Refuse an identifier or value longer than a row may hold (the row readers name the line; this catches
    what an ontology or a column-wise read brings)."""
    longest = max((v for v in values if isinstance(v, str)), key=len, default="")
    field = "value" if name in ("lexical", "name") else name
    if problem := field_too_long(field, longest):
        where = next(n for n, v in enumerate(values, start=1) if v is longest)
        raise InputError(f"{file.rsplit('/', 1)[-1]}: fact {where}: field {field!r}: {problem}")


def _bad_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
