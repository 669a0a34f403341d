"""Write a LoadBatch into the store in one transaction: resolve names, de-duplicate, bulk COPY.

Names in a file may be concept ids or labels ("нейрон" and "neuron" can name one concept), so they are
resolved first: a known id wins, then a label or alias (from the store or from this file), and only then
is a new concept created. Facts get their deterministic ids after resolution, so loading a file twice,
or the same statement under another name, adds nothing. Everything is de-duplicated before COPY:
Kùzu's COPY fails on a duplicate primary key, and such a failure can damage the session's index.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgbrain.ingest.batch import FactColumns, LoadBatch
from kgbrain.knowledge import (
    CORE_INHERITABLE,
    PREDICATE_LINKS,
    Annotation,
    Declaration,
    Literal,
    fact_id_of_joined,
    literal_id,
    normalize_term,
)
from kgbrain.language import detect_language
from kgbrain.store.protocol import GraphStore
from kgbrain.store.schema import ATTR_TABLE, CONCEPT_COLUMNS, CORE_TABLES, FACT_COLUMNS, GENERIC_TABLE

CHUNK = 50_000
T = TypeVar("T")
Phase = Callable[[str], None]


@dataclass(slots=True)
class LoadReport:
    """What one file added to the knowledge base."""

    file: str
    rows_read: int = 0
    facts_added: int = 0
    duplicates_skipped: int = 0
    concepts_created: int = 0
    names_added: int = 0
    predicates_declared: int = 0
    sources: int = 0
    per_predicate: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    extra: dict[str, int] = field(default_factory=dict)
    # OWL 2 RL rules an ontology gave, per table (cax-sco, prp-dom, cls-int1, ...)
    owl2rl: dict[str, int] = field(default_factory=dict)
    # The facts this load stored (not in --json): hooks such as contradiction detection and the
    # analogy index iterate over them (as Fact objects) or read their columns.
    added: FactColumns = field(default_factory=FactColumns, repr=False)
    # The `loaded_at` stamp of the facts this load stored (rules take facts from it on as their delta).
    loaded_at: datetime | None = field(default=None, repr=False)
    # True when the store held no fact before this load: hooks may then compare the new facts only
    # among themselves instead of querying the store.
    first_facts: bool = field(default=False, repr=False)
    # Concepts that got labels, aliases or descriptions (not in --json): caches of names refresh just these.
    annotated: set[str] = field(default_factory=set, repr=False)

    @property
    def nothing(self) -> bool:
        """The file held nothing to load (an empty file, a header alone): not an error."""
        return not (self.rows_read or self.facts_added or self.concepts_created or self.names_added) and not (
            self.predicates_declared or self.skipped or any(self.extra.values())
        )


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    """Slices of at most `size` items."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def load_batch(store: GraphStore, batch: LoadBatch, *, now: datetime | None = None) -> LoadReport:
    """Add a parsed file to the store, all or nothing.

    Raises:
        StoreError: the store failed; the transaction was rolled back and nothing was added.
    """
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(tzinfo=None)
    report = LoadReport(
        file=batch.file,
        rows_read=batch.rows_read,
        skipped=dict(batch.skipped),
        extra=dict(batch.extra),
        owl2rl=dict(batch.owl2rl),
        loaded_at=now,
    )
    with store.transaction():
        resolver = _Resolver(store, batch)
        facts = resolver.resolve_facts(batch.facts)
        report.concepts_created = _write_concepts(store, resolver, batch.annotations)
        report.names_added = _write_names(store, resolver, batch.annotations)
        report.sources = _write_sources(store, batch)
        report.predicates_declared = _write_predicates(
            store, set(facts.column("predicate")), batch.declarations, batch.file
        )
        report.first_facts = not store.run("facts_any")
        added = _write_facts(store, facts, now, check_stored=not report.first_facts)
        _restore_records(store, batch.records)
        report.added = added
        report.facts_added = len(added)
        report.duplicates_skipped = len(batch.facts) - len(added)
        report.per_predicate = dict(sorted(Counter(added.column("predicate")).items()))
    return report


class _Resolver:
    """Maps the names used in a batch to concept ids, creating concepts only when nothing matches."""

    def __init__(self, store: GraphStore, batch: LoadBatch) -> None:
        self.store = store
        facts = batch.facts
        names: set[str] = {a.concept for a in batch.annotations}
        names.update(facts.column("subject"))
        names.update(facts.column("object"))
        names.discard(None)  # literal facts have no object
        self.existing: dict[str, str] = {}
        # Into a knowledge base without concepts (a first load) no name can be known: no lookups at all.
        self.empty = not store.run("concepts_any")
        self._add_existing(names)
        self.annotated = {a.concept for a in batch.annotations}
        self.norm: dict[str, str] = {}  # name -> normalize_term(name), computed once
        self.individuals = {
            s for s, p in zip(facts.column("subject"), facts.column("predicate"), strict=True) if p == "instance_of"
        }
        self.individuals |= {a.concept for a in batch.annotations if a.kind == "kind" and a.text == "individual"}
        self.mapping = self._resolve(names - self.existing.keys() - self.annotated, batch.annotations)
        self._add_existing(set(self.mapping.values()) - self.existing.keys())
        self.individuals = {self.id_of(n) for n in self.individuals}
        self.new_ids = sorted({self.mapping.get(n, n) for n in names} - self.existing.keys())

    def _add_existing(self, ids: set[str]) -> None:
        if self.empty:
            return
        for part in chunks(sorted(ids)):
            self.existing.update((r["id"], r["kind"]) for r in self.store.run("concepts_existing", ids=list(part)))

    def _resolve(self, unknown: set[str], annotations: Iterable[Annotation]) -> dict[str, str]:
        if not unknown:  # every name is a known id or annotated in this file (ontologies): nothing to look up
            return {}
        by_key: dict[str, set[str]] = defaultdict(set)
        for a in annotations:
            if a.kind in ("label", "alias"):
                by_key[normalize_term(a.text)].add(a.concept)
        self.norm.update((n, normalize_term(n)) for n in unknown)
        if not self.empty:
            for part in chunks(sorted({self.norm[n] for n in unknown})):
                for row in self.store.run("terms_lookup", keys=list(part)):
                    by_key[row["key"]].add(row["concept"])
        mapping: dict[str, str] = {}
        if not by_key:
            return mapping
        for name in unknown:
            found = by_key.get(self.norm[name])
            if found:
                mapping[name] = min(found)  # homonyms: a stable choice; aliases should be disambiguated upstream
        return mapping

    def id_of(self, name: str) -> str:
        return self.mapping.get(name, name)

    def resolve_facts(self, facts: FactColumns) -> FactColumns:
        """Rename subjects and objects to concept ids; fact ids are computed afterwards."""
        if self.mapping:
            get = self.mapping.get
            facts.subject = [get(x, x) for x in facts.column("subject")]  # type: ignore[attr-defined]
            facts.object = [x if x is None else get(x, x) for x in facts.column("object")]  # type: ignore[attr-defined]
            facts.fact_id = [""] * len(facts)  # type: ignore[attr-defined]
        return facts


def _write_concepts(store: GraphStore, resolver: _Resolver, annotations: list[Annotation]) -> int:
    info: dict[str, dict[str, Any]] = defaultdict(dict)
    for a in annotations:
        column = _annotation_column(a)
        if column is not None:
            info[resolver.id_of(a.concept)].setdefault(column, a.text)
    new = set(resolver.new_ids)
    ids = resolver.new_ids
    columns: dict[str, list[Any]] = {
        "id": ids,
        "kind": ["individual" if cid in resolver.individuals else "class" for cid in ids],
    }
    for c in CONCEPT_COLUMNS[2:]:
        columns[c] = [info[cid].get(c) if cid in info else None for cid in ids] if info else [None] * len(ids)
    store.copy("Concept", pa.table({c: pa.array(columns[c], pa.string()) for c in CONCEPT_COLUMNS}))
    updates = [
        {
            "id": cid,
            "kind": "individual" if cid in resolver.individuals else None,
            **{c: None for c in CONCEPT_COLUMNS[2:]},
            **cols,
        }
        for cid, cols in info.items()
        if cid not in new
    ]
    updates += [
        {"id": cid, "kind": "individual", **{c: None for c in CONCEPT_COLUMNS[2:]}}
        for cid in resolver.individuals - new - info.keys()
        if resolver.existing.get(cid) != "individual"
    ]
    for part in chunks(updates):
        store.run("concept_update_annotations", rows=list(part))
    return len(ids)


def _annotation_column(a: Annotation) -> str | None:
    if a.kind == "label" and a.lang in ("en", "ru"):
        return f"label_{a.lang}"
    if a.kind == "label" and not a.lang:
        # An untagged label (GO's "apoptotic process", LUBM's "graduate student") is shown in the language of
        # its script rather than not at all.
        return f"label_{detect_language(a.text)}"
    if a.kind == "description":
        return f"description_{a.lang}" if a.lang in ("en", "ru") else "description"
    return None


def _write_names(store: GraphStore, resolver: _Resolver, annotations: list[Annotation]) -> int:
    wanted: dict[tuple[str, str, str, str, str], None] = {}
    for a in annotations:
        if a.kind in ("label", "alias"):
            wanted[(normalize_term(a.text), resolver.id_of(a.concept), a.text, a.lang or "", a.kind)] = None
    norm = resolver.norm
    for cid in resolver.new_ids:
        wanted[(norm.get(cid) or normalize_term(cid), cid, cid, "", "id")] = None
    keys = sorted({w[0] for w in wanted})
    have: set[tuple[str, str, str, str, str]] = set()
    existing_keys: set[str] = set()
    for part in chunks(keys if store.run("terms_any") else []):
        existing_keys.update(r["key"] for r in store.run("terms_existing", keys=list(part)))
    # only keys already in the store can have names already (a fresh ontology load skips this query)
    for part in chunks(sorted(existing_keys)):
        for r in store.run("terms_lookup", keys=list(part)):
            have.add((r["key"], r["concept"], r["text"], r["lang"] or "", r["kind"]))
    new_names = [w for w in wanted if w not in have]
    store.copy("Term", pa.table({"key": pa.array(sorted(set(keys) - existing_keys), pa.string())}))
    store.append_rels(
        "NAMES",
        pa.table(
            {
                "from": pa.array([w[0] for w in new_names], pa.string()),
                "to": pa.array([w[1] for w in new_names], pa.string()),
                "text": pa.array([w[2] for w in new_names], pa.string()),
                "lang": pa.array([w[3] or None for w in new_names], pa.string()),
                "kind": pa.array([w[4] for w in new_names], pa.string()),
            }
        ),
    )
    return sum(1 for w in new_names if w[4] != "id")


def _write_sources(store: GraphStore, batch: LoadBatch) -> int:
    rows = [
        {"name": name, "trust": trust, "authority": batch.source_authority.get(name)}
        for name, trust in sorted(batch.source_trust.items())
    ]
    for part in chunks(rows):
        store.run("source_add", rows=list(part))
    for name, trust in sorted(batch.trust_overrides.items()):
        store.run("source_set_trust", name=name, trust=trust)
    return len(rows)


def _write_predicates(store: GraphStore, predicates: set[str], declarations: list[Declaration], file: str) -> int:
    names = predicates | {d.predicate for d in declarations}
    names |= {d.value for d in declarations if d.kind in PREDICATE_LINKS}
    if not names:  # Kùzu cannot type an empty list parameter: a file of labels only declares nothing
        return 0
    store.run(
        "predicate_add",
        rows=[{"name": n, "inheritable": CORE_INHERITABLE.get(n, True), "source": file} for n in sorted(names)],
    )
    rows: dict[str, dict[str, Any]] = {}
    for d in declarations:
        row = rows.setdefault(
            d.predicate,
            {
                "name": d.predicate,
                "transitive": None,
                "symmetric": None,
                "functional": None,
                "inheritable": None,
                "inverse_of": None,
                "opposite_of": None,
                "domain": None,
                "range": None,
                "sub_property_of": [],
            },
        )
        if d.kind == "property_type":
            if d.value == "not_inheritable":
                row["inheritable"] = False
            else:
                row[d.value] = True
        elif d.kind == "sub_property_of":
            row["sub_property_of"].append(d.value)
        else:
            row[d.kind] = d.value
    if rows:
        store.run("predicate_declare", rows=list(rows.values()))
    return len(rows)


# Exported truth-maintenance records go back as they were, before the load hooks run: conflict detection
# then finds them recorded and leaves the facts' restored confidences and statuses alone.
_RESTORE_QUERIES = {"conflict_record": "conflict_restore", "retraction_record": "retraction_restore"}


def _restore_records(store: GraphStore, records: dict[str, list[dict[str, Any]]]) -> None:
    for kind, rows in sorted(records.items()):
        for part in chunks(rows):
            store.run(_RESTORE_QUERIES[kind], rows=list(part))


def _fill_fact_ids(facts: FactColumns) -> list[str]:
    ids = facts.column("fact_id")
    if all(ids):
        return ids
    # make_fact_id's text, built column-wise; only the hashing runs per row.
    c = facts.column
    text = pa.array
    literal = pc.binary_join_element_wise(
        pc.binary_join_element_wise(text(c("lexical"), pa.string()), text(c("datatype"), pa.string()), "^^"),
        pc.fill_null(text(c("unit"), pa.string()), ""),
        "@",
    )
    joined = pc.binary_join_element_wise(
        text(c("subject"), pa.string()),
        text(c("predicate"), pa.string()),
        pc.coalesce(text(c("object"), pa.string()), literal),
        pc.if_else(text(c("polarity"), pa.bool_()), "+", "-"),
        text(c("source"), pa.string()),
        "\x1f",
    )
    ids = [
        fid or fact_id_of_joined(raw)
        for fid, raw in zip(ids, pc.cast(joined, pa.binary()).to_numpy(zero_copy_only=False), strict=True)
    ]
    facts.fact_id = ids  # type: ignore[attr-defined]
    return ids


def _first_occurrences(ids: list[str]) -> list[int]:
    """Positions of the first occurrence of each id, in order (the first occurrence of a statement wins)."""
    codes = pc.dictionary_encode(pa.array(ids, pa.string())).indices.to_numpy()
    firsts = np.unique(codes, return_index=True)[1]
    firsts.sort()
    return list(firsts.tolist())


def _write_facts(store: GraphStore, facts: FactColumns, now: datetime, *, check_stored: bool) -> FactColumns:
    ids = _fill_fact_ids(facts)
    firsts = _first_occurrences(ids)
    stored: set[str] = set()
    if check_stored:
        for part in chunks(firsts):
            stored.update(r["fact_id"] for r in store.run("facts_existing", ids=[ids[i] for i in part]))
    keep = [i for i in firsts if ids[i] not in stored] if stored else firsts
    added = facts if len(keep) == len(facts) else facts.take(keep)  # keep is in order: all kept means as is
    if not len(added):
        return added
    value_ids = _write_values(store, added)
    objects = [o if o is not None else v for o, v in zip(added.column("object"), value_ids, strict=True)]
    tables = [
        CORE_TABLES.get(p, GENERIC_TABLE) if o is not None else ATTR_TABLE
        for p, o in zip(added.column("predicate"), added.column("object"), strict=True)
    ]
    arrow = _fact_table(added, objects, now)
    by_table: dict[str, list[int]] = defaultdict(list)
    for i, table in enumerate(tables):
        by_table[table].append(i)
    for table, rows in sorted(by_table.items()):
        store.append_rels(table, arrow.take(pa.array(rows, pa.int64())))
    return added


def _write_values(store: GraphStore, facts: FactColumns) -> list[str | None]:
    """Store new literal values; returns each fact's Value id (None for concept objects)."""
    c = facts.column
    value_ids = [
        None if lex is None else literal_id(lex, dt, unit, vl)
        for lex, dt, unit, vl in zip(c("lexical"), c("datatype"), c("unit"), c("value_lang"), strict=True)
    ]
    literals: dict[str, int] = {}
    for i, vid in enumerate(value_ids):
        if vid is not None:
            literals.setdefault(vid, i)
    have: set[str] = set()
    ids = sorted(literals)
    for part in chunks(ids):
        have.update(r["id"] for r in store.run("values_existing", ids=list(part)))
    new = [literals[v] for v in ids if v not in have]
    lexical, datatype = c("lexical"), c("datatype")
    store.copy(
        "Value",
        pa.table(
            {
                "id": pa.array([value_ids[i] for i in new], pa.string()),
                "lexical": pa.array([lexical[i] for i in new], pa.string()),
                "datatype": pa.array([datatype[i] for i in new], pa.string()),
                "unit": pa.array([c("unit")[i] for i in new], pa.string()),
                "lang": pa.array([c("value_lang")[i] for i in new], pa.string()),
                "number": pa.array([_number(lexical[i], datatype[i]) for i in new], pa.float64()),
            }
        ),
    )
    return value_ids


def _number(lexical: str, datatype: str) -> float | None:
    return Literal(lexical, datatype).number


def _naive_utc(stamp: datetime | None) -> datetime | None:
    if stamp is None or stamp.tzinfo is None:
        return stamp
    return stamp.astimezone(timezone.utc).replace(tzinfo=None)


def _fact_table(facts: FactColumns, objects: list[str | None], now: datetime) -> pa.Table:
    c = facts.column
    observed = c("observed_at")
    loaded = c("loaded_at")
    return pa.table(
        {
            "from": pa.array(c("subject"), pa.string()),
            "to": pa.array(objects, pa.string()),
            "fact_id": pa.array(c("fact_id"), pa.string()),
            "predicate": pa.array(c("predicate"), pa.string()),
            "polarity": pa.array(c("polarity"), pa.bool_()),
            "confidence": pa.array(c("confidence"), pa.float64()),
            "source": pa.array(c("source"), pa.string()),
            "trust": pa.array(c("trust"), pa.float64()),
            "authority": pa.array(c("authority"), pa.string()),
            "observed_at": pa.array(
                observed if not any(observed) else [_naive_utc(t) for t in observed], pa.timestamp("us")
            ),
            "loaded_at": pa.array(
                [now] * len(loaded) if not any(loaded) else [_naive_utc(t) or now for t in loaded], pa.timestamp("us")
            ),
            "status": pa.array(c("status"), pa.string()),
            "lang": pa.array(c("lang"), pa.string()),
        }
    ).select(["from", "to", *FACT_COLUMNS])
