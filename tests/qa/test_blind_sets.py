"""The blind sets D1 (beekeeping) and D2 (inland water transport) as regression sets (#26 item 6).

Each was written for this project by a writer who never read the code or tests/qa (see blind_d1/README.md). Every
question listed in the set's `right.txt` (those answered right when the list was last measured) must stay right,
graded by the writers' own rules (blind_grade.py) on the body `ask --json` / HTTP `/v1/ask` returns; the list is
the floor, raised as more are answered: `python -m tests.qa.test_blind_sets` prints each set's right ids.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.models import AskOut
from tests.qa.blind_grade import grade

HERE = Path(__file__).parent
SETS = ("blind_d1", "blind_d2")
KB_FILES = ("concepts", "decl", "facts", "values", "norms")


def questions(name: str) -> dict[str, dict[str, Any]]:
    rows = (json.loads(line) for line in (HERE / name / "questions.jsonl").read_text("utf-8").splitlines() if line)
    return {q["id"]: q for q in rows}


def right_ids(name: str) -> list[str]:
    return (HERE / name / "right.txt").read_text("utf-8").split()


def open_set(name: str) -> Brain:
    brain = Brain.open(None)
    brain.load([HERE / name / "kb" / f"{f}.jsonl" for f in KB_FILES])
    return brain


def answer(brain: Brain, question: str) -> dict[str, Any]:
    """The `/v1/ask` body for `question`, from the same state for every question (as the server asks)."""
    brain.cognition.loop.reset()
    return AskOut.from_output(brain.think(question)).model_dump()


@pytest.fixture(scope="module")
def brains() -> Iterator[dict[str, Brain]]:
    opened = {name: open_set(name) for name in SETS}
    yield opened
    for b in opened.values():
        b.close()


CASES = [(name, qid) for name in SETS for qid in right_ids(name)]


def test_the_floors_are_lists_of_the_sets_questions() -> None:
    for name in SETS:
        asked, right = questions(name), right_ids(name)
        assert len(asked) == 180
        assert len(set(right)) == len(right)
        assert set(right) <= set(asked)
        assert len(right) >= 0.8 * len(asked)  # the floor measured when the sets joined (D1 92 %, D2 83 %)


@pytest.mark.parametrize(("name", "qid"), CASES, ids=[f"{n}-{q}" for n, q in CASES])
def test_a_blind_question_answered_right_stays_right(brains: dict[str, Brain], name: str, qid: str) -> None:
    q = questions(name)[qid]
    got = answer(brains[name], q["question"])
    assert grade(q, got) == ("right", ""), got["answer"]


if __name__ == "__main__":  # print the ids answered right now, the next floor
    for set_name in sys.argv[1:] or SETS:
        b = open_set(set_name)
        ok = [i for i, q in questions(set_name).items() if grade(q, answer(b, q["question"]))[0] == "right"]
        b.close()
        (HERE / set_name / "right.txt").write_text("\n".join(ok) + "\n", encoding="utf-8")
        print(set_name, len(ok))
