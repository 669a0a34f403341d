"""Normative statements and authority tiers (seed 003): which predicates answer a norm question, and how the
higher tier of two disagreeing sources decides one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.answers import SourceRef
from kgbrain.reasoning.results import Check, Outcome, Step, Trace
from kgbrain.reasoning.views.evidence_rows import Evidence
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy

# Which stored predicates answer a normative question (seed 003: NORM/OPERATIVE facts decide).
NORM_PREDICATES: dict[str, tuple[str, ...]] = {
    "permission": ("permitted",),
    "obligation": ("requires", "obliged_to"),
}
NORMATIVE = frozenset(p for ps in NORM_PREDICATES.values() for p in ps)
AUTHORITY_RANK = {"NORM": 4, "OPERATIVE": 3, "GUIDANCE": 2, "COMMENTARY": 1}


def by_authority(
    check: Check,
    graph: FactGraph,
    hierarchy: Hierarchy,
    sources: Callable[[Sequence[str]], tuple[SourceRef, ...]],
) -> Check:
    """Seed 003: between disagreeing sources, the higher authority tier (NORM > OPERATIVE > GUIDANCE >
    COMMENTARY) decides a normative statement; a tie stays CONFLICTING. `Reasoner.decide` applies it, so a
    norm question and a verified claim get one verdict.

    The ranked facts are the active `subject predicate object` facts of the subject and its ancestors that
    the check's own trace cites (one step may cite both sides, so steps are not ranked themselves).

    Raises:
        StoreError: the store failed.
    """
    cited = {f for st in check.trace.steps for f in st.facts}
    g = graph
    holders = [check.subject, *hierarchy.ancestors(check.subject)] if check.subject in g.index else []
    facts = [
        e
        for h in holders
        for e in g.out(h)
        if e.predicate == check.predicate and e.object == check.object and e.active and e.fact_id in cited
    ]
    refs = {s.name: s for s in sources(sorted({e.source for e in facts if e.source}))}
    best: dict[bool, tuple[int, float, Evidence]] = {}
    for e in facts:
        tier = AUTHORITY_RANK.get(refs[e.source].authority or "", 0) if e.source in refs else 0
        current = best.get(e.polarity)
        if current is None or (tier, e.confidence) > current[:2]:
            best[e.polarity] = (tier, e.confidence, e)
    if len(best) < 2 or best[True][0] == best[False][0]:
        return check
    winner = max(best, key=lambda p: best[p][0])
    _, confidence, fact = best[winner]
    loser = best[not winner][2]
    # RULE norm.authority: a norm of a higher authority tier overrides a lower one (seed 003)
    rule = Step(
        R.NORM_AUTHORITY,
        fact.statement(),
        (fact.fact_id,),
        (fact.source,),
        round(confidence, 4),
        f"{fact.source} ({refs[fact.source].authority}) outranks {loser.source} ({refs[loser.source].authority})"
        if fact.source in refs and loser.source in refs
        else f"{fact.source} outranks {loser.source}",
    )
    outcome = Outcome.SUPPORTED if winner == check.polarity else Outcome.REFUTED
    return replace(check, outcome=outcome, confidence=confidence, trace=Trace((*check.trace.steps, rule)))
