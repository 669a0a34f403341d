"""Seed-003 reasoning rules (TOML), claim checks against the knowledge base, positive citation checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.output.answer_check import load_rules

RULES = Path(__file__).resolve().parents[1] / "fixtures" / "rules" / "seed003.toml"
QUESTION = "Можно ли использовать СИЗ с истёкшим сертификатом, если по паспорту срок службы ещё 5 лет?"


def test_rules_load_with_their_severities() -> None:
    rules = {r.rule_id: r for r in load_rules(RULES)}
    assert rules["tr_ts_019_certificate_vs_lifetime"].severity == "critical"
    assert rules["koap_vs_uk_distinction"].severity == "warning"


def test_a_critical_rule_puts_its_alert_first_and_its_correction_last(demo: Brain) -> None:
    draft = "Нельзя использовать СИЗ с истёкшим сертификатом: их нужно выкинуть в хоз. нужды."
    report = demo.check_answer(draft, question=QUESTION, rules=RULES)
    assert [r.rule_id for r in report.fired] == ["tr_ts_019_certificate_vs_lifetime"]
    assert report.critical
    parts = report.text.split("\n\n")
    assert parts[0].startswith("Важно: истёкший сертификат")
    assert parts[1] == draft
    assert parts[2].startswith("По [НОРМА] Приказу Минтруда 766н")


def test_a_warning_rule_only_appends_its_correction(demo: Brain) -> None:
    draft = "За это положен штраф по ст. 143 УК."
    report = demo.check_answer(draft, question="Какой штраф за нарушение?", rules=RULES)
    assert [r.rule_id for r in report.fired] == ["koap_vs_uk_distinction"]
    assert not report.critical
    parts = report.text.split("\n\n")
    assert parts[0] == draft
    assert parts[1].endswith("статьи УК относятся к уголовной ответственности.")
    assert "ст. 143 УК" in parts[2]  # an article no retrieved source backs


def test_suppress_if_present_and_triggers(demo: Brain) -> None:
    fine = "Нельзя использовать новые СИЗ с истёкшим сертификатом, но выданные применяют до окончания срока службы."
    assert demo.check_answer(fine, question=QUESTION, rules=RULES).fired == ()
    untriggered = "Нельзя использовать сломанный инструмент."
    assert demo.check_answer(untriggered, question="Что делать с инструментом?", rules=RULES).fired == ()


def test_a_claim_against_a_norm_is_critical_and_comes_first(demo: Brain) -> None:
    draft = "Issuing PPE to workers is allowed for PPE with an expired certificate."
    report = demo.check_answer(draft, question="Can PPE with an expired certificate be issued?")
    [claim] = report.claims
    assert claim.verdict == "contradicted"
    assert claim.severity == "critical"
    assert claim.authority == "NORM"
    assert claim.source == "norm/prikaz-mintruda-766n"
    assert report.text.startswith("⚠️ [NORM] norm/prikaz-mintruda-766n: ppe_with_expired_certificate NOT permitted")


def test_a_claim_against_operative_guidance_is_a_warning_appended(demo: Brain) -> None:
    draft = "Применение СИЗ до окончания срока службы для СИЗ с истёкшим сертификатом запрещено."
    report = demo.check_answer(draft, question=QUESTION)
    [claim] = report.claims
    assert (claim.verdict, claim.severity, claim.authority) == ("contradicted", "warning", "OPERATIVE")
    assert report.text.startswith(draft)
    assert "[ОПЕРАТИВНО] company/instrukciya-po-siz" in report.text


def test_a_supported_claim_adds_nothing(demo: Brain) -> None:
    draft = "Issuing PPE to workers is not allowed for PPE with an expired certificate."
    report = demo.check_answer(draft, question="Can PPE with an expired certificate be issued?")
    assert [c.verdict for c in report.claims] == ["supported"]
    assert report.text == draft


def test_citations_without_a_retrieved_source_are_flagged(demo: Brain) -> None:
    draft = (
        "Согласно ТР ТС 019/2011 и Приказу 766н СИЗ с истёкшим сертификатом выдавать нельзя. "
        "См. также Приказ МЗСР №1descanso и ст. 221 ТК РФ."
    )
    report = demo.check_answer(draft, question="Можно ли выдавать СИЗ с истёкшим сертификатом?")
    backed = {c.citation: c.backed_by for c in report.citations}
    assert backed["ТР ТС 019/2011"] == "norm/tr-ts-019-2011"
    assert backed["Приказу 766н"] == "norm/prikaz-mintruda-766n"
    assert backed["ст. 221 ТК РФ"] == "norm/tk-rf-st-221"
    assert backed["Приказ МЗСР №1descanso"] is None
    assert report.text.endswith("но перепроверьте их по официальным источникам.")
    assert "Приказ МЗСР №1descanso" in report.notices[0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[rule]]\nid = "r1"\nviolation_patterns = ["x"]\ncorrection = "c"\nseverity = "fatal"\n',
            "rule 'r1': severity 'fatal'",
        ),
        (
            '[[rule]]\nid = "r2"\nviolation_patterns = ["(unclosed"]\ncorrection = "c"\n',
            "rule 'r2' violation_patterns: bad regular",
        ),
        ('[[rule]]\nid = "r3"\ncorrection = "c"\n', "rule 'r3': field 'violation_patterns' is required"),
        ('[[rule]]\nid = "r4"\nviolation_patterns = ["x"]\ncorrection = "c"\ncolour = 1\n', "rule 'r4': unknown field"),
        ("title = 'no rules'\n", "has no \\[\\[rule\\]\\] tables"),
    ],
)
def test_bad_rules_files_name_the_rule(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_rules(path)


def test_empty_draft_and_missing_rules_file(demo: Brain, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="the draft answer is empty"):
        demo.check_answer("  ", question="q")
    with pytest.raises(InputError, match="does not exist"):
        demo.check_answer("text", rules=tmp_path / "none.toml")
