"""Load named Cypher statements from queries/*.cypher and record the parameters each one uses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kgbrain.errors import QueryError
from kgbrain.resources import resource_dir

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True, slots=True)
class Query:
    """One named statement: its text without comments and the `$params` it expects."""

    name: str
    text: str
    params: frozenset[str]
    # Parameters used as `IN $x` or `list_...($x`: Kùzu 0.11.3 segfaults when such a parameter is NULL.
    list_params: frozenset[str] = frozenset()


def strip_comments(text: str) -> str:
    """Drop whole-line `//` comments (our files only use those)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def split_statements(text: str) -> list[str]:
    """Split a DDL script on `;` (only used for schema and migration scripts)."""
    return [s.strip() for s in strip_comments(text).split(";") if s.strip()]


def queries_dir() -> Path:
    """The directory holding the *.cypher files."""
    return resource_dir("queries")


@cache
def load_query(name: str) -> Query:
    """Return the statement in queries/<name>.cypher.

    Raises:
        QueryError: no such query file.
    """
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise QueryError(f"bad query name {name!r}")
    path = queries_dir() / f"{name}.cypher"
    if not path.is_file():
        raise QueryError(f"no query named {name!r} in queries/")
    text = strip_comments(path.read_text(encoding="utf-8")).strip().rstrip(";")
    bare = _STRING.sub("", text)
    params = frozenset(_PARAM.findall(bare))
    list_params = frozenset(
        re.findall(r"(?:\bIN\s+|\blist_\w+\(\s*)\$([A-Za-z_][A-Za-z0-9_]*)", bare, flags=re.IGNORECASE)
    )
    return Query(name, text, params, list_params)


def all_query_names() -> list[str]:
    """Names of every single-statement query file (schema and migrations excluded)."""
    return sorted(p.stem for p in queries_dir().glob("*.cypher") if p.stem != "schema")


@cache
def load_template(name: str) -> str:
    """Text of queries/templates/<name>.cypher: statements the store fills with schema names.

    Raises:
        QueryError: no such template.
    """
    path = queries_dir() / "templates" / f"{name}.cypher"
    if not path.is_file():
        raise QueryError(f"no query template named {name!r} in queries/templates/")
    return strip_comments(path.read_text(encoding="utf-8")).strip().rstrip(";")
