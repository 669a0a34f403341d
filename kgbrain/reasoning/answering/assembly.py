"""Assembling an `Answer`: the labels of the concepts it names, its sources and the action its confidence allows.

Every intent handler (intents.py) ends here, so two answers with the same finding are worded from the same data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgbrain.language import display_name
from kgbrain.reasoning.answers import Answer, SourceRef
from kgbrain.reasoning.nlu.question import Question
from kgbrain.reasoning.results import Mode, Outcome, Trace
from kgbrain.reasoning.uncertainty import HIGH_CONFIDENCE, LOW_CONFIDENCE, uncertainty_level
from kgbrain.store.protocol import GraphStore, Lookups


def concept_rows(store: GraphStore, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Concept id -> its labels, kind and descriptions, for the ids that name a concept.

    Raises:
        StoreError: the store failed.
    """
    return {r["id"]: r for cid in dict.fromkeys(ids) for r in store.run("link_label", id=cid)}


def source_refs(store: Lookups, names: Sequence[str]) -> tuple[SourceRef, ...]:
    """The named sources with their trust and authority tier, in the given order.

    Raises:
        StoreError: the store failed.
    """
    if not names:
        return ()
    found = {r["name"]: r for r in store.run("ded_sources", names=list(names))}
    return tuple(
        SourceRef(n, found[n]["trust"] if n in found else None, found[n]["authority"] if n in found else None)
        for n in names
    )


def choose_action(confidence: float) -> str:
    """Respond plainly above HIGH_CONFIDENCE, hedged above LOW_CONFIDENCE, else report the uncertainty."""
    if confidence > HIGH_CONFIDENCE:
        return "respond"
    if confidence > LOW_CONFIDENCE:
        return "respond_hedged"
    return "report_uncertainty"


def finish(
    store: GraphStore,
    q: Question,
    mode: Mode,
    confidence: float,
    trace: Trace,
    data: dict[str, Any],
    concepts: Sequence[str],
    *,
    outcome: Outcome | None = None,
    suggestions: tuple[str, ...] = (),
    action: str | None = None,
    ids: Sequence[str] = (),
    hypothesis: bool = False,
) -> Answer:
    """The answer to `q` with what a handler found: `concepts` are the linked ones, `ids` further concepts the
    wording names (both get labels in the question's language); the trace's sources are named with their tier.

    Raises:
        StoreError: the store failed.
    """
    info = concept_rows(store, [*concepts, *ids]) if (concepts or ids) else {}
    labels = {
        cid: r.get(f"label_{q.language}") or r.get("label_en") or r.get("label_ru") or display_name(cid)
        for cid, r in info.items()
    }
    # The predicates the wording says, by their label in the question's language only («растёт в» for grows_in;
    # no label there: the wording's own table or the id's words)
    for pid, r in concept_rows(store, sorted(_predicates_in(data) - labels.keys())).items():
        if r.get(f"label_{q.language}"):
            labels[pid] = r[f"label_{q.language}"]
    confidence = round(confidence, 4)
    return Answer(
        question=q.text,
        language=q.language,
        intent=q.intent.value,
        confidence=confidence,
        uncertainty=uncertainty_level(confidence),
        action=action or choose_action(confidence),
        mode=mode,
        outcome=outcome,
        concepts=tuple(concepts),
        sources=source_refs(store, trace.sources),
        trace=trace,
        suggestions=suggestions,
        hypothesis=hypothesis,
        data=data,
        labels=labels,
    )


def _predicates_in(data: dict[str, Any]) -> set[str]:
    """The predicate ids an answer's data names: its predicate, a path's predicates, its facts', relations' and
    a comparison's."""
    found = {str(data["predicate"])} if isinstance(data.get("predicate"), str) else set()
    found |= {str(p) for p in data.get("predicates", ()) if isinstance(p, str)}
    found |= {str(row[1]) for row in data.get("facts", ()) if isinstance(row, (list, tuple)) and len(row) > 2}
    found |= {str(row[0]) for row in data.get("relations", ()) if isinstance(row, (list, tuple)) and len(row) == 2}
    # a comparison's statements: shared (p, o); only (s, p, o); contrasts (s, p, o, other); links (s, p, o, polarity)
    for key, at in (("shared", 0), ("only", 1), ("contrasts", 1), ("links", 1)):
        found |= {str(row[at]) for row in data.get(key, ()) if isinstance(row, (list, tuple)) and len(row) > at}
    return found
