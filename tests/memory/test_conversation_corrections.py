"""Corrections inside a conversation (#24 item 2): "No, that is wrong: …" / «Нет, это неверно: …» corrects the last
answer; in a recorded conversation (`kgbrain chat --record`, every HTTP and MCP session) it is stored linked to that
answer's episode, with who made it (channel:session), and is no episode itself. The conversation goes on from the
corrected question.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.config import load_config
from kgbrain.reasoning.cognition.conversation import is_correction
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK
from tests.time.seasons import cli, http_posts, mcp_calls, rows

DIALOGUES = {
    "en": ["Who coached Zenit in 2010?", "No, that is wrong: it was Advocaat", "And in 2008?"],
    "ru": ["Кто был тренером Зенита в 2010 году?", "Нет, это неверно: тренером был Адвокат", "А в 2008 году?"],
}
FOLLOWED = {"en": "Advocaat", "ru": "Адвокат"}  # the coach in 2008: the conversation went on from the question


@pytest.mark.parametrize(
    "text",
    ["No, that is wrong: it was Advocaat", "No, that's wrong.", "That is incorrect: 1999", "Wrong: it is 12",
     "Нет, это неверно: тренером был Адвокат", "Это неправильно.", "Неверно: в 2008 году", "Вы ошибаетесь"],
)  # fmt: skip
def test_a_correction_is_recognised(text: str) -> None:
    assert is_correction(text)


@pytest.mark.parametrize(
    "text",
    ["Is that wrong?", "What is wrong with the coach?", "Нет ли у Зенита тренера?", "Неверно ли, что X — Y?",
     "Wrong answers are stored?", "Who coached Zenit in 2010?"],
)  # fmt: skip
def test_a_question_is_no_correction(text: str) -> None:
    assert not is_correction(text)


@pytest.fixture
def kb(tmp_path: Path) -> tuple[Path, Path]:
    config = tmp_path / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(tmp_path / "seasons.jsonl", rows())], source="registry")
    return db, config


def _history(db: Path) -> list[dict[str, Any]]:
    with Brain.open(db, read_only=True) as brain:
        return [e.as_dict() for e in brain.history()]


def _linked(db: Path, answers: dict[str, list[str]], by: dict[str, str]) -> None:
    """Each conversation's first answer carries its correction, by whom; the correction is no episode."""
    episodes = _history(db)
    for lang, dialogue in DIALOGUES.items():
        mine = [e for e in episodes if e["corrected_by"] == [by[lang]] or e["session"] == by[lang].split(":", 1)[1]]
        assert [e["question"] for e in mine] == [dialogue[0], dialogue[2]]
        first = mine[0]
        assert first["corrections"] == [dialogue[1]]
        assert first["corrected_by"] == [by[lang]]
        assert mine[1]["corrections"] == []
        said = answers[lang]
        assert first["id"] in said[1]  # the answer to the correction names the episode it was linked to
        assert said[1].startswith(("Noted your correction", "Записал поправку"))
        assert FOLLOWED[lang] in said[2]


def test_chat_record_links_a_correction_to_the_last_answer(kb: tuple[Path, Path]) -> None:
    db, config = kb
    answers, by = {}, {}
    for lang, dialogue in DIALOGUES.items():
        out = cli(db, config, "chat", "--record", "--json", stdin="".join(q + "\n" for q in dialogue))
        answers[lang] = [json.loads(line)["answer"] for line in out.splitlines()]
        sessions = {e["session"] for e in _history(db) if e["question"] == dialogue[0]}
        assert len(sessions) == 1
        by[lang] = f"cli:{sessions.pop()}"
        assert by[lang].startswith("cli:chat-")
    _linked(db, answers, by)
    assert {e["channel"] for e in _history(db)} == {"cli"}


def test_http_sessions_link_a_correction_to_the_last_answer(kb: tuple[Path, Path]) -> None:
    db, config = kb
    calls = [("/v1/ask", {"question": q, "session": f"h-{lang}"}) for lang, d in DIALOGUES.items() for q in d]
    got = http_posts(db, config, calls)
    answers = {"en": [a["answer"] for a in got[:3]], "ru": [a["answer"] for a in got[3:]]}
    _linked(db, answers, {"en": "http:h-en", "ru": "http:h-ru"})


def test_mcp_sessions_link_a_correction_to_the_last_answer(kb: tuple[Path, Path]) -> None:
    db, config = kb
    calls = [("ask", {"question": q, "session": f"m-{lang}"}) for lang, d in DIALOGUES.items() for q in d]
    got = mcp_calls(db, config, calls)
    answers = {"en": [a["answer"] for a in got[:3]], "ru": [a["answer"] for a in got[3:]]}
    _linked(db, answers, {"en": "mcp:m-en", "ru": "mcp:m-ru"})


def test_without_recording_a_correction_is_understood_but_not_stored(kb: tuple[Path, Path]) -> None:
    db, config = kb
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        for lang, dialogue in DIALOGUES.items():
            said = [brain.converse(q, session=lang).text for q in dialogue]
            assert said[1].startswith(("Understood as a correction", "Понял: это поправка")), said[1]
            assert dialogue[0] in said[1]
            assert FOLLOWED[lang] in said[2]
        # a correction with nothing before it is asked as it is
        alone = brain.converse("No, that is wrong: it was Advocaat", session="new")
        assert not alone.text.startswith(("Understood as a correction", "Noted your correction"))
    assert _history(db) == []
