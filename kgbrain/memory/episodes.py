"""Episodic memory (seed 001's third memory): what was asked, how it was understood and answered, from which facts.

An episode is stored when recording is on (`ask --record`, and every question of a conversation). Retrieval
returns the latest episodes about a question's concepts beside the facts, as evidence of `memory_type =
"episodic"` ("episodic:ep_…" in the trace and digest); an episode is never proof of a fact. A person's
correction ("No, that is wrong: …") is stored linked to the episode it corrects. Episodes are the one thing a
person may delete: `forget_before` removes those asked before a time, with their corrections, and says how many.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from kgbrain.errors import InputError, UnknownItem
from kgbrain.store.protocol import GraphStore
from kgbrain.store.schema import EPISODES_VERSION
from kgbrain.timeline import parse_from, utc

RECALLED = 3  # episodes retrieval returns beside the facts


@dataclass(frozen=True, slots=True)
class Correction:
    """A person's correction of an episode: what they said, who, and when."""

    id: str
    text: str
    by: str
    made_at: datetime

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (an episode's `correction_records`)."""
        return {"id": self.id, "text": self.text, "by": self.by, "made_at": _iso(self.made_at)}


@dataclass(frozen=True, slots=True)
class Episode:
    """One recorded answer."""

    id: str
    question: str
    intent: str
    concepts: tuple[str, ...]
    answer: str
    outcome: str
    confidence: float
    fact_ids: tuple[str, ...]
    asked_at: datetime
    channel: str
    session: str = ""
    as_of: str = ""
    corrections: tuple[str, ...] = ()  # their texts, oldest first
    correction_records: tuple[Correction, ...] = ()  # the same with who made each and when

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Episode:
        """Build from an episode_list / episodes_about row."""
        texts, ids = row["corrections"] or (), row.get("correction_ids") or ()
        by, at = row.get("corrected_by") or (), row.get("corrected_at") or ()
        made = tuple(
            sorted(
                (Correction(i, t, b or "", utc(m)) for t, i, b, m in zip(texts, ids, by, at, strict=True) if t and i),
                key=lambda c: (c.made_at, c.id),
            )
        )
        return cls(
            id=row["id"],
            question=row["question"],
            intent=row["intent"] or "",
            concepts=tuple(row["concepts"] or ()),
            answer=row["answer"] or "",
            outcome=row["outcome"] or "",
            confidence=float(row["confidence"] or 0.0),
            fact_ids=tuple(row["fact_ids"] or ()),
            asked_at=utc(row["asked_at"]),
            channel=row["channel"] or "",
            session=row["session"] or "",
            as_of=row["as_of"] or "",
            corrections=tuple(c.text for c in made),
            correction_records=made,
        )

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (`kgbrain history --json`, MCP recall, AskOut.episodes)."""
        return {
            "id": self.id,
            "question": self.question,
            "intent": self.intent,
            "concepts": list(self.concepts),
            "answer": self.answer,
            "outcome": self.outcome,
            "confidence": round(self.confidence, 4),
            "fact_ids": list(self.fact_ids),
            "asked_at": _iso(self.asked_at),
            "channel": self.channel,
            "session": self.session,
            "as_of": self.as_of,
            "corrections": list(self.corrections),
            "corrected_by": [c.by for c in self.correction_records],
            "correction_records": [c.as_dict() for c in self.correction_records],
        }


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def has_episodes(store: GraphStore) -> bool:
    """The store's schema has episodes."""
    return store.schema_version >= EPISODES_VERSION


def _stamp(when: datetime) -> str:
    # Kùzu's timestamp() reads this form; naive UTC, as every TIMESTAMP column holds.
    return utc(when).strftime("%Y-%m-%d %H:%M:%S.%f")


def record(
    store: GraphStore,
    *,
    question: str,
    intent: str,
    concepts: Sequence[str],
    answer: str,
    outcome: str,
    confidence: float,
    fact_ids: Sequence[str],
    channel: str,
    session: str = "",
    as_of: str = "",
    now: datetime | None = None,
) -> Episode:
    """Store one episode and return it.

    Raises:
        StoreError: the store failed or is read-only.
    """
    asked = utc(now or datetime.now(timezone.utc))
    digest = hashlib.sha256(f"{asked.isoformat()}\x1f{channel}\x1f{session}\x1f{question}".encode()).hexdigest()
    episode = Episode(
        id=f"ep_{digest[:16]}",
        question=question,
        intent=intent,
        concepts=tuple(dict.fromkeys(concepts)),
        answer=answer,
        outcome=outcome,
        confidence=confidence,
        fact_ids=tuple(dict.fromkeys(fact_ids)),
        asked_at=asked,
        channel=channel,
        session=session,
        as_of=as_of,
    )
    with store.transaction():
        store.run(
            "episode_add",
            id=episode.id,
            question=question,
            intent=intent,
            concepts=list(episode.concepts),
            answer=answer,
            outcome=outcome,
            confidence=float(confidence),
            fact_ids=list(episode.fact_ids),
            asked_at=_stamp(asked),
            channel=channel,
            session=session,
            as_of=as_of,
        )
    return episode


def listed(store: GraphStore, *, concept: str = "", since: str | None = None) -> list[Episode]:
    """Episodes (oldest first), about `concept` when given, asked at or after `since` (a date or date-time).

    Raises:
        InvalidTime: `since` is not a date or date-time.
        StoreError: the store failed.
    """
    if not has_episodes(store):
        return []
    start = parse_from(since) if since else datetime(1, 1, 1, tzinfo=timezone.utc)
    return [Episode.from_row(r) for r in store.run("episode_list", since=_stamp(start), concept=concept)]


def about(store: GraphStore, concepts: Sequence[str], limit: int = RECALLED) -> tuple[Episode, ...]:
    """The latest episodes about any of `concepts` (most recent first): retrieval's episodic evidence.

    Raises:
        StoreError: the store failed.
    """
    if not concepts or not has_episodes(store):
        return ()
    return tuple(Episode.from_row(r) for r in store.run("episodes_about", concepts=list(concepts), limit=limit))


def forget_before(store: GraphStore, before: str) -> int:
    """Remove the episodes asked before `before` (a date or date-time) with their corrections; how many went.

    Raises:
        InvalidTime: `before` is not a date or date-time.
        StoreError: the store failed or is read-only.
    """
    if not has_episodes(store):
        return 0
    stamp = _stamp(parse_from(before))
    with store.transaction():
        count = int(store.run("episodes_before_count", before=stamp)[0]["episodes"])
        store.run("episodes_forget_corrections", before=stamp)
        store.run("episodes_forget", before=stamp)
    return count


def correct(store: GraphStore, episode_id: str, text: str, *, by: str, now: datetime | None = None) -> str:
    """Store a person's correction of an episode; its id.

    Raises:
        InputError: no episode has this id, or the text is empty.
        StoreError: the store failed or is read-only.
    """
    if not text.strip():
        raise InputError("the correction is empty; say what is wrong")
    if not has_episodes(store) or not store.run("episode_get", id=episode_id):
        raise UnknownItem(f"Unknown episode {episode_id!r} (kgbrain history lists them)")
    made = utc(now or datetime.now(timezone.utc))
    cid = "co_" + hashlib.sha256(f"{episode_id}\x1f{made.isoformat()}\x1f{text}".encode()).hexdigest()[:16]
    with store.transaction():
        store.run("correction_add", episode=episode_id, id=cid, text=text, by=by, made_at=_stamp(made))
    return cid


def last_of_session(store: GraphStore, session: str) -> str | None:
    """The id of a conversation's latest episode (None: it has none).

    Raises:
        StoreError: the store failed.
    """
    if not has_episodes(store):
        return None
    rows = store.run("episode_last_of_session", session=session)
    return str(rows[0]["id"]) if rows else None
