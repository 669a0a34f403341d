"""Pydantic models at the boundary: what `--json` prints and what requests accept."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from kgbrain.api import ConceptFacts, Stats
from kgbrain.ingest.export import fact_row
from kgbrain.ingest.loader import LoadReport


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LoadReportOut(_Out):
    """One file's load report."""

    file: str
    rows_read: int
    facts_added: int
    duplicates_skipped: int
    concepts_created: int
    names_added: int
    predicates_declared: int
    sources: int
    per_predicate: dict[str, int]
    skipped: dict[str, int]
    extra: dict[str, int]

    @classmethod
    def from_report(cls, r: LoadReport) -> LoadReportOut:
        """Convert the core dataclass."""
        return cls(
            file=r.file,
            rows_read=r.rows_read,
            facts_added=r.facts_added,
            duplicates_skipped=r.duplicates_skipped,
            concepts_created=r.concepts_created,
            names_added=r.names_added,
            predicates_declared=r.predicates_declared,
            sources=r.sources,
            per_predicate=r.per_predicate,
            skipped=r.skipped,
            extra=r.extra,
        )


class StatsOut(_Out):
    """`kgbrain stats --json`."""

    concepts: int
    individuals: int
    facts: int
    active_facts: int
    predicates: dict[str, int]
    statuses: dict[str, int]
    sources: int
    schema_version: int

    @classmethod
    def from_stats(cls, s: Stats) -> StatsOut:
        """Convert the core dataclass."""
        return cls(
            concepts=s.concepts,
            individuals=s.individuals,
            facts=s.facts,
            active_facts=s.active_facts,
            predicates=s.predicates,
            statuses=s.statuses,
            sources=s.sources,
            schema_version=s.schema_version,
        )


class ConceptFactsOut(_Out):
    """`kgbrain facts CONCEPT --json`."""

    id: str
    kind: str
    labels: dict[str, str]
    descriptions: dict[str, str]
    names: list[dict[str, Any]]
    facts: list[dict[str, Any]]

    @classmethod
    def from_concept(cls, c: ConceptFacts) -> ConceptFactsOut:
        """Convert the core dataclass."""
        return cls(
            id=c.id,
            kind=c.kind,
            labels=c.labels,
            descriptions=c.descriptions,
            names=[{k: n[k] for k in ("text", "lang", "kind")} for n in c.names],
            facts=[fact_row(f) for f in c.facts],
        )
