"""Every rule id written in kgbrain/ is one of the named constants of kgbrain/reasoning/rule_ids.py."""

from __future__ import annotations

import re
from pathlib import Path

from kgbrain.reasoning import rule_ids

PACKAGE = Path(rule_ids.__file__).resolve().parents[1]
RULE_ID = re.compile(r"""["']((?:dir|ctx|ded|cau|asc|ana|link|val|cnt|norm|hyp)\.[a-z0-9-]+)["']""")


def test_every_rule_id_in_the_code_is_named_in_rule_ids() -> None:
    written = {m.group(1) for path in PACKAGE.rglob("*.py") for m in RULE_ID.finditer(path.read_text("utf-8"))}
    assert written, "the pattern finds the rule ids"
    assert written - rule_ids.ALL == set()


def test_rule_ids_are_unique_and_well_formed() -> None:
    names = [n for n in vars(rule_ids) if n.isupper() and n != "ALL"]
    values = [getattr(rule_ids, n) for n in names]
    assert len(values) == len(set(values)) == len(rule_ids.ALL)
    assert all(re.fullmatch(r"[a-z]+\.[a-z0-9-]+", v) for v in values)
