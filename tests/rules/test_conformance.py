"""datalog-conformance (PyPI, MIT) through kgbrain: every case kgbrain can express passes.

Cases needing what kgbrain does not express are counted as out of scope with the reason (see
conformance_adapter.py); the README lists the counts by tag.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datalog_conformance import schema
from datalog_conformance.plugin import discover_yaml_tests
from datalog_conformance.runner import ConformanceFailure, YamlTestRunner

from tests.rules.conformance_adapter import KgbrainDatalog, KgbrainDefeasible, KgbrainRuleError, OutOfScope

# The LUBM-shaped Souffle cases (16k facts, 40 cases) each take minutes in the Kùzu engine: measured, not
# run here (bench/ territory); the README counts them as not run.
SLOW = "souffle_example_lubm"
CASES = [(p, c) for p, c in discover_yaml_tests() if SLOW not in p.name]


def _area(path: Path) -> str:
    parts = path.parts
    i = parts.index("_tests")
    return "/".join(parts[i + 1 : i + 3]) if parts[i + 1] == "defeasible" else parts[i + 1]


def _outcome(case: schema.TestCase) -> str:
    if case.skip:
        return "skipped by the suite"
    if case.klm_property is not None:
        return "out: KLM property cases need satisfies_klm_property"
    if case.theory is not None and case.expect_per_policy is None and isinstance(case.expect, dict):
        other = set(case.expect) - {"definitely", "defeasibly"}
        if other:
            return f"out: section(s) {', '.join(sorted(other))} (kgbrain stores what holds, not what fails)"
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


@pytest.mark.parametrize(("path", "case"), CASES, ids=[c.name for _, c in CASES])
def test_case_passes_or_is_out_of_scope(path: Path, case: schema.TestCase) -> None:
    outcome = _outcome(case)
    assert outcome == "pass" or outcome.startswith(("out: ", "skipped")), outcome


def conformance_counts() -> Counter[tuple[str, str]]:
    """(area, pass/out reason) counts over the whole corpus (for the README)."""
    counts: Counter[tuple[str, str]] = Counter()
    for path, case in CASES:
        try:
            outcome = _outcome(case)
        except Exception as exc:
            outcome = f"FAIL: {str(exc)[:200]}"
        counts[(_area(path), outcome)] += 1
    return counts


if __name__ == "__main__":
    for (area, outcome), n in sorted(conformance_counts().items()):
        print(f"{area:32} {n:3}  {outcome}")
