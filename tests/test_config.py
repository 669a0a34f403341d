"""The one configuration object: seed defaults, TOML overrides, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.config import CONFIG_ENV, Config, config_from_dict, load_config
from kgbrain.errors import InputError


def test_defaults_are_the_seed_values() -> None:
    c = Config()
    assert c.policy.min_confidence == 0.4
    assert c.policy.max_retries == 2
    assert (c.resources.soft_on, c.resources.soft_off, c.resources.hard_on, c.resources.hard_off) == (70, 60, 85, 75)
    assert c.rings.low_confidence == 0.60
    assert c.rings.novelty == 0.7
    assert c.rings.priority == 0.8
    assert c.freshness.daily_factor["scientific"] == 0.999
    assert c.freshness.daily_factor["news"] == 0.95
    assert c.logs.max_bytes == 100 * 2**20
    assert c.logs.retention_days == 30


def test_toml_overrides_nested_tables(tmp_path: Path) -> None:
    path = tmp_path / "kgbrain.toml"
    path.write_text(
        "[salience]\nurgency = 0.4\nurgency_keywords = ['срочно']\n\n"
        "[goal_limits.answer_question]\nstep_limit = 4\n\n"
        "[goal_limits.summarise]\nstep_limit = 2\ntime_limit_ms = 100.0\n"
        "confidence_threshold = 0.7\nstability_window = 1\n",
        encoding="utf-8",
    )
    c = load_config(path)
    assert c.salience.urgency == 0.4
    assert c.salience.urgency_keywords == ("срочно",)
    assert c.goal_limits["answer_question"].step_limit == 4
    assert c.goal_limits["answer_question"].time_limit_ms == 200.0
    assert c.limits("summarise").step_limit == 2
    assert Config().salience.urgency == 0.35  # the defaults are untouched


def test_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[policy]\nmin_confidence = 0.5\n", encoding="utf-8")
    monkeypatch.setenv(CONFIG_ENV, str(path))
    assert load_config().policy.min_confidence == 0.5
    monkeypatch.delenv(CONFIG_ENV)
    assert load_config() == Config()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"salience": {"urgncy": 0.4}}, "config.salience: unknown key 'urgncy'"),
        ({"policy": {"max_retries": 1.5}}, "config.policy.max_retries: expected an integer"),
        ({"policy": {"min_confidence": "high"}}, "config.policy.min_confidence: expected a number"),
        ({"policy": 3}, "config.policy: expected a table"),
        ({"goal_limits": {"new_goal": {"step_limit": 2}}}, "needs every field of GoalLimits"),
    ],
)
def test_bad_values_name_the_key(data: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        config_from_dict(data)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[salience\n", encoding="utf-8")
    with pytest.raises(InputError, match="is not valid TOML"):
        load_config(bad)
