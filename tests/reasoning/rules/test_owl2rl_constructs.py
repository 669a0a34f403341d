"""One tiny ontology per OWL 2 RL rule (tests/fixtures/owl2rl): kgbrain's entailments equal owlrl's.

Each case is `<rule>.ttl` (the ontology) loaded first and `<rule>.data.ttl` loaded second, as a user loads them;
`<rule>.expected.nt` holds owlrl 7.6's named-term entailments of the two (written by
`python bench/owl_conformance.py --write-expected`, the bench that compares with owlrl and reasonable on the real
ontologies too), and a `# inconsistent:` line when owlrl finds the case inconsistent. Compared: `rdf:type`,
`rdfs:subClassOf` (kgbrain's hierarchy), `owl:sameAs` and the case's own properties, between named terms.

The cases kgbrain does not yet match are listed in GAPS with the reason; they are strict xfails, so fixing one
fails the test until it leaves the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.owl_conformance import dir_cases, kgbrain_closure, read_expected
from kgbrain.choices import ConflictType

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "owl2rl"
NAMES = sorted(p.name.removesuffix(".ttl") for p in CASES.glob("*.ttl") if not p.name.endswith(".data.ttl"))

# owlrl's owl:Nothing is a sub-class of every class, so a member of it has every type (ex falso); kgbrain reports the
# inconsistency (cls-nothing2) and derives nothing from it: the expected files of such cases hold owlrl's closure
# with owl:Nothing read as a plain class (bench/owl_conformance.py, _without_ex_falso).
GAPS: dict[str, str] = {}
# Inconsistent by OWL, not by owlrl 7.6, and a conflict in kgbrain (named by the rule in the dict):
# - prp-fp-data: two integer values of a functional data property are different values (dt-diff), owlrl derives
#   `30 owl:sameAs 31` and says nothing;
# - prp-adp: the data links a pair by the first and the last member of owl:AllDisjointProperties ( p q r ); owlrl's
#   loop over the members stops before the last one (it checks p-q and q-r only, never p-r).
OWLRL_MISSES = {"prp-fp-data": "dt-diff", "prp-adp": "prp-adp"}
NOT_CHECKED: set[str] = set()


def _expected(name: str) -> tuple[set[tuple[str, str, str]], bool]:
    keys, inconsistent = read_expected(CASES / f"{name}.expected.nt")
    return keys, bool(inconsistent)


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.xfail(reason=GAPS[n], strict=True)) if n in GAPS else n for n in NAMES],
)
def test_owl2rl_construct_matches_owlrl(name: str) -> None:
    expected, inconsistent = _expected(name)
    found, conflicts, _ = kgbrain_closure(CASES / f"{name}.ttl", CASES / f"{name}.data.ttl")
    assert sorted(expected - found) == [], "missed"
    assert sorted(found - expected) == [], "unsound"
    if name in OWLRL_MISSES:
        assert conflicts, "an inconsistency owlrl misses"
    elif name not in NOT_CHECKED:
        assert bool(conflicts) == inconsistent


@pytest.mark.parametrize(
    "name", [n for n in NAMES if (_expected(n)[1] or n in OWLRL_MISSES) and n not in NOT_CHECKED and n != "prp-fp-data"]
)
def test_owl2rl_inconsistency_is_a_typed_conflict_naming_the_rule(name: str) -> None:
    """Every inconsistency owlrl finds (and the ones it misses) is an `inconsistency` conflict whose explanation
    names the RL rule."""
    _, conflicts, _ = kgbrain_closure(CASES / f"{name}.ttl", CASES / f"{name}.data.ttl")
    typed = [c for c in conflicts if c.type is ConflictType.INCONSISTENCY]
    assert typed, [c.type for c in conflicts]
    rule = name.split("-")[0] + "-" + name.split("-")[1]
    families = {"cax-adc": "cax-dw", "eq-diff2": "eq-diff1", "eq-diff3": "eq-diff1"}  # the rule kgbrain compiles
    assert any(f"rule {families.get(rule, rule)}" in c.explanation for c in typed), [c.explanation for c in typed]


def test_a_cases_folder_reads_as_the_constructs_do(tmp_path: Path) -> None:
    """bench --cases-dir: `<case>.ttl` + `<case>.data.ttl` (or none) + `<case>.expected.nt` (or none) per case."""
    folder = tmp_path / "cases"
    folder.mkdir()
    for name in ("cax-sco", "prp-irp"):
        for suffix in (".ttl", ".data.ttl", ".expected.nt"):
            (folder / (name + suffix)).write_bytes((CASES / (name + suffix)).read_bytes())
    (folder / "prp-irp.expected.nt").unlink()
    (folder / "bare.ttl").write_text("<http://t.example/A> a <http://www.w3.org/2002/07/owl#Class> .\n")
    cases = {c.name: c for c in dir_cases(folder, tmp_path / "work")}
    assert sorted(cases) == ["bare", "cax-sco", "prp-irp"]
    assert cases["prp-irp"].expected is None
    assert cases["bare"].data.read_text() == ""
    sco = cases["cax-sco"]
    assert sco.expected is not None
    assert read_expected(sco.expected) == (_expected("cax-sco")[0], [])
    found, _, _ = kgbrain_closure(sco.ontology, sco.data)
    assert found == _expected("cax-sco")[0]
    _, messages = read_expected(CASES / "prp-irp.expected.nt")
    assert messages
    assert all("irreflexive" in m.lower() for m in messages), messages
