"""The knowledge model shared by every layer: facts with provenance, literals, statuses, tiers.

Plain frozen dataclasses; pydantic appears only at the boundary (models.py).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from kgbrain.timeline import Window, holds, interval_key


class Status(str, Enum):
    """Lifecycle of a fact. Nothing is ever deleted; these record what happened to it."""

    ACTIVE = "active"
    OUTDATED = "outdated"
    DISPUTED = "disputed"
    RETRACTED = "retracted"
    # Never stored: how a fact whose validity interval misses the asked time reads as of that time
    # (reasoning/views/timed.py). Facts files cannot state it.
    OUT_OF_TIME = "out_of_time"


class Authority(str, Enum):
    """Source authority tiers of seed 003, strongest first."""

    NORM = "NORM"
    OPERATIVE = "OPERATIVE"
    GUIDANCE = "GUIDANCE"
    COMMENTARY = "COMMENTARY"


# Rows with these predicates describe a concept instead of stating a fact about the world.
ANNOTATION_PREDICATES = frozenset({"label", "alias", "description", "kind"})
# Rows with these predicates declare how another predicate behaves.
DECLARATION_PREDICATES = frozenset({"property_type", "inverse_of", "opposite_of", "sub_property_of", "domain", "range"})
# Declarations whose object is another predicate (domain/range name a concept instead).
PREDICATE_LINKS = frozenset({"inverse_of", "opposite_of", "sub_property_of"})
PROPERTY_TYPES = frozenset({"functional", "transitive", "symmetric", "inheritable", "not_inheritable"})
SOURCE_PREDICATES = frozenset({"source_trust"})
# Rows of the knowledge base's records about identity (written by `export`, restored by `load`):
# `predicate_iri` (subject an IRI, value the predicate name it was loaded as), `same_iri` (subject an IRI merged
# by owl:sameAs, value the concept id it names) and `unique_names` (subject a source, value true or false:
# whether two names from it name two things; RDF sources false, facts files true unless a row says otherwise).
META_PREDICATES = frozenset({"predicate_iri", "same_iri", "unique_names"})
# Rows that carry truth-maintenance records and episodes (written by `export`, restored by `load`): value is a JSON
# object.
RECORD_PREDICATES = frozenset(
    {"conflict_record", "retraction_record", "derivation_record", "rule_record", "rule_order_record", "episode_record"}
)
# The field of each record that must equal the row's subject.
RECORD_KEYS = {"retraction_record": "fact_id"}  # the others: "id"
CONCEPT_KINDS = frozenset({"class", "individual"})
# Whether statements with a core predicate hold for sub-classes; any other predicate is inheritable by default.
CORE_INHERITABLE = {
    "is_a": False,
    "instance_of": False,
    "part_of": False,
    "has_property": True,
    "causes": False,
    "enables": False,
    "leads_to": False,
    "prevents": False,
    "related_to": False,
    "disjoint_with": False,
}
DEFAULT_TRUST = 0.5

_PREDICATE = re.compile(r"^[a-z][a-z0-9_]*$")
_SPACES = re.compile(r"[\s_]+")


def is_predicate_name(name: str) -> bool:
    """A predicate is a snake_case name (`is_a`, `max_speed`)."""
    return bool(_PREDICATE.match(name))


def normalize_term(text: str) -> str:
    """The lookup key of a label, alias or id: NFC, lower case, ё→е, '_' and runs of spaces as one space."""
    text = unicodedata.normalize("NFC", text).casefold().replace("ё", "е")
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class Literal:
    """An attribute value: its lexical form, datatype (string/integer/decimal/boolean/date/dateTime or an IRI)."""

    lexical: str
    datatype: str = "string"
    unit: str | None = None
    lang: str | None = None

    @property
    def id(self) -> str:
        """Deterministic id of this literal (the Value node's primary key)."""
        return literal_id(self.lexical, self.datatype, self.unit, self.lang)

    @property
    def number(self) -> float | None:
        """The numeric value, when the literal is a number."""
        if self.datatype in ("integer", "decimal", "double", "float"):
            try:
                return float(self.lexical)
            except ValueError:
                return None
        return None

    def problem(self) -> str | None:
        """Why the lexical form is not a value of its datatype (None when it is one): checked at load,
        so that `python()` (and so `export`) never meets a value it cannot convert."""
        return lexical_problem(self.lexical, self.datatype)

    def python(self) -> str | int | float | bool:
        """The value as JSON would carry it."""
        if self.datatype == "integer":
            return int(self.lexical)
        if self.datatype in ("decimal", "double", "float"):
            return float(self.lexical)
        if self.datatype == "boolean":
            return self.lexical == "true"
        return self.lexical

    @staticmethod
    def from_python(value: str | int | float | bool, unit: str | None = None, lang: str | None = None) -> Literal:
        """Build a literal from a JSON scalar."""
        if isinstance(value, bool):
            return Literal("true" if value else "false", "boolean", unit, lang)
        if isinstance(value, int):
            return Literal(str(value), "integer", unit, lang)
        if isinstance(value, float):
            return Literal(repr(value), "decimal", unit, lang)
        return Literal(value, "string", unit, lang)

    def __str__(self) -> str:
        return f"{self.lexical} {self.unit}" if self.unit else self.lexical


@dataclass(frozen=True, slots=True)
class Fact:
    """A reified statement `subject -predicate-> object | value` with its provenance."""

    subject: str
    predicate: str
    object: str | None = None
    value: Literal | None = None
    polarity: bool = True
    confidence: float = 1.0
    source: str = ""
    trust: float = DEFAULT_TRUST
    authority: Authority | None = None
    observed_at: datetime | None = None
    loaded_at: datetime | None = None
    status: Status = Status.ACTIVE
    lang: str | None = None
    fact_id: str = field(default="")
    # When the statement is true, [valid_from, valid_to) in UTC, either end open (see kgbrain.timeline).
    valid_from: datetime | None = None
    valid_to: datetime | None = None

    def __post_init__(self) -> None:
        if (self.object is None) == (self.value is None):
            raise ValueError("a fact has exactly one of object or value")
        if self.valid_from is not None and self.valid_to is not None and self.valid_to <= self.valid_from:
            raise ValueError("a fact's valid_to must be after its valid_from")
        if not self.fact_id:
            object.__setattr__(self, "fact_id", fact_id_of(self))

    def holds_in(self, window: Window) -> bool:
        """The statement is true at some time of the window (no interval: always)."""
        return holds(self.valid_from, self.valid_to, window)

    @property
    def target(self) -> str:
        """The object id, or the literal rendered as text."""
        return self.object if self.object is not None else str(self.value)


# Longer integers are refused: Python itself refuses to convert more than 4300 digits, and no quantity needs them.
MAX_INTEGER_DIGITS = 1000
_INTEGER = re.compile(r"[+-]?[0-9]+")


def lexical_problem(lexical: str, datatype: str) -> str | None:
    """Why `lexical` is not a value of the built-in `datatype` (None when it is, or the datatype is an IRI)."""
    if datatype == "integer":
        if not _INTEGER.fullmatch(lexical):
            return f"{_short(lexical)} is not an integer"
        if len(lexical.lstrip("+-")) > MAX_INTEGER_DIGITS:
            return f"an integer of {len(lexical.lstrip('+-'))} digits is too long (at most {MAX_INTEGER_DIGITS})"
    elif datatype in ("decimal", "double", "float"):
        if len(lexical) > MAX_INTEGER_DIGITS:
            return f"a number of {len(lexical)} characters is too long (at most {MAX_INTEGER_DIGITS})"
        try:
            number = float(lexical)
        except ValueError:
            return f"{_short(lexical)} is not a {datatype} number"
        if number != number or number in (float("inf"), float("-inf")):
            return f"{_short(lexical)} is not a finite number"
    elif datatype == "boolean" and lexical not in ("true", "false"):
        return f"{_short(lexical)} is not a boolean (true or false)"
    return None


def _short(text: str, limit: int = 60) -> str:
    """A value for an error message: its repr, cut so that a huge value does not flood the terminal."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def fact_id_of(fact: Fact) -> str:
    """Deterministic id: the same statement from the same source is the same fact; another source is another."""
    interval = interval_key(fact.valid_from, fact.valid_to)
    if fact.object is not None:
        return make_fact_id(fact.subject, fact.predicate, fact.object, fact.polarity, fact.source, interval)
    assert fact.value is not None
    target = literal_target(fact.value.lexical, fact.value.datatype, fact.value.unit)
    return make_fact_id(fact.subject, fact.predicate, target, fact.polarity, fact.source, interval)


def literal_target(lexical: str, datatype: str, unit: str | None) -> str:
    """How a literal object enters a fact id."""
    return f"{lexical}^^{datatype}@{unit or ''}"


def make_fact_id(subject: str, predicate: str, target: str, polarity: bool, source: str, interval: str = "") -> str:
    """The fact id of a statement (target: an object id, or `literal_target(...)`; interval: `interval_key(...)`,
    empty for a fact true at all times, so that ids made before intervals existed stay the same)."""
    fields = (subject, predicate, target, "+" if polarity else "-", source, *((interval,) if interval else ()))
    return "f_" + _digest("\x1f".join(fields))


def fact_id_of_joined(joined: bytes) -> str:
    """`make_fact_id` from its fields already joined by U+001F and encoded (the bulk loader builds them column-wise)."""
    return "f_" + hashlib.blake2b(joined, digest_size=8).hexdigest()


def literal_id(lexical: str, datatype: str, unit: str | None, lang: str | None) -> str:
    """Deterministic id of a literal value (the Value node's primary key)."""
    return "v_" + _digest("\x1f".join((lexical, datatype, unit or "", lang or "")))


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Annotation:
    """A label, alias, description or kind of a concept."""

    concept: str
    kind: str  # one of ANNOTATION_PREDICATES
    text: str
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Declaration:
    """How a predicate behaves: `property_type` (with a value) or a relation to another predicate."""

    predicate: str
    kind: str  # one of DECLARATION_PREDICATES
    value: str
