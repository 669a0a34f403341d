"""The one exception tree of kgbrain.

Everything raised on purpose derives from `KgbrainError`. Contradictions, low confidence and
"I don't know" are results, not exceptions. `InputError` means the caller can fix it (CLI exit 2);
every other `KgbrainError` exits 1.
"""

from __future__ import annotations

from collections.abc import Sequence


class KgbrainError(Exception):
    """Base class. Catch it at the edges (CLI, service) and nowhere else."""


class InputError(KgbrainError):
    """The caller can fix this: a bad file, argument or request."""


class InvalidRow(InputError):
    """One row of an input file is malformed; names the file, line and field."""

    def __init__(self, file: str, line: int, field: str | None, problem: str) -> None:
        where = f"{file}:{line}"
        what = f" field {field!r}:" if field else ""
        if len(problem) > 400:  # a huge bad value must not flood the terminal
            problem = problem[:400] + "..."
        super().__init__(f"{where}:{what} {problem}")
        self.file = file
        self.line = line
        self.field = field
        self.problem = f"field {field!r}: {problem}" if field else problem


class UnknownItem(InputError):
    """An id the user named (a fact, a conflict, an episode) is not in the knowledge base (HTTP 404)."""


class UnknownConcept(InputError):
    """A concept named by the user is not in the knowledge base."""

    def __init__(self, concept_id: str, close: Sequence[str] = (), *, field: str | None = None) -> None:
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        where = f"field {field!r}: " if field else ""  # (one of several names: which one)
        super().__init__(f"{where}Unknown concept {concept_id!r}.{hint}")
        self.concept_id = concept_id
        self.close = tuple(close)
        self.field = field


class AmbiguousConcept(InputError):
    """A name means concepts of several ontologies ("restaurant": schema.org and DBpedia); the user must pick one."""

    def __init__(self, name: str, candidates: Sequence[str]) -> None:
        super().__init__(f"Ambiguous name {name!r}: it may mean {', '.join(candidates)}. Use one of these ids.")
        self.name = name
        self.candidates = tuple(candidates)


class AmbiguousRelation(InputError):
    """A claim's relation phrase names several stored predicates equally well, and they decide it differently."""

    def __init__(self, sentence: str, predicates: Sequence[str]) -> None:
        super().__init__(
            f"Ambiguous relation in {sentence!r}: it may mean {', '.join(predicates)}, which decide it differently. "
            "Give subject/predicate/object with one of these predicates."
        )
        self.predicates = tuple(predicates)


class InvalidRequest(InputError):
    """A request failed validation (pydantic errors flattened to 'field: problem; ...')."""


class OntologyError(InputError):
    """An ontology file could not be parsed or mapped; names the file and, where known, the line."""


class ReadTimeout(KgbrainError):
    """A served read ran past its time limit and was cancelled (the reader is free for the next request)."""


class WriteTimeout(KgbrainError):
    """A served write ran past its time limit before it committed: it was rolled back, nothing of it stored."""


class QueryError(KgbrainError):
    """Our bug: an unknown query name or wrong parameters."""


class StoreError(KgbrainError):
    """The graph store failed."""


class SchemaVersionError(StoreError):
    """The database was written by a newer kgbrain, or its schema cannot be migrated."""


class DatabaseLocked(StoreError):
    """Another process holds the database for writing."""


class EngineError(KgbrainError):
    """The distributed engine (Spark) failed: a job, an executor or the connection to the master."""


class NotOnEngine(InputError):
    """The work asked for does not run on the chosen engine (e.g. defeasible rules on Spark); names what to do."""
