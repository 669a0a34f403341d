"""A server answers each question from the same state: what other clients asked before changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from kgbrain.config import load_config
from kgbrain.service.core import Service
from tests.service.conftest import copy_kb

EARLIER = [
    "What is a neuron?",
    "Срочно! Опасно ли использовать СИЗ с истёкшим сертификатом?",
    "Why is sleep important for memory?",
    "Is a neuron a cell?",
    "Что такое синапс?",
]


def _answers(db: Path, config: Path, questions: list[str]) -> list[dict[str, Any]]:
    service = Service(db, read_only=True)
    service.reader.config = load_config(config)
    try:
        bodies = [asyncio.run(service.ask(q)).model_dump(exclude={"latency_ms"}) for q in questions]
    finally:
        service.close()
    for body in bodies:  # the digest's timing and resource line is the machine's, not the answer's
        body["digest"] = "\n".join(line for line in body["digest"].splitlines() if "Duration:" not in line)
    return bodies


def test_an_answer_is_the_same_alone_and_after_other_questions(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    db = copy_kb(demo_db, tmp_path / "kb")
    after = _answers(db, no_block, [*EARLIER, *EARLIER])
    for n, question in enumerate(EARLIER):
        [alone] = _answers(db, no_block, [question])
        # Whole bodies, trace and digest included (it numbers the cycle and shows the salience from working memory).
        assert after[n] == alone, question
        assert after[len(EARLIER) + n] == alone, question


def _asks_under(db: Path, config: Path, loads: list[float], question: str) -> list[dict[str, Any]]:
    # The server's own resource monitor, driven through a CPU profile (one reading per question).
    service = Service(db, read_only=True)
    service.reader.config = load_config(config)
    readings = iter(loads)
    service.reader.cognition.loop.monitor._sampler = lambda: (next(readings), 10.0)
    try:
        return [asyncio.run(service.ask(question)).model_dump(include={"answer", "ring", "trace"}) for _ in loads]
    finally:
        service.close()


def test_an_answer_cut_short_by_load_is_not_served_later(demo_db: Path, tmp_path: Path) -> None:
    db = copy_kb(demo_db, tmp_path / "kb")
    default = tmp_path / "kgbrain.toml"  # the shipped thresholds: the hard block from 85 % CPU
    default.write_text("", encoding="utf-8")
    question = "Is a neuron a cell?"  # a verify_claim goal: Ring 2 is due
    busy, idle = _asks_under(db, default, [95.0, 5.0], question)
    assert busy["ring"] == 1
    assert idle["ring"] == 2, "the busy moment's answer was kept and served on an idle machine"
    assert busy["answer"] == idle["answer"]  # only optional work was dropped
    # An answer computed without constraint is kept until the next commit, load or not.
    first, later = _asks_under(db, default, [5.0, 95.0], question)
    assert first == later
    assert later["ring"] == 2
