"""Write a LoadBatch into the store in one transaction: resolve names, de-duplicate, bulk COPY.

Names in a file may be concept ids or labels ("нейрон" and "neuron" can name one concept), so they are
resolved first: a known id wins, then a label or alias (from the store or from this file), and only then
is a new concept created. Facts get their deterministic ids after resolution, so loading a file twice,
or the same statement under another name, adds nothing. Everything is de-duplicated before COPY:
Kùzu's COPY fails on a duplicate primary key, and such a failure can damage the session's index.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kgbrain.ingest.batch import FactColumns, LoadBatch, release_arrow_memory
from kgbrain.knowledge import (
    CORE_INHERITABLE,
    PREDICATE_LINKS,
    Annotation,
    Declaration,
    Fact,
    Literal,
    normalize_term,
)
from kgbrain.language import detect_language
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX
from kgbrain.store.protocol import GraphStore
from kgbrain.store.schema import ATTR_TABLE, CONCEPT_COLUMNS, CORE_TABLES, FACT_COLUMNS, GENERIC_TABLE
from kgbrain.timeline import interval_key

CHUNK = 50_000
T = TypeVar("T")
Phase = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What one file added to the knowledge base (built once; a later step makes a copy with `replace`)."""

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
    # Concepts this load created (not in --json): they have no links but the load's own, so a hook can follow
    # those in memory instead of asking the store.
    new_concepts: frozenset[str] = field(default_factory=frozenset, repr=False)
    # Concepts that got labels, aliases or descriptions (not in --json): caches of names refresh just these.
    annotated: frozenset[str] = field(default_factory=frozenset, repr=False)
    # Facts the load hooks took out of the active set (a conflict's automatic resolution disputed or outdated
    # them, not in --json): what the rules had derived from them is withdrawn after the hooks.
    deactivated: tuple[Fact, ...] = field(default=(), repr=False)

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


# Meta keys of the predicate IRIs: `predicate_iri <IRI>` -> the predicate name that IRI was given when first loaded.
_PREDICATE_IRI = "predicate_iri "


_SAME_IRI = "same_iri "
# Meta keys of the sources without the unique-name assumption: `unique_names <source>` -> "false".
_UNIQUE_NAMES = "unique_names "


def open_names_sources(store: GraphStore) -> set[str]:
    """The sources recorded without the unique-name assumption (their two names may name one thing)."""
    n = len(_UNIQUE_NAMES)
    return {r["key"][n:] for r in store.run("meta_prefixed", prefix=_UNIQUE_NAMES) if r["value"] == "false"}


def stored_same_iris(store: GraphStore) -> dict[str, str]:
    """Every IRI an ontology merged into another term's concept (owl:sameAs) -> that concept's id."""
    n = len(_SAME_IRI)
    return {row["key"][n:]: row["value"] for row in store.run("meta_prefixed", prefix=_SAME_IRI)}


def stored_predicate_iris(store: GraphStore) -> dict[str, str]:
    """Every predicate IRI the knowledge base has loaded -> its predicate name (identity by IRI)."""
    n = len(_PREDICATE_IRI)
    return {row["key"][n:]: row["value"] for row in store.run("meta_prefixed", prefix=_PREDICATE_IRI)}


def stored_with_parents(store: GraphStore, ids: Iterable[str]) -> set[str]:
    """Which of the concept ids `ids` have a superclass in the knowledge base (an active `is_a` fact)."""
    return {row["id"] for row in store.run("concepts_with_parents", ids=sorted(set(ids)))}


def load_batch(store: GraphStore, batch: LoadBatch, *, now: datetime | None = None) -> LoadReport:
    """Add a parsed file to the store, all or nothing.

    Raises:
        StoreError: the store failed; the transaction was rolled back and nothing was added.
    """
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(tzinfo=None)
    with store.transaction():
        resolver = _Resolver(store, batch)
        facts = resolver.resolve_facts(batch.facts)
        concepts_created = _write_concepts(store, resolver, batch.annotations)
        new_concepts = frozenset(resolver.new_ids)
        names_added = _write_names(store, resolver, batch.annotations)
        sources = _write_sources(store, batch)
        declared = _write_predicates(store, facts.distinct("predicate"), batch.declarations, batch.file)
        first_facts = not store.run("facts_any")
        rows = len(facts)
        added = _write_facts(store, facts, now, check_stored=not first_facts, new_concepts=new_concepts)
        release_arrow_memory()
        _restore_records(store, batch.records)
        if batch.predicate_iris:
            named = sorted(batch.predicate_iris.items())
            store.run("meta_set_many", rows=[{"key": _PREDICATE_IRI + iri, "value": name} for iri, name in named])
        if batch.source_unique_names:
            flags = sorted(batch.source_unique_names.items())
            meta = [{"key": _UNIQUE_NAMES + name, "value": "true" if una else "false"} for name, una in flags]
            store.run("meta_set_many", rows=meta)
        if batch.same_iris:
            merged = sorted(batch.same_iris.items())
            store.run("meta_set_many", rows=[{"key": _SAME_IRI + iri, "value": cid} for iri, cid in merged])
    return LoadReport(
        file=batch.file,
        rows_read=batch.rows_read,
        facts_added=len(added),
        duplicates_skipped=rows - len(added),
        concepts_created=concepts_created,
        names_added=names_added,
        predicates_declared=declared,
        sources=sources,
        per_predicate=_per_predicate(added),
        skipped=dict(batch.skipped),
        extra=dict(batch.extra),
        owl2rl=dict(batch.owl2rl),
        added=added,
        loaded_at=now,
        first_facts=first_facts,
        new_concepts=new_concepts,
        annotated=frozenset(a.concept for a in batch.annotations),
    )


def _per_predicate(added: FactColumns) -> dict[str, int]:
    """How many facts of each predicate were added, by predicate name."""
    if not len(added):
        return {}
    counted = pc.value_counts(added.arrow("predicate"))
    return dict(sorted(zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist(), strict=True)))


class _Resolver:
    """Maps the names used in a batch to concept ids, creating concepts only when nothing matches."""

    def __init__(self, store: GraphStore, batch: LoadBatch) -> None:
        self.store = store
        facts = batch.facts
        names: set[str] = {a.concept for a in batch.annotations}
        names |= facts.concepts()
        self.existing: dict[str, str] = {}
        # Into a knowledge base without concepts (a first load) no name can be known: no lookups at all.
        self.empty = not store.run("concepts_any")
        self._add_existing(names)
        self.annotated = {a.concept for a in batch.annotations}
        self.norm: dict[str, str] = {}  # name -> normalize_term(name), computed once
        members = pc.equal(facts.arrow("predicate"), "instance_of") if len(facts) else None
        self.individuals = (
            set(pc.unique(pc.filter(facts.arrow("subject"), members)).to_pylist()) if members is not None else set()
        )
        self.individuals |= {a.concept for a in batch.annotations if a.kind == "kind" and a.text == "individual"}
        # A stated `kind: class` wins over the guess from `instance_of` (a class can be a member of a class: a
        # rule deriving `penguin instance_of flies` must not turn penguin into an individual on reload).
        self.individuals -= {a.concept for a in batch.annotations if a.kind == "kind" and a.text == "class"}
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
        if self.empty and not by_key:  # a first load without names: nothing to match against
            return {}
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
            facts.subject = _renamed(facts.arrow("subject"), self.mapping)  # type: ignore[attr-defined]
            facts.object = _renamed(facts.arrow("object"), self.mapping)  # type: ignore[attr-defined]
            facts.fact_id = pa.nulls(len(facts), pa.string())  # type: ignore[attr-defined]
        return facts


def _renamed(names: pa.Array, mapping: dict[str, str]) -> pa.Array:
    """Each name replaced by its mapping (once per distinct name), nulls kept."""
    encoded = pc.dictionary_encode(names)
    distinct = encoded.dictionary.to_pylist()
    return pa.array([mapping.get(x, x) for x in distinct], pa.string()).take(encoded.indices)


def _write_concepts(store: GraphStore, resolver: _Resolver, annotations: list[Annotation]) -> int:
    info: dict[str, dict[str, Any]] = defaultdict(dict)
    for a in annotations:
        column = _annotation_column(a)
        if column is not None:
            info[resolver.id_of(a.concept)].setdefault(column, a.text)
    new = set(resolver.new_ids)
    ids = pa.array(resolver.new_ids, pa.string())
    individuals = pa.array(sorted(resolver.individuals), pa.string())
    columns: dict[str, pa.Array] = {
        "id": ids,
        "kind": pc.if_else(pc.is_in(ids, value_set=individuals), "individual", "class"),
    }
    for c in CONCEPT_COLUMNS[2:]:
        columns[c] = (
            pa.array([info[cid].get(c) if cid in info else None for cid in resolver.new_ids], pa.string())
            if info
            else pa.nulls(len(ids), pa.string())
        )
    store.copy("Concept", pa.table({c: columns[c] for c in CONCEPT_COLUMNS}))
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
    # Each new concept is named by its id; a new id has no stored name yet, so these rows are all new.
    ids = pa.array(resolver.new_ids, pa.string())
    id_keys = _term_keys(ids, resolver.norm)
    keys = sorted(set(pc.unique(id_keys).to_pylist()) | {w[0] for w in wanted})
    have: set[tuple[str, str, str, str, str]] = set()
    existing_keys: set[str] = set()
    for part in chunks(keys if store.run("terms_any") else []):
        existing_keys.update(r["key"] for r in store.run("terms_existing", keys=list(part)))
    # only keys already in the store can have names already (a fresh ontology load skips this query)
    for part in chunks(sorted(existing_keys)):
        for r in store.run("terms_lookup", keys=list(part)):
            have.add((r["key"], r["concept"], r["text"], r["lang"] or "", r["kind"]))
    new_names = [w for w in wanted if w not in have]
    store.copy("Term", pa.table({"key": pa.array([k for k in keys if k not in existing_keys], pa.string())}))
    store.append_rels(
        "NAMES",
        pa.table(
            {
                "from": pa.concat_arrays([pa.array([w[0] for w in new_names], pa.string()), id_keys]),
                "to": pa.concat_arrays([pa.array([w[1] for w in new_names], pa.string()), ids]),
                "text": pa.concat_arrays([pa.array([w[2] for w in new_names], pa.string()), ids]),
                "lang": pa.array([w[3] or None for w in new_names] + [None] * len(ids), pa.string()),
                "kind": pa.concat_arrays(
                    [pa.array([w[4] for w in new_names], pa.string()), pa.array(["id"] * len(ids), pa.string())]
                ),
            }
        ),
    )
    return len(new_names)


# Ids that normalise to themselves in lower case (normalize_term of ASCII letters, digits and these marks): a
# million-fact file's ids are keyed column-wise, the rest one by one.
_PLAIN_ID = r"^[A-Za-z0-9][A-Za-z0-9:./#+\-]*$"


def _term_keys(ids: pa.Array, known: dict[str, str]) -> pa.Array:
    """normalize_term of each id."""
    plain = pc.match_substring_regex(ids, _PLAIN_ID)
    if pc.all(plain).as_py() is not False:
        return pc.ascii_lower(ids)
    others = [known.get(x) or normalize_term(x) for x in ids.filter(pc.invert(plain)).to_pylist()]
    keys = pc.ascii_lower(ids).to_pylist()
    rest = iter(others)
    return pa.array([k if p else next(rest) for k, p in zip(keys, plain.to_pylist(), strict=True)], pa.string())


def _write_sources(store: GraphStore, batch: LoadBatch) -> int:
    # Derived facts name their rule as source (`rule:<id>`); a rule is not a source with a trust of its own, so
    # reloading an export's derived facts must not add one (only an explicit source_trust row sets one).
    rows = [
        {"name": name, "trust": trust, "authority": batch.source_authority.get(name)}
        for name, trust in sorted(batch.source_trust.items())
        if not name.startswith(DERIVED_SOURCE_PREFIX) or name in batch.trust_overrides
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
_RESTORE_QUERIES = {
    "conflict_record": "conflict_restore",
    "retraction_record": "retraction_restore",
    "derivation_record": "derivation_restore",
    "episode_record": "episode_restore",
}


def _restore_records(store: GraphStore, records: dict[str, list[dict[str, Any]]]) -> None:
    for kind, rows in sorted(records.items()):
        for part in chunks(rows):
            if kind == "episode_record":
                _restore_episodes(store, list(part))
                continue
            rows_in = _derivation_table(part) if kind == "derivation_record" else list(part)
            store.run(_RESTORE_QUERIES[kind], rows=rows_in)


def _restore_episodes(store: GraphStore, rows: list[dict[str, Any]]) -> None:
    """Exported episodes, then their corrections linked to them."""
    episodes = [{k: v for k, v in r.items() if k != "corrections"} for r in rows]
    store.run("episode_restore", rows=episodes)
    made = [{**c, "episode": r["id"]} for r in rows for c in r.get("corrections") or []]
    if made:
        store.run("correction_restore", rows=made)


def _derivation_table(rows: Iterable[dict[str, Any]]) -> pa.Table:
    # A list column (the premises) reaches the engine only inside an Arrow table, never in a list of dicts.
    rows = list(rows)
    columns = {k: pa.array([r.get(k) for r in rows], pa.string()) for k in ("id", "rule", "fact_id", "status")}
    premises = pa.array([[str(p) for p in r.get("premises") or []] for r in rows], pa.list_(pa.string()))
    return pa.table({**columns, "premises": premises})


def _fill_fact_ids(facts: FactColumns) -> pa.Array:
    ids = facts.arrow("fact_id")
    missing = pc.fill_null(pc.equal(ids, ""), True)
    if not pc.any(missing).as_py():
        return ids
    made = pa.chunked_array(
        # a chunk at a time: a million joined texts and Python strings at once would be ~150 MB more at the peak
        [_fact_ids(facts, start, CHUNK) for start in range(0, len(ids), CHUNK)],
        pa.string(),
    ).combine_chunks()
    ids = pc.if_else(missing, made, ids)
    facts.fact_id = ids  # type: ignore[attr-defined]
    return ids


def _fact_ids(facts: FactColumns, start: int, length: int) -> pa.Array:
    """make_fact_id of rows start..start+length; its text is built column-wise, only the hashing runs per row."""

    def c(name: str) -> pa.Array:
        return facts.arrow(name).slice(start, length)

    literal = pc.binary_join_element_wise(
        pc.binary_join_element_wise(c("lexical"), c("datatype"), "^^"),
        pc.fill_null(c("unit"), ""),
        "@",
    )
    joined = pc.binary_join_element_wise(
        c("subject"),
        c("predicate"),
        pc.coalesce(c("object"), literal),
        pc.if_else(c("polarity"), "+", "-"),
        c("source"),
        "\x1f",
    )
    timed = pc.or_(pc.is_valid(c("valid_from")), pc.is_valid(c("valid_to")))
    if pc.any(timed).as_py():  # rare: the interval joins the id (kgbrain.knowledge.make_fact_id), row by row
        starts, ends = c("valid_from").to_pylist(), c("valid_to").to_pylist()
        keys = [interval_key(a, b) for a, b in zip(starts, ends, strict=True)]
        joined = pc.if_else(timed, pc.binary_join_element_wise(joined, pa.array(keys, pa.string()), "\x1f"), joined)
    digest = hashlib.blake2b
    texts = pc.cast(joined, pa.binary()).to_numpy(zero_copy_only=False)
    return pa.array(["f_" + digest(text, digest_size=8).hexdigest() for text in texts], pa.string())


def _first_occurrences(ids: pa.Array) -> pa.Array:
    """Positions of the first occurrence of each id, in order (the first occurrence of a statement wins)."""
    codes = pc.dictionary_encode(ids).indices.to_numpy()
    firsts = np.unique(codes, return_index=True)[1]
    firsts.sort()
    return pa.array(firsts.astype(np.int64))


def _stored_ids(
    store: GraphStore, facts: FactColumns, ids: pa.Array, given: pa.Array, rows: pa.Array, new_concepts: frozenset[str]
) -> pa.Array:
    """Which of `ids` (the fact ids of `rows`; `given`: the file gave the id) are stored already.

    An id made here hashes the fact's subject, so a stored fact with that id has that subject: the facts of the
    subjects the load touches are read (keyed, so the cost follows the load, not the KB), and a concept this load
    created has none. An id the file gave is looked up by itself, whatever its subject (a join over every fact).
    """
    subjects = facts.arrow("subject").take(rows)
    made = pc.and_(pc.invert(given), pc.invert(pc.is_in(subjects, value_set=pa.array(new_concepts, pa.string()))))
    asked = pc.unique(subjects.filter(made)).to_pylist()
    found: set[str] = set()
    for start in range(0, len(asked), CHUNK):
        rows_of = store.iterate("fact_ids_of", subjects=asked[start : start + CHUNK])
        found.update(r["fact_id"] for r in rows_of if r["fact_id"] is not None)
    stored = pc.filter(ids, pc.and_(made, pc.is_in(ids, value_set=pa.array(sorted(found), pa.string()))))
    by_id = ids.filter(given)
    named: set[str] = set()
    for start in range(0, len(by_id), CHUNK):
        part = by_id.slice(start, CHUNK).to_pylist()
        named.update(r["fact_id"] for r in store.run("facts_existing", ids=part))
    return pa.concat_arrays([stored, pa.array(sorted(named), pa.string())])


def _write_facts(
    store: GraphStore, facts: FactColumns, now: datetime, *, check_stored: bool, new_concepts: frozenset[str]
) -> FactColumns:
    if not len(facts):
        return facts
    given = pc.fill_null(pc.not_equal(facts.arrow("fact_id"), ""), False)
    ids = _fill_fact_ids(facts)
    firsts = _first_occurrences(ids)
    if check_stored:
        stored = _stored_ids(store, facts, ids.take(firsts), given.take(firsts), firsts, new_concepts)
        if len(stored):
            firsts = firsts.filter(pc.invert(pc.is_in(ids.take(firsts), value_set=stored)))
    if len(firsts) != len(facts):
        # In place, column by column: a million read rows beside their de-duplicated copy would be ~200 MB
        # more at the load's peak. (The batch then holds the facts stored.)
        facts.keep(firsts)
    added = facts
    if not len(added):
        return added
    value_ids = _write_values(store, added)
    objects = pc.coalesce(added.arrow("object"), value_ids)
    arrow = _fact_table(added, objects, now)
    release_arrow_memory()  # what finding duplicates took, before Kùzu's COPY takes its share
    predicate = pc.dictionary_encode(added.arrow("predicate"))
    table_of = [CORE_TABLES.get(p, GENERIC_TABLE) for p in predicate.dictionary.to_pylist()]
    tables = pa.array(table_of, pa.string()).take(predicate.indices)
    tables = pc.if_else(pc.is_valid(added.arrow("object")), tables, ATTR_TABLE)
    for table in sorted(set(pc.unique(tables).to_pylist())):
        store.append_rels(table, arrow.filter(pc.equal(tables, table)))
    return added


def _write_values(store: GraphStore, facts: FactColumns) -> pa.Array:
    """Store new literal values; returns each fact's Value id (null for concept objects)."""
    c = facts.arrow
    # literal_id's text, joined column-wise; each distinct literal is hashed once.
    joined = pc.binary_join_element_wise(
        c("lexical"), c("datatype"), pc.fill_null(c("unit"), ""), pc.fill_null(c("value_lang"), ""), "\x1f"
    )
    encoded = pc.dictionary_encode(joined)
    digest = hashlib.blake2b
    distinct = pa.array(
        ["v_" + digest(raw.encode("utf-8"), digest_size=8).hexdigest() for raw in encoded.dictionary.to_pylist()],
        pa.string(),
    )
    value_ids = distinct.take(encoded.indices)
    if not len(distinct):
        return value_ids
    # The first fact of each literal gives its columns.
    firsts = np.unique(encoded.indices.fill_null(-1).to_numpy(), return_index=True)
    rows = pa.array(firsts[1][firsts[0] >= 0].astype(np.int64))
    ids = value_ids.take(rows)
    have: set[str] = set()
    for start in range(0, len(ids), CHUNK):
        have.update(r["id"] for r in store.run("values_existing", ids=ids.slice(start, CHUNK).to_pylist()))
    if have:
        rows = rows.filter(pc.invert(pc.is_in(ids, value_set=pa.array(sorted(have), pa.string()))))
    lexical, datatype = c("lexical").take(rows), c("datatype").take(rows)
    table = pa.table(
        {
            "id": value_ids.take(rows),
            "lexical": lexical,
            "datatype": datatype,
            "unit": c("unit").take(rows),
            "lang": c("value_lang").take(rows),
            "number": pa.array(
                [_number(x, d) for x, d in zip(lexical.to_pylist(), datatype.to_pylist(), strict=True)], pa.float64()
            ),
        }
    )
    store.copy("Value", table.sort_by("id"))
    return value_ids


def _number(lexical: str, datatype: str) -> float | None:
    return Literal(lexical, datatype).number


def _naive_utc(stamps: pa.Array) -> pa.Array:
    """UTC instants as Kùzu's zone-less TIMESTAMP."""
    return stamps.cast(pa.timestamp("us"))


def _fact_table(facts: FactColumns, objects: pa.Array, now: datetime) -> pa.Table:
    c = facts.arrow
    return pa.table(
        {
            "from": c("subject"),
            "to": objects,
            "fact_id": c("fact_id"),
            "predicate": c("predicate"),
            "polarity": c("polarity"),
            "confidence": c("confidence"),
            "source": c("source"),
            "trust": c("trust"),
            "authority": c("authority"),
            "observed_at": _naive_utc(c("observed_at")),
            "loaded_at": pc.fill_null(_naive_utc(c("loaded_at")), pa.scalar(now, pa.timestamp("us"))),
            "status": c("status"),
            "lang": c("lang"),
            "valid_from": _naive_utc(c("valid_from")),
            "valid_to": _naive_utc(c("valid_to")),
        }
    ).select(["from", "to", *FACT_COLUMNS])
