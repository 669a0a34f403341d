"""The front door: `materialise(engine=...)` and the `use_engine` setting pick the engine, nothing else does."""

from __future__ import annotations

import threading

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest.rule_syntax import parse_program
from kgbrain.reasoning.rules import cypher_engine, memory_engine
from kgbrain.reasoning.rules.materialisation import current_engine, materialise, use_engine
from kgbrain.reasoning.rules.rulebase import save_program

RULES = "[anc] ancestor(X, Y) :- parent(X, Y).\n"


def test_use_engine_sets_the_default_for_its_context_only() -> None:
    assert current_engine() == "memory"
    seen: list[str] = []
    with use_engine("cypher"):
        assert current_engine() == "cypher"
        other = threading.Thread(target=lambda: seen.append(current_engine()))
        other.start()
        other.join()
    assert current_engine() == "memory"
    assert seen == ["memory"]  # another thread keeps its own setting


def test_an_unknown_engine_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown rule engine 'datalog'"), use_engine("datalog"):  # type: ignore[arg-type]
        pass
    with Brain.open(None) as brain, pytest.raises(InputError, match="unknown rule engine"):
        materialise(brain.store, parse_program(RULES, "t.dl"), engine="datalog")  # type: ignore[arg-type]


@pytest.mark.parametrize("setting", [None, "memory", "cypher"])
@pytest.mark.parametrize("engine", [None, "memory", "cypher"])
def test_the_engine_argument_wins_over_the_setting(
    monkeypatch: pytest.MonkeyPatch, engine: str | None, setting: str | None
) -> None:
    ran: list[str] = []
    real_memory, real_cypher = memory_engine.materialise_memory, cypher_engine.materialise_cypher
    monkeypatch.setattr(memory_engine, "materialise_memory", lambda *a, **k: ran.append("memory") or real_memory(*a))
    monkeypatch.setattr(
        "kgbrain.reasoning.rules.materialisation.materialise_cypher",
        lambda *a, **k: ran.append("cypher") or real_cypher(*a, **k),
    )
    program = parse_program(RULES, "t.dl")
    with Brain.open(None) as brain, use_engine(setting or "memory"):  # type: ignore[arg-type]
        _, new, _ = save_program(brain.store, program)
        report = materialise(brain.store, program, full=new, engine=engine)  # type: ignore[arg-type]
    assert ran == [engine or setting or "memory"]
    assert report.derived == 0  # no facts: both engines agree there is nothing to derive
