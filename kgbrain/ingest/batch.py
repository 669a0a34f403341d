"""LoadBatch: everything one input file contributes, validated, before it touches the store."""

from __future__ import annotations

from dataclasses import dataclass, field

from kgbrain.knowledge import Annotation, Declaration, Fact


@dataclass(slots=True)
class LoadBatch:
    """The parsed content of one file; loaded all-or-nothing."""

    file: str
    facts: list[Fact] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    declarations: list[Declaration] = field(default_factory=list)
    source_trust: dict[str, float] = field(default_factory=dict)
    source_authority: dict[str, str] = field(default_factory=dict)
    # Explicit `source_trust` rows: they set the stored trust even when the source is known already.
    trust_overrides: dict[str, float] = field(default_factory=dict)
    rows_read: int = 0
    # What a format reader saw but could not map (e.g. OWL class expressions), by kind.
    skipped: dict[str, int] = field(default_factory=dict)
    # Extra counters a reader wants in the load report (e.g. triples read).
    extra: dict[str, int] = field(default_factory=dict)
