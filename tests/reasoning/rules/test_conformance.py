"""datalog-conformance (PyPI, MIT) through kgbrain: every case kgbrain can express passes.

Cases needing what kgbrain does not express are counted as out of scope with the reason (see
conformance_adapter.py); the README lists the counts by tag.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from datalog_conformance import schema
from datalog_conformance.plugin import _load_multi_case_file, get_tests_dir
from datalog_conformance.runner import ConformanceFailure, YamlTestRunner

from tests.reasoning.rules.conformance_adapter import (
    KgbrainDatalog,
    KgbrainDefeasible,
    KgbrainRuleError,
    OutOfScope,
    close_loaded,
)

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

# The LUBM-shaped Souffle cases: two files of 20 cases (17 MB each), every case of a file the same program
# checked on another predicate. They are read when they run (not at collection) and each program is
# evaluated once (`_Same`); the adapter takes its in-memory path for them (conformance_adapter.BIG).
BIG_FILES = "souffle_example_lubm"


def _read(path: Path) -> list[schema.TestCase]:
    # libyaml's loader: the suite's own discovery (pure-Python yaml.safe_load) takes over a minute of CPU
    raw = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    if isinstance(raw, dict) and "tests" in raw:
        return _load_multi_case_file(raw, path)
    return [] if raw is None else [schema.TestCase.from_dict(raw)]


@cache
def _big_cases(path: Path) -> dict[str, schema.TestCase]:
    return {case.name: case for case in _read(path)}


@cache
def _small_cases(path: Path) -> dict[str, schema.TestCase]:
    return {case.name: case for case in _read(path)}


def _discover() -> Iterator[tuple[Path, str]]:
    for path in sorted(get_tests_dir().rglob("*.yaml")):
        if BIG_FILES in path.name:
            names = re.findall(r"^- name: (\S+)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
            yield from ((path, name) for name in names)
        else:
            yield from ((path, name) for name in _small_cases(path))


def _case(path: Path, name: str) -> schema.TestCase:
    return (_big_cases if BIG_FILES in path.name else _small_cases)(path)[name]


CASES = list(_discover())


class _Same:
    """Evaluates a program once for consecutive cases that state the same one."""

    def __init__(self, evaluator: Any) -> None:
        self.evaluator = evaluator
        self.last: tuple[tuple[Any, ...], Any] | None = None

    def evaluate(self, *args: Any) -> Any:
        if self.last is None or self.last[0] != args:
            self.last = (args, self.evaluator.evaluate(*args))
        return self.last[1]


_SAME = {"program": _Same(KgbrainDatalog()), "theory": _Same(KgbrainDefeasible())}


@pytest.fixture(scope="module", autouse=True)
def _close_big() -> Iterator[None]:
    yield
    close_loaded()


def _area(path: Path) -> str:
    parts = path.parts
    i = parts.index("_tests")
    return "/".join(parts[i + 1 : i + 3]) if parts[i + 1] == "defeasible" else parts[i + 1]


def _outcome(case: schema.TestCase, *, shared: bool = False) -> str:
    if case.skip:
        return "skipped by the suite"
    if case.klm_property is not None:
        return "out: KLM property cases need satisfies_klm_property"
    if case.theory is not None and case.expect_per_policy is None and isinstance(case.expect, dict):
        other = set(case.expect) - {"definitely", "defeasibly"}
        if other:
            return f"out: section(s) {', '.join(sorted(other))} (kgbrain stores what holds, not what fails)"
    if shared:
        runner = YamlTestRunner(_SAME["theory" if case.theory is not None else "program"])
    else:
        runner = YamlTestRunner(KgbrainDefeasible() if case.theory is not None else KgbrainDatalog())
    try:
        runner.run_test_case(case)
    except OutOfScope as exc:
        return f"out: {exc}"
    except ConformanceFailure as exc:
        if isinstance(exc.__cause__, OutOfScope):
            return f"out: {exc.__cause__}"
        raise
    except KgbrainRuleError as exc:
        if case.expect_error is None and "unexpected" in str(exc):  # refused cleanly as unknown syntax
            return f"out: syntax the rule language does not have ({str(exc).split(': ', 1)[1]})"
        raise
    return "pass"


@pytest.mark.parametrize(("path", "name"), CASES, ids=[name for _, name in CASES])
def test_case_passes_or_is_out_of_scope(path: Path, name: str) -> None:
    big = BIG_FILES in path.name
    outcome = _outcome(_case(path, name), shared=big)
    if big:  # kgbrain expresses these (unary and binary atoms, recursion): they must pass
        assert outcome == "pass", outcome
    assert outcome == "pass" or outcome.startswith(("out: ", "skipped")), outcome


def conformance_counts() -> Counter[tuple[str, str]]:
    """(area, pass/out reason) counts over the whole corpus (for the README)."""
    counts: Counter[tuple[str, str]] = Counter()
    for path, name in CASES:
        try:
            outcome = _outcome(_case(path, name), shared=BIG_FILES in path.name)
        except Exception as exc:
            outcome = f"FAIL: {str(exc)[:200]}"
        counts[(_area(path), outcome)] += 1
    return counts


if __name__ == "__main__":
    for (area, outcome), n in sorted(conformance_counts().items()):
        print(f"{area:32} {n:3}  {outcome}")
