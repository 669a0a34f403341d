"""Evidence packs: a stored fact as the reasoning loop sees it, with relevance and freshness (seed 001).

Freshness decays by the kind of fact: scientific knowledge slowly (x0.999 a day), news fast (x0.95 a
day), user input and norms never. The kind comes from the source name (Config.freshness.source_kinds).
Age counts from `observed_at`, else from `loaded_at`; a fact with neither is fresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from kgbrain.config import FreshnessConfig
from kgbrain.knowledge import Fact, Status


def fact_kind(source: str, config: FreshnessConfig) -> str:
    """The kind of fact a source gives ('scientific', 'news', 'user', 'norm', ...)."""
    for prefix, kind in config.source_kinds.items():
        if source.startswith(prefix):
            return kind
    return config.default_kind


def freshness(fact: Fact, now: datetime, config: FreshnessConfig) -> float:
    """factor ** age_days for the fact's kind; 1.0 for kinds that do not decay or facts without a date."""
    factor = config.daily_factor.get(fact_kind(fact.source, config), config.daily_factor[config.default_kind])
    stamp = fact.observed_at or fact.loaded_at
    if stamp is None or factor >= 1.0:
        return 1.0
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=timezone.utc)
    age_days = max(0.0, (now - stamp).total_seconds() / 86400.0)
    return float(factor**age_days)


def render_fact(fact: Fact) -> str:
    """`subject predicate object` (with NOT for a negative fact)."""
    return f"{fact.subject} {'' if fact.polarity else 'NOT '}{fact.predicate} {fact.target}"


@dataclass(frozen=True, slots=True)
class EvidencePack:
    """A fact with what retrieval learnt about it (seed 001 EvidencePack)."""

    evidence_id: str  # the fact id
    content: str  # "neuron causes signal_transmission"
    fact: Fact
    concept_refs: tuple[str, ...]
    source_refs: tuple[str, ...]
    confidence: float
    trust: float
    timestamp: str | None
    relevance_score: float
    freshness_score: float
    retrieval_stage: int  # 1 broad, 2 filtered, 3 reranked
    graph_distance: int = 1  # hops from the question's concepts (1: the fact touches one of them)
    memory_type: str = "semantic"
    modality: str = "text"
    contradiction_flags: tuple[str, ...] = ()
    supports_hypotheses: tuple[str, ...] = field(default=())

    @property
    def usable(self) -> bool:
        """Active (not outdated, disputed or retracted)."""
        return self.fact.status is Status.ACTIVE

    @classmethod
    def of(
        cls,
        fact: Fact,
        *,
        relevance: float,
        now: datetime,
        config: FreshnessConfig,
        stage: int,
        distance: int = 1,
    ) -> EvidencePack:
        """Wrap a fact."""
        stamp = fact.observed_at or fact.loaded_at
        refs = (fact.subject,) if fact.object is None else (fact.subject, fact.object)
        return cls(
            evidence_id=fact.fact_id,
            content=render_fact(fact),
            fact=fact,
            concept_refs=refs,
            source_refs=(fact.source,) if fact.source else (),
            confidence=fact.confidence,
            trust=fact.trust,
            timestamp=stamp.isoformat() if stamp else None,
            relevance_score=relevance,
            freshness_score=freshness(fact, now, config),
            retrieval_stage=stage,
            graph_distance=distance,
        )
