"""Loading the facts file contract: formats, defaults, names, idempotency, all-or-nothing, round trip."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain, demo_files
from kgbrain.errors import InputError, InvalidRow, KgbrainError
from kgbrain.knowledge import Authority, Status
from tests.conftest import write_jsonl

ROWS: list[dict[str, Any]] = [
    {"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"},
    {"subject": "neuron", "predicate": "label", "value": "neuron", "lang": "en"},
    {"subject": "neuron", "predicate": "alias", "value": "нервная клетка", "lang": "ru"},
    {
        "subject": "neuron",
        "predicate": "is_a",
        "object": "cell",
        "confidence": 0.95,
        "source": "docs/neuro.pdf#p1",
        "trust": 0.87,
        "observed_at": "2026-03-19T12:00:00Z",
        "lang": "en",
    },
    {"subject": "нейрон", "predicate": "is_a", "object": "glia", "polarity": False, "source": "textbook", "trust": 0.9},
    {"subject": "car", "predicate": "max_speed", "value": 200, "unit": "km/h", "source": "spec-sheet"},
    {"subject": "max_speed", "predicate": "property_type", "value": "functional"},
    {"subject": "norm-766n", "predicate": "source_trust", "value": 0.95},
    {
        "subject": "respirator",
        "predicate": "certificate_valid_until",
        "value": "2025-06-30",
        "source": "norm-766n",
        "authority": "NORM",
    },
]


def export_text(brain: Brain) -> str:
    out = io.StringIO()
    brain.export(out)
    return out.getvalue()


def test_jsonl_loads_facts_with_defaults_and_provenance(brain: Brain, tmp_path: Path) -> None:
    [report] = brain.load([write_jsonl(tmp_path / "f.jsonl", ROWS)])
    assert (report.facts_added, report.duplicates_skipped) == (4, 0)
    assert report.per_predicate == {"certificate_valid_until": 1, "is_a": 2, "max_speed": 1}
    facts = {f.predicate + ("" if f.polarity else "-"): f for f in brain.facts("neuron").facts}
    positive = facts["is_a"]
    assert (positive.object, positive.confidence, positive.source, positive.trust) == (
        "cell",
        0.95,
        "docs/neuro.pdf#p1",
        0.87,
    )
    assert positive.observed_at is not None
    assert positive.observed_at.isoformat() == "2026-03-19T12:00:00+00:00"
    assert positive.status is Status.ACTIVE
    assert positive.loaded_at is not None
    negative = facts["is_a-"]  # named by its Russian label, stored on the same concept, kept as a negative fact
    assert (negative.object, negative.polarity) == ("glia", False)
    [speed] = brain.facts("car").facts
    assert speed.value is not None
    assert (speed.value.python(), speed.value.unit, speed.source) == (
        200,
        "km/h",
        "spec-sheet",
    )
    [cert] = brain.facts("respirator").facts
    assert cert.authority is Authority.NORM
    assert cert.trust == 0.5


def test_defaults_come_from_file_name_and_options(brain: Brain, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "plain.jsonl", [{"subject": "a", "predicate": "causes", "object": "b"}])
    brain.load([path])
    [fact] = brain.facts("a").facts
    assert (fact.source, fact.trust, fact.confidence, fact.polarity) == ("plain.jsonl", 0.5, 1.0, True)
    other = write_jsonl(tmp_path / "other.jsonl", [{"subject": "a", "predicate": "causes", "object": "c"}])
    brain.load([other], source="manual", trust=0.8)
    assert {(f.object, f.source, f.trust) for f in brain.facts("a").facts} == {
        ("b", "plain.jsonl", 0.5),
        ("c", "manual", 0.8),
    }


def test_labels_and_aliases_resolve_to_one_concept(brain: Brain, tmp_path: Path) -> None:
    brain.load([write_jsonl(tmp_path / "f.jsonl", ROWS)])
    assert brain.resolve("Нейрон") == brain.resolve("НЕРВНАЯ  клетка") == brain.resolve("neuron") == "neuron"
    later = write_jsonl(
        tmp_path / "g.jsonl", [{"subject": "нервная клетка", "predicate": "has_property", "object": "dna"}]
    )
    [report] = brain.load([later])
    assert report.concepts_created == 1  # only dna; the alias named the existing neuron
    assert any(f.predicate == "has_property" for f in brain.facts("neuron").facts)


def test_loading_twice_adds_nothing(brain: Brain, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "f.jsonl", ROWS)
    brain.load([path])
    before = export_text(brain)
    [again] = brain.load([path])
    assert (again.facts_added, again.duplicates_skipped, again.concepts_created, again.names_added) == (0, 4, 0, 0)
    assert export_text(brain) == before


def test_two_sources_for_one_statement_are_two_facts(brain: Brain, tmp_path: Path) -> None:
    rows = [
        {"subject": "neuron", "predicate": "is_a", "object": "cell", "source": "a"},
        {"subject": "neuron", "predicate": "is_a", "object": "cell", "source": "b"},
        {"subject": "neuron", "predicate": "is_a", "object": "cell", "source": "a"},
    ]
    [report] = brain.load([write_jsonl(tmp_path / "f.jsonl", rows)])
    assert (report.facts_added, report.duplicates_skipped) == (2, 1)
    assert brain.stats().predicates == {"is_a": 2}


def _as_delimited(rows: list[dict[str, Any]], delimiter: str) -> str:
    fields = sorted({k for r in rows for k in r})
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, delimiter=delimiter, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: (str(v).lower() if isinstance(v, bool) else v) for k, v in r.items()})
    return out.getvalue()


@pytest.mark.parametrize(("suffix", "delimiter"), [(".csv", ","), (".tsv", "\t")])
def test_csv_and_tsv_load_the_same_facts_as_jsonl(tmp_path: Path, suffix: str, delimiter: str) -> None:
    (tmp_path / f"f{suffix}").write_text(_as_delimited(ROWS, delimiter), encoding="utf-8")
    with Brain.open(None) as from_jsonl, Brain.open(None) as from_table:
        from_jsonl.load([write_jsonl(tmp_path / "f.jsonl", ROWS)], source="x")
        from_table.load([tmp_path / f"f{suffix}"], source="x")
        strip = lambda b: [  # noqa: E731  loaded_at differs between the two loads
            {k: v for k, v in json.loads(line).items() if k != "loaded_at"} for line in export_text(b).splitlines()
        ]
        assert strip(from_table) == strip(from_jsonl)


BAD_ROWS = [
    ({"predicate": "is_a", "object": "b"}, "bad.jsonl:2: field 'subject': missing"),
    (
        {"subject": "a", "predicate": "is_a", "object": "b", "confidence": 1.5},
        "bad.jsonl:2: field 'confidence': 1.5 is outside 0..1",
    ),
    (
        {"subject": "a", "predicate": "is_a", "object": "b", "colour": "red"},
        "bad.jsonl:2: field 'colour': unknown field",
    ),
    ({"subject": "a", "predicate": "is_a"}, "bad.jsonl:2: field 'object': give exactly one of 'object' or 'value'"),
    (
        {"subject": "a", "predicate": "Is A", "object": "b"},
        "bad.jsonl:2: field 'predicate': 'Is A' is not a snake_case",
    ),
    (
        {"subject": "a", "predicate": "is_a", "object": "b", "trust": "high"},
        "bad.jsonl:2: field 'trust': 'high' is not a number",
    ),
    (
        {"subject": "a", "predicate": "is_a", "object": "b", "observed_at": "yesterday"},
        "bad.jsonl:2: field 'observed_at'",
    ),
    (
        {"subject": "a", "predicate": "is_a", "object": "b", "authority": "LAW"},
        "bad.jsonl:2: field 'authority': 'LAW' is not one of",
    ),
    ({"subject": "a", "predicate": "is_a", "object": "b", "polarity": "maybe"}, "bad.jsonl:2: field 'polarity'"),
    (
        {"subject": "c_1", "predicate": "conflict_record", "value": "{not json"},
        "bad.jsonl:2: field 'value': a conflict_record",
    ),
    (
        {"subject": "ep_1", "predicate": "episode_record",
         "value": '{"id": "ep_1", "question": "q", "asked_at": "2026-01-01T00:00:00", "corrections": "wrong"}'},
        "bad.jsonl:2: field 'value': an episode_record holds its question, asked_at and a list of corrections",
    ),
]  # fmt: skip


@pytest.fixture
def loaded(brain: Brain, tmp_path: Path) -> Brain:
    brain.load([write_jsonl(tmp_path / "base.jsonl", ROWS)])
    return brain


@pytest.mark.parametrize(("row", "message"), BAD_ROWS)
def test_a_bad_row_aborts_the_file_and_changes_nothing(
    loaded: Brain, tmp_path: Path, row: dict[str, Any], message: str
) -> None:
    before = export_text(loaded)
    good = {"subject": "x", "predicate": "is_a", "object": "y"}
    path = write_jsonl(tmp_path / "bad.jsonl", [good, row, {"subject": "z", "predicate": "is_a", "object": "w"}])
    with pytest.raises(InvalidRow) as err:
        loaded.load([path])
    assert str(err.value).startswith(message)
    assert export_text(loaded) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"subject": "x", "predicate": "is_a", "object": "y"}\n{"subject": "a", "predicate"\n',
            "bad.jsonl:2: broken JSON",
        ),
        (
            b'{"subject": "x", "predicate": "is_a", "object": "y"}\n'
            b'{"subject": "\xff\xfe", "predicate": "is_a", "object": "b"}\n',
            "bad.jsonl:2: not valid UTF-8",
        ),
        (b'{"subject": "x", "predicate": "is_a", "object": "y"}\n[1, 2]\n', "bad.jsonl:2: expected a JSON object"),
    ],
)
def test_broken_json_and_encoding_name_the_line(loaded: Brain, tmp_path: Path, content: bytes, message: str) -> None:
    before = export_text(loaded)
    (tmp_path / "bad.jsonl").write_bytes(content)
    with pytest.raises(InvalidRow, match="^" + message.replace("(", r"\(")):
        loaded.load([tmp_path / "bad.jsonl"])
    assert export_text(loaded) == before


def test_csv_unknown_column_and_short_row(loaded: Brain, tmp_path: Path) -> None:
    before = export_text(loaded)
    (tmp_path / "bad.csv").write_text("subject,predicate,object,colour\na,is_a,b,red\n", encoding="utf-8")
    with pytest.raises(InvalidRow, match=r"^bad.csv:1: field 'colour': unknown column"):
        loaded.load([tmp_path / "bad.csv"])
    (tmp_path / "short.csv").write_text("subject,predicate,object\na,is_a,b\nc,is_a\n", encoding="utf-8")
    with pytest.raises(InvalidRow, match=r"^short.csv:3: expected 3 cells, found 2"):
        loaded.load([tmp_path / "short.csv"])
    assert export_text(loaded) == before


def test_failure_while_writing_rolls_the_file_back(loaded: Brain, tmp_path: Path) -> None:
    before = export_text(loaded)

    def failing_hook(brain: Brain, report: object) -> None:
        raise KgbrainError("disk full")

    loaded.load_hooks.append(failing_hook)
    with pytest.raises(KgbrainError, match="disk full"):
        loaded.load(
            [
                write_jsonl(
                    tmp_path / "new.jsonl",
                    [
                        {"subject": "q", "predicate": "label", "value": "Q", "lang": "en"},
                        {"subject": "q", "predicate": "causes", "object": "r"},
                    ],
                )
            ]
        )
    assert export_text(loaded) == before


def test_earlier_files_stay_when_a_later_file_is_bad(brain: Brain, tmp_path: Path) -> None:
    good = write_jsonl(tmp_path / "good.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}])
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"subject": "a", "predicate": "is_a"}])
    with pytest.raises(InvalidRow):
        brain.load([good, bad])
    assert brain.stats().facts == 1


def test_missing_file_and_bad_trust_are_input_errors(brain: Brain, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        brain.load([tmp_path / "nope.jsonl"])
    with pytest.raises(InputError, match=r"outside 0\.\.1"):
        brain.load([write_jsonl(tmp_path / "f.jsonl", ROWS)], trust=2.0)


def test_export_then_load_round_trips_losslessly(brain: Brain, tmp_path: Path) -> None:
    denied = [  # a claim and its denial from sources of about equal trust: a conflict left open for a person
        {"subject": "glia", "predicate": "is_a", "object": "cell", "source": "atlas", "trust": 0.6},
        {"subject": "glia", "predicate": "is_a", "object": "cell", "polarity": False, "source": "blog", "trust": 0.5},
    ]
    brain.load([write_jsonl(tmp_path / "f.jsonl", ROWS), *demo_files(), write_jsonl(tmp_path / "d.jsonl", denied)])
    # Truth maintenance must survive too: automatic resolutions, a person's decision, a retraction.
    open_conflict = next(c for c in brain.conflicts() if c.status.value == "open")
    brain.resolve_conflict(open_conflict.id, keep=open_conflict.fact_ids[0], by="ann")
    brain.retract(
        next(f.fact_id for f in brain.facts("neuron").facts if f.predicate == "consumes"), by="ann", reason="test"
    )
    assert len(brain.conflicts()) >= 5
    first = export_text(brain)
    (tmp_path / "export.jsonl").write_text(first, encoding="utf-8")
    with Brain.open(tmp_path / "copy.kuzu") as copy:
        copy.load([tmp_path / "export.jsonl"])
        assert export_text(copy) == first
        assert copy.stats() == brain.stats()
        assert [(c.id, c.status, c.kept_fact) for c in copy.conflicts()] == [
            (c.id, c.status, c.kept_fact) for c in brain.conflicts()
        ]


def test_demo_knowledge_base_is_rich_enough(demo: Brain) -> None:
    stats = demo.stats()
    assert stats.facts >= 300
    assert stats.sources >= 5
    assert stats.predicates["is_a"] >= 50
    negatives = [f for f in demo.facts("neuron").facts if not f.polarity]
    assert negatives
    assert demo.resolve("нейроны") == demo.resolve("neuron")


def _export_without_load_times(brain: Brain) -> list[dict[str, Any]]:
    """The export, without the clock: load times, and when conflicts were detected and resolved."""
    rows = []
    for line in export_text(brain).splitlines():
        row = {k: v for k, v in json.loads(line).items() if k != "loaded_at"}
        if row["predicate"] == "conflict_record":
            record = json.loads(row["value"])
            events = [{k: v for k, v in e.items() if k != "at"} for e in json.loads(record.pop("adjustments"))]
            row["value"] = {**{k: v for k, v in record.items() if not k.endswith("_at")}, "events": events}
        rows.append(row)
    return rows


UNIFORM_ROWS: list[dict[str, Any]] = [
    {"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"},
    {"subject": "нейрон", "predicate": "is_a", "object": "cell", "confidence": 0.9, "source": "a", "trust": 0.8},
    {"subject": "neuron", "predicate": "is_a", "object": "glia", "polarity": False, "authority": "NORM", "trust": 1},
    {"subject": "brain", "predicate": "neuron_count", "value": 86, "unit": "bn", "observed_at": "2009-04-10T00:00:00Z"},
    {
        "subject": "brain",
        "predicate": "neuron_count",
        "value": 100,
        "unit": "bn",
        "observed_at": "1990-01-01T00:00:00+03:00",
    },
    {"subject": "neuron_count", "predicate": "property_type", "value": "functional"},
    {"subject": "x", "predicate": "weight", "value": 2, "confidence": 0, "status": "outdated", "lang": "en"},
    {"subject": "x", "predicate": "weight", "value": 2, "confidence": 0, "status": "outdated", "lang": "en"},
]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".tsv"])
def test_fast_columnar_reader_and_row_reader_load_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    import kgbrain.ingest.tabular as tabular

    rows = UNIFORM_ROWS
    if suffix == ".jsonl":  # Arrow reads JSON columns of one type only; mixed values take the row reader
        rows = [{**r, "value": str(r["value"])} if "value" in r else r for r in rows]
        path = write_jsonl(tmp_path / "all.jsonl", rows)
    else:  # delimited files may also carry the demo's mixed values: every cell is text there
        rows = [*rows, *(json.loads(line) for f in demo_files() for line in f.read_text(encoding="utf-8").splitlines())]
        path = tmp_path / f"all{suffix}"
        path.write_text(_as_delimited(rows, "\t" if suffix == ".tsv" else ","), encoding="utf-8")
    used: list[bool] = []
    real = tabular.read_fast

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        used.append(result is not None)
        return result

    monkeypatch.setattr(tabular, "read_fast", spy)
    with Brain.open(None) as fast, Brain.open(None) as slow:
        [report] = fast.load([path])
        assert used == [True]
        assert (
            report.facts_added
            == len(rows)
            - sum(
                r["predicate"]
                in (
                    "label",
                    "alias",
                    "description",
                    "kind",
                    "property_type",
                    "inverse_of",
                    "opposite_of",
                    "sub_property_of",
                    "source_trust",
                    "domain",
                    "range",
                )
                for r in rows
            )
            - 1
        )
        monkeypatch.setattr(tabular, "read_fast", lambda *a, **k: None)
        slow.load([path])
        assert _export_without_load_times(fast) == _export_without_load_times(slow)


def test_fast_reader_declines_and_row_reader_names_the_bad_row(brain: Brain, tmp_path: Path) -> None:
    rows = [{"subject": f"s{i}", "predicate": "is_a", "object": "t"} for i in range(50)]
    rows[37] = {"subject": "s37", "predicate": "is_a", "object": "t", "confidence": 7}
    with pytest.raises(InvalidRow, match=r"^big.jsonl:38: field 'confidence': 7 is outside 0..1"):
        brain.load([write_jsonl(tmp_path / "big.jsonl", rows)])
    assert brain.stats().facts == 0


def test_export_reads_facts_range_by_range_in_the_same_order(demo: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    # One ORDER BY over every fact filled Kùzu's default buffer pool at 1M facts ("Unable to allocate memory"):
    # export reads the facts of FACT_RANGE concepts at a time. Ranges of 3 concepts must give the same file.
    from kgbrain.ingest import export

    whole = io.StringIO()
    demo.export(whole)
    monkeypatch.setattr(export, "FACT_RANGE", 3)
    ranged = io.StringIO()
    demo.export(ranged)
    assert ranged.getvalue() == whole.getvalue()
    assert sum(1 for line in whole.getvalue().splitlines() if '"object"' in line) > 400  # the demo's facts are in it
