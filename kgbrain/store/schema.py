"""Schema facts shared by the store and the layers above: fact tables, columns, versions.

Version 1 is queries/schema.cypher. Each later version N has queries/migrations/NNN_<what>.cypher,
a DDL script applied in order to bring an older database up to date.
"""

from __future__ import annotations

import re
from pathlib import Path

from kgbrain.errors import StoreError
from kgbrain.store.queries import queries_dir, split_statements

# Core predicates get a relationship table of their own so closure queries traverse one small table;
# every other predicate goes to REL (between concepts) or ATTR (concept to literal value).
CORE_TABLES: dict[str, str] = {
    "is_a": "IS_A",
    "instance_of": "INSTANCE_OF",
    "part_of": "PART_OF",
    "has_property": "HAS_PROPERTY",
    "causes": "CAUSES",
    "enables": "ENABLES",
    "leads_to": "LEADS_TO",
    "prevents": "PREVENTS",
    "related_to": "RELATED_TO",
    "disjoint_with": "DISJOINT_WITH",
}
GENERIC_TABLE = "REL"
ATTR_TABLE = "ATTR"
FACT_TABLES: tuple[str, ...] = (*CORE_TABLES.values(), GENERIC_TABLE, ATTR_TABLE)
# Schema version 8: beside each fact table T a delta table T_D with the same columns takes every new fact, so a
# commit rewrites the small delta instead of T's columns (a commit touching a 1M-row table costs seconds to
# checkpoint); every query reads both, `[r:T|T_D]`, and `merge_deltas` (store/compact.py) moves the delta into T.
DELTA_SUFFIX = "_D"
# Schema version that has the Episode and Correction tables (queries/migrations/007_episodes.cypher); a read-only
# open of an older file answers without episodes, and its export has none.
EPISODES_VERSION = 7
DELTA_TABLES: dict[str, str] = {t: t + DELTA_SUFFIX for t in FACT_TABLES}

# Column order of every fact table after the FROM/TO pair; schema.cypher plus the migrations must match.
FACT_COLUMNS: tuple[str, ...] = (
    "fact_id",
    "predicate",
    "polarity",
    "confidence",
    "source",
    "trust",
    "authority",
    "observed_at",
    "loaded_at",
    "status",
    "lang",
    "valid_from",  # schema version 5 (queries/migrations/005_validity.cypher)
    "valid_to",
)
CONCEPT_COLUMNS: tuple[str, ...] = (
    "id",
    "kind",
    "label_en",
    "label_ru",
    "description_en",
    "description_ru",
    "description",
)
VALUE_COLUMNS: tuple[str, ...] = ("id", "lexical", "datatype", "unit", "lang", "number")
NAMES_COLUMNS: tuple[str, ...] = ("from", "to", "text", "lang", "kind")
PRIMARY_KEYS: dict[str, str] = {"Concept": "id", "Term": "key", "Value": "id", "Derivation": "id", "FactRef": "id"}
# (from table, to table, property columns) of every relationship table.
REL_TABLES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    **{t: ("Concept", "Concept", FACT_COLUMNS) for t in (*CORE_TABLES.values(), GENERIC_TABLE)},
    ATTR_TABLE: ("Concept", "Value", FACT_COLUMNS),
    **{DELTA_TABLES[t]: ("Concept", "Concept", FACT_COLUMNS) for t in (*CORE_TABLES.values(), GENERIC_TABLE)},
    DELTA_TABLES[ATTR_TABLE]: ("Concept", "Value", FACT_COLUMNS),
    "NAMES": ("Term", "Concept", NAMES_COLUMNS[2:]),
    "DERIVES": ("Derivation", "FactRef", ()),  # derivation -> the fact it derives (no properties)
    "USES": ("Derivation", "FactRef", ()),  # derivation -> each premise fact
}


def table_for(predicate: str, literal: bool) -> str:
    """The relationship table that stores facts with this predicate."""
    if literal:
        return ATTR_TABLE
    return CORE_TABLES.get(predicate, GENERIC_TABLE)


def reading(*tables: str) -> str:
    """The label of a pattern that reads these fact tables: each one with its delta (`IS_A|IS_A_D`)."""
    return "|".join(f"{t}|{DELTA_TABLES[t]}" for t in tables)


def _migration_files() -> dict[int, Path]:
    found: dict[int, Path] = {}
    folder = queries_dir() / "migrations"
    for path in sorted(folder.glob("*.cypher")) if folder.is_dir() else []:
        match = re.match(r"(\d+)_", path.name)
        if not match:
            raise StoreError(f"migration file {path.name!r} must start with its version number")
        found[int(match.group(1))] = path
    return found


def latest_version() -> int:
    """The schema version this kgbrain writes."""
    return max([1, *_migration_files()])


def create_statements() -> list[str]:
    """DDL creating the version-1 schema."""
    return split_statements((queries_dir() / "schema.cypher").read_text(encoding="utf-8"))


def migration_statements(from_version: int) -> list[tuple[int, list[str]]]:
    """DDL scripts that take a database from `from_version` to `latest_version()`, in order."""
    files = _migration_files()
    return [
        (version, split_statements(files[version].read_text(encoding="utf-8")))
        for version in sorted(files)
        if version > from_version
    ]
