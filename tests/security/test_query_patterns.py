"""A SPARQL REGEX that backtracks without end (issue #22, blind attacker: `^(a+)+$` over a 5,000-character value
froze `kgbrain serve --timeout 4` and its /healthz for good). Patterns run on the `regex` engine within a budget
per query and never past the deadline of the request served: the query ends as a clear error, the CLI's too."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from kgbrain import patterns
from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError, ReadTimeout
from tests.conftest import write_jsonl
from tests.service.conftest import Server, copy_kb, env_with, wait_until

LONG = "a" * 5_000 + "!"
# Exponential on stdlib `re` and on `regex` alike (the attacker's `^(a+)+$` is one `regex` answers at once).
BACKTRACKS = "^(a|aa)+$"


def sparql(pattern: str) -> str:
    return f'SELECT ?s WHERE {{ ?s <note> ?v . FILTER regex(?v, "{pattern}") }}'


@pytest.fixture(scope="module")
def noted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("noted")
    rows = [
        {"subject": "long_one", "predicate": "note", "value": LONG},
        {"subject": "short_one", "predicate": "note", "value": "aaaa"},
    ]
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "notes.jsonl", rows)])
    return db


@pytest.mark.timeout(120)  # stdlib `re` never returns on these: the test fails rather than hangs
def test_a_backtracking_regex_uses_up_the_query_budget_and_says_so(
    noted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(patterns, "PATTERN_BUDGET_S", 0.3)
    with Brain.open(noted, read_only=True) as brain:
        started = time.monotonic()
        with pytest.raises(
            InputError, match=r"regex '\^\(a\|aa\)\+\$' ran past 0.3 s on a value of 5,001 characters; .*nested"
        ):
            brain.query(sparql(BACKTRACKS))
        assert time.monotonic() - started < 60  # bounded (generous: the regex timeout counts CPU, not wall time)
        monkeypatch.setattr(patterns, "PATTERN_BUDGET_S", 30.0)
        assert brain.query(sparql("^(a+)+$")).rows == (("short_one",),)  # the attacker's pattern, on `regex`
        assert brain.query(sparql("^a+$")).rows == (("short_one",),)
        with pytest.raises(InputError, match=r"SPARQL regex '\(a': missing \)"):
            brain.query(sparql("(a"))


@pytest.mark.timeout(120)
def test_a_regex_stops_at_the_request_deadline_as_a_timeout(noted: Path) -> None:
    with (
        Brain.open(noted, read_only=True) as brain,
        patterns.request_deadline(time.monotonic() + 0.3),
        pytest.raises(ReadTimeout, match=r"ran into the request's time limit on a value of 5,001 characters"),
    ):
        brain.query(sparql(BACKTRACKS))


def test_the_budget_is_shared_by_every_row_of_a_query(noted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each row's match is cheap but all of them together are not: the budget is the query's, not one call's.
    monkeypatch.setattr(patterns, "PATTERN_BUDGET_S", 0.0)
    with (
        Brain.open(noted, read_only=True) as brain,
        pytest.raises(InputError, match=r"ran past 0 s over all the values"),
    ):
        brain.query(sparql("^a+$"))


@pytest.mark.timeout(120)
def test_the_cli_query_ends_with_the_budget_error(noted: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "PATTERN_BUDGET_S", 0.3)
    result = CliRunner().invoke(cli, ["--db", str(noted), "query", sparql(BACKTRACKS)])
    assert result.exit_code == 2, result.output
    assert "ran past 0.3 s" in result.output
    monkeypatch.setattr(patterns, "PATTERN_BUDGET_S", 30.0)
    result = CliRunner().invoke(cli, ["--db", str(noted), "query", "--json", sparql("^(a+)+$")])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rows"] == [{"s": "short_one"}]


@pytest.mark.timeout(300)
def test_a_served_backtracking_query_times_out_and_the_server_answers_meanwhile(
    noted: Path, no_block: Path, tmp_path: Path
) -> None:
    db = copy_kb(noted, tmp_path / "served")
    server = Server(db, env_with(no_block), "--timeout", "2")
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            slow = pool.submit(server.client.post, "/v1/query", json={"query": sparql(BACKTRACKS)})
            wait_until(lambda: slow.running())
            with httpx.Client(base_url=server.url, timeout=60) as other:
                assert other.get("/healthz").status_code == 200  # stdlib `re` held the GIL: this never came
            r = slow.result(timeout=120)
        assert r.status_code == 503, r.text
        assert set(r.json()) == {"error"}
        # The reader is free again once the stopped pattern returns (its timeout counts CPU time, so at a load of
        # 15 on two cores the first follow-up may itself wait out its 2 s); a few tries, never an endless stall.
        for _ in range(10):
            r = server.client.post("/v1/query", json={"query": sparql("^a+$")})
            if r.status_code != 503:
                break
        assert r.status_code == 200, r.text
        assert r.json()["rows"] == [{"s": "short_one"}]
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("pattern", "size"),
    [
        ("^(a+)+$", 5),
        ("a{100}", 100),
        ("[a-z]{5}\\d{3}", 8),
        ("x{,20}y{3,}z{2,5}", 28),
        ("[]{}]{3}", 3),  # a class holding braces, then a count
        ("\\{9999999}", 9),  # an escaped brace is no count
        ("(a{10}|b){10}", 120),
        ("(?:a{1000}){1000}", patterns.MAX_EXPANSION + 1),
        ("a{4294967294}", patterns.MAX_EXPANSION + 1),
    ],
)
def test_expansion_counts_what_counted_repetitions_write_out(pattern: str, size: int) -> None:
    assert patterns.expansion(pattern) == size


def test_a_pattern_that_expands_without_bound_is_refused_before_it_is_compiled(noted: Path) -> None:
    """`regex` writes counted repetitions out when it compiles: `a{4294967294}` took all memory until the kernel
    killed the process, `(?:a{1000}){1000}` 274 MB (stdlib `re` compiled both as loops)."""
    with Brain.open(noted, read_only=True) as brain:
        for pattern in ("(?:a{1000}){1000}", "a{4294967294}", "((a{100}){100}){100}"):
            with pytest.raises(InputError, match=r"SPARQL regex .* repeats too much: .* more than 10,000"):
                brain.query(sparql(pattern))
        assert brain.query(sparql("^a{4}$")).rows == (("short_one",),)


def test_a_rule_pattern_that_expands_without_bound_is_refused(tmp_path: Path) -> None:
    from kgbrain.output.answer_check import load_rules

    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\nid = "big"\nviolation_patterns = ["(?:a{1000}){1000}"]\ncorrection = "x"\n')
    with pytest.raises(InputError, match=r"rule 'big' violation_patterns: the pattern .* repeats too much"):
        load_rules(rules)
