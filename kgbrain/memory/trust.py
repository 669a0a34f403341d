"""Source trust: a stored, adjustable value per source (the Source table).

Conflict resolution reads it to pick a winner and writes it when a strategy says a source earned or lost
trust (seed 001: the weaker source of a value conflict loses 0.1, a person who overrides a conflict gains
0.05). The reasoner reads the same values, so an adjustment changes both at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kgbrain.errors import InputError
from kgbrain.knowledge import DEFAULT_TRUST
from kgbrain.store.protocol import GraphStore

# A person who overrides a conflict is a source too; their name is kept apart from document sources.
PERSON_PREFIX = "user/"


def person_source(name: str) -> str:
    """The source name under which a person's decisions are recorded (`user/<name>`)."""
    return name if name.startswith(PERSON_PREFIX) else PERSON_PREFIX + name


def clamp(value: float) -> float:
    """Keep a trust or confidence inside 0..1."""
    return min(1.0, max(0.0, value))


def get_trust(store: GraphStore, sources: Iterable[str]) -> dict[str, float]:
    """Current trust of each named source that is known (unknown ones are left out).

    Raises:
        StoreError: the store failed.
    """
    names = sorted(set(sources))
    if not names:
        return {}
    return {r["name"]: float(r["trust"]) for r in store.run("trust_get", names=names) if r["trust"] is not None}


def set_trust(store: GraphStore, trust: Mapping[str, float]) -> None:
    """Store new trust values (creating unknown sources).

    Raises:
        InputError: a value is outside 0..1.
        StoreError: the store failed.
    """
    for name, value in trust.items():
        if not 0.0 <= value <= 1.0:
            raise InputError(f"trust {value!r} for source {name!r} is outside 0..1")
    if trust:
        store.run("trust_set", rows=[{"name": n, "trust": float(v)} for n, v in sorted(trust.items())])


def adjust_trust(store: GraphStore, source: str, delta: float) -> tuple[float, float]:
    """Add `delta` to a source's trust (clamped to 0..1); an unknown source starts at the default 0.5.

    Returns:
        The trust before and after.

    Raises:
        StoreError: the store failed.
    """
    before = get_trust(store, [source]).get(source, DEFAULT_TRUST)
    after = clamp(before + delta)
    set_trust(store, {source: after})
    return before, after
