"""`kgbrain verify`: verdicts file, summary, errors, workers, and resuming after a real SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from tests.conftest import write_jsonl

CLAIMS = Path(__file__).resolve().parent / "fixtures" / "claims"
ROOT = Path(__file__).resolve().parents[1]
MIX = [
    {"subject": "sparrow", "predicate": "can", "object": "fly"},
    {"text": "Пингвины умеют летать"},
    {"subject": "sparrow", "predicate": "eats", "object": "seeds"},
    {"subject": "penguin", "predicate": "eats", "object": "seeds"},
    {"subject": "penguin", "predicate": "has_property", "object": "feathers"},
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("verify_cli") / "kb.kuzu"
    with Brain.open(path) as b:
        b.load([CLAIMS / "penguins_kb.jsonl"])
    return path


def claims_file(path: Path, n: int) -> Path:
    rows: list[dict[str, object]] = [{"id": f"c{i}", **MIX[i % len(MIX)]} for i in range(n)]
    write_jsonl(path, rows)
    with path.open("a", encoding="utf-8") as fh:  # one unreadable row in the middle of the run
        fh.write('{"id": "broken", "subject": \n')
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "last", "subject": "sparrow", "predicate": "is_a", "object": "animal"}) + "\n")
    return path


def invoke(kb: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(kb), "verify", *args])
    return result.exit_code, result.stdout, result.stderr


def test_verify_writes_verdicts_in_order_and_a_summary(kb: Path, tmp_path: Path) -> None:
    claims = claims_file(tmp_path / "claims.jsonl", 10)
    out = tmp_path / "verdicts.jsonl"
    code, stdout, _ = invoke(kb, str(claims), "-o", str(out))
    assert code == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [f"c{i}" for i in range(10)] + ["broken", "last"]
    assert [r["verdict"] for r in rows[:5]] == ["SUPPORTED", "REFUTED", "CONFLICTING", "NOT_ENOUGH_INFO", "SUPPORTED"]
    assert rows[10]["verdict"] == "ERROR"
    assert rows[10]["error"].startswith("line 11: broken JSON")
    assert rows[2]["conflicts"][0]["type"] == "opposite_polarity"
    assert {"rule", "facts", "sources", "confidence"} <= rows[0]["proof"][0].keys()
    lines = stdout.splitlines()
    assert lines[0].split() == ["verdict", "claims"]
    assert lines[1].split() == ["SUPPORTED", "5"]
    assert lines[5].split() == ["ERROR", "1"]
    assert lines[6].split() == ["total", "12"]
    assert "claims/s with 1 worker(s)" in lines[7]


def test_verify_json_summary_and_closed_world(kb: Path, tmp_path: Path) -> None:
    claims = claims_file(tmp_path / "claims.jsonl", 5)
    code, stdout, _ = invoke(kb, str(claims), "-o", str(tmp_path / "v.jsonl"), "--closed-world", "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert summary["counts"] == {"SUPPORTED": 3, "REFUTED": 2, "CONFLICTING": 1, "NOT_ENOUGH_INFO": 0, "ERROR": 1}
    assert (summary["claims"], summary["resumed"], summary["checked"], summary["workers"]) == (7, 0, 7, 1)
    code, stdout, _ = invoke(kb, str(claims), "-o", str(tmp_path / "v.jsonl"), "--min-confidence", "0.7", "--json")
    assert json.loads(stdout)["counts"]["NOT_ENOUGH_INFO"] == 2  # the unprovable one and the 0.6 inheritance


def test_verdicts_go_to_stdout_and_the_summary_to_stderr(kb: Path, tmp_path: Path) -> None:
    claims = tmp_path / "claims.csv"
    claims.write_text("id,text\na,Sparrows can fly\nb,Нейрон — это клетка\n", encoding="utf-8")
    code, stdout, stderr = invoke(kb, str(claims))
    assert code == 0
    assert [json.loads(line)["verdict"] for line in stdout.splitlines()] == ["SUPPORTED", "NOT_ENOUGH_INFO"]
    assert "total" in stderr


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["missing.jsonl"], "Error: 'missing.jsonl': no such file"),
        (["claims.txt"], "Error: 'claims.txt': unknown claims format '.txt'; use .jsonl, .csv or .tsv"),
        (["claims.jsonl", "--resume"], "Error: --resume needs an output file (-o OUT)"),
    ],
)
def test_bad_input_exits_2_with_one_error_line(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], error: str
) -> None:
    claims_file(tmp_path / "claims.jsonl", 2)
    monkeypatch.chdir(tmp_path)
    code, _, stderr = invoke(kb, *args)
    assert code == 2
    assert stderr.strip().splitlines()[-1] == error


def test_resume_refuses_a_verdicts_file_of_other_claims(kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    invoke(kb, str(claims_file(tmp_path / "a.jsonl", 3)), "-o", str(out))
    other = write_jsonl(tmp_path / "b.jsonl", [{"id": "zz", "text": "Sparrows can fly"}])
    code, _, stderr = invoke(kb, str(other), "-o", str(out), "--resume")
    assert code == 2
    assert "line 1 is the verdict on claim 'c0', but claim 1 of" in stderr


def run_cli(kb: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "verify", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def kill_mid_run(kb: Path, claims: Path, out: Path) -> bytes:
    """Start `verify -o out` one claim per batch, SIGKILL it once its first verdicts are written, and return what
    it left in `out.partial` (one claim per batch, so the kill lands mid-run however fast verification is)."""
    partial = out.with_name(out.name + ".partial")
    proc = run_cli(kb, str(claims), "-o", str(out), "--batch-size", "1")
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if partial.exists() and partial.stat().st_size > 0:
                break
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the kill must land mid-run"
    return partial.read_bytes()


@pytest.mark.slow
def test_resume_after_sigkill_gives_the_same_output_as_an_uninterrupted_run(kb: Path, tmp_path: Path) -> None:
    claims = claims_file(tmp_path / "claims.jsonl", 300)
    whole = tmp_path / "whole.jsonl"
    assert run_cli(kb, str(claims), "-o", str(whole)).communicate(timeout=120)[0]
    out, partial = tmp_path / "out.jsonl", tmp_path / "out.jsonl.partial"
    done = kill_mid_run(kb, claims, out)
    assert not out.exists(), "only a finished run writes the output file"
    assert 0 < done.count(b"\n") < 302, "the kill must land mid-run"
    assert (tmp_path / "out.jsonl.run.json").exists()  # the unfinished run's options, checked on resume
    # A kill can also land inside a write of the partial file; make sure a torn tail there is cut and rewritten.
    finished = done[: done.rfind(b"\n") + 1]
    partial.write_bytes(finished + b'{"id": "c9999", "verdict": "SUPP')
    proc = run_cli(kb, str(claims), "-o", str(out), "--resume", "--json")
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert out.read_bytes() == whole.read_bytes()
    summary = json.loads(stdout)
    assert summary["resumed"] == finished.count(b"\n")
    assert summary["claims"] == 302
    assert summary["torn_line_rewritten"] is True
    assert not (tmp_path / "out.jsonl.run.json").exists()
    assert not partial.exists()
    # A finished file resumes to itself.
    proc = run_cli(kb, str(claims), "-o", str(out), "--resume", "--json")
    assert json.loads(proc.communicate(timeout=120)[0])["checked"] == 0
    assert out.read_bytes() == whole.read_bytes()


@pytest.mark.slow
def test_a_killed_run_never_tears_the_output_file(kb: Path, tmp_path: Path) -> None:
    claims = claims_file(tmp_path / "claims.jsonl", 300)
    whole = tmp_path / "whole.jsonl"
    assert run_cli(kb, str(claims), "-o", str(whole)).communicate(timeout=120)[0]
    out = tmp_path / "out.jsonl"
    earlier = claims_file(tmp_path / "earlier.jsonl", 3)
    assert run_cli(kb, str(earlier), "-o", str(out)).communicate(timeout=120)[0]
    before = out.read_bytes()
    for _ in range(3):  # real kills, wherever they land: the earlier output stays whole, byte for byte
        done = kill_mid_run(kb, claims, out)
        assert out.read_bytes() == before
        assert all(json.loads(line)["id"] for line in done.splitlines(keepends=True) if line.endswith(b"\n"))
    proc = run_cli(kb, str(claims), "-o", str(out), "--resume")
    assert proc.communicate(timeout=120)[0]
    assert proc.returncode == 0
    assert out.read_bytes() == whole.read_bytes()


def test_two_workers_write_the_same_file_as_one(kb: Path, tmp_path: Path) -> None:
    claims = claims_file(tmp_path / "claims.jsonl", 100)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert invoke(kb, str(claims), "-o", str(one))[0] == 0
    code, stdout, _ = invoke(kb, str(claims), "-o", str(two), "--workers", "2", "--batch-size", "8", "--json")
    assert code == 0
    assert json.loads(stdout)["workers"] == 2
    assert one.read_bytes() == two.read_bytes()


@pytest.mark.parametrize("beside", [".partial", ".run.json"])
def test_the_files_beside_the_output_never_overwrite_the_claims(kb: Path, tmp_path: Path, beside: str) -> None:
    claims = claims_file(tmp_path / f"v.jsonl{beside}", 3)  # the claims happen to be named like a file beside -o
    before = claims.read_bytes()
    code, _, stderr = invoke(kb, str(claims), "-o", str(tmp_path / "v.jsonl"))
    assert code == 2
    assert f"the file beside it {str(claims)!r} is the command's input" in stderr
    assert claims.read_bytes() == before
    assert not (tmp_path / "v.jsonl").exists()
