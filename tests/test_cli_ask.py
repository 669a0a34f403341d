"""`kgbrain ask` through the cognitive loop (--trace, --json, --config) and `kgbrain check-answer`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.cli import cli

RULES = Path(__file__).resolve().parent / "fixtures" / "rules" / "seed003.toml"


@pytest.fixture
def db(demo_db: Path, tmp_path: Path) -> Path:
    """A private copy of the demo knowledge base (ask records its success history)."""
    for f in demo_db.parent.iterdir():
        if f.name.startswith(demo_db.name) and f.is_file():
            shutil.copy2(f, tmp_path / f.name)
    return tmp_path / demo_db.name


@pytest.fixture
def no_block(tmp_path: Path) -> Path:
    """A config that never blocks Ring 2, so the result does not depend on the machine's load."""
    path = tmp_path / "kgbrain.toml"
    path.write_text(
        "[resources]\nhard_on = 101.0\nhard_off = 100.0\nsoft_on = 101.0\nsoft_off = 100.0\n", encoding="utf-8"
    )
    return path


def test_ask_trace_shows_goal_hypotheses_action_why_and_alternatives(db: Path, no_block: Path) -> None:
    r = CliRunner().invoke(
        cli, ["--db", str(db), "ask", "Почему нейроны важны для мышления?", "--trace", "--config", str(no_block)]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("Вероятно, нейроны важны для мышления.")
    text = r.output
    for part in (
        "  Goal:         answer_question(Почему нейроны важны для мышления?)",
        "  Reasoning:    causal [нейрон → передача сигналов → мышление]",
        "  Action:       respond_hedged",
        "  Hypotheses:",
        "  Why:          confidence=0.78 (medium) -> hedging applied",
        "  Alternatives:",
        "[cau.chain] neuron causes signal_transmission",
    ):
        assert part in text


def test_ask_json_keeps_the_contract_and_adds_the_loop(db: Path, no_block: Path) -> None:
    r = CliRunner().invoke(
        cli, ["--db", str(db), "ask", "Does a neuron have DNA?", "--json", "--config", str(no_block)]
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    for key in (
        "answer",
        "language",
        "confidence",
        "uncertainty_level",
        "action",
        "reasoning_type",
        "sources",
        "trace",
    ):
        assert key in d
    assert d["language"] == "en"
    assert d["action"] == "respond_direct"
    assert d["reasoning_type"] == "deductive"
    assert d["goal"]["type"] == "verify_claim"
    assert d["ring"] == 2
    assert any(h["type"] == "deductive" and h["statement"] == "neuron has_property dna" for h in d["hypotheses"])
    assert {a["action"] for a in d["alternatives"]} >= {"respond_hedged", "refuse"}
    assert all(not p["executed"] for p in d["proposed_actions"])
    assert d["validation"]["passed"] is True
    assert d["trace"][0]["rule"].startswith("ded.")


def test_ask_goal_and_bad_config(db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[salience]\nurgncy = 1\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["--db", str(db), "ask", "What is a neuron?", "--config", str(bad)])
    assert r.exit_code == 2
    assert "Error: " in r.output
    assert "unknown key 'urgncy'" in r.output
    r = CliRunner().invoke(cli, ["--db", str(db), "ask", "What is a neuron?", "--goal", "dance"])
    assert r.exit_code == 2


def test_check_answer_reads_stdin_and_applies_rules(db: Path) -> None:
    draft = "Нельзя использовать СИЗ с истёкшим сертификатом: выкиньте их."
    args = ["--db", str(db), "check-answer", "-", "--rules", str(RULES), "--question", "Можно ли использовать СИЗ?"]
    r = CliRunner().invoke(cli, args, input=draft)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Важно: истёкший сертификат")
    r = CliRunner().invoke(cli, [*args, "--json"], input=draft)
    d = json.loads(r.output)
    assert d["critical"] is True
    assert d["rules"] == [
        {"id": "tr_ts_019_certificate_vs_lifetime", "title": d["rules"][0]["title"], "severity": "critical"}
    ]


def test_check_answer_empty_draft_is_a_usage_error(db: Path) -> None:
    r = CliRunner().invoke(cli, ["--db", str(db), "check-answer", "-"], input="  ")
    assert r.exit_code == 2
    assert "Error: the draft answer is empty" in r.output
