"""OWL 2 RL conformance: kgbrain's closure against owlrl and `reasonable`, entailment by entailment (issue #21).

    python bench/owl_conformance.py [--ontologies pizza,lubm,schemaorg,dbpedia,go] [--no-constructs]
                                    [--cases cls-svf1,prp-fp] [--cases-dir DIR] [--show 5] [--json OUT]
                                    [--write-expected]

Every case is an ontology plus a data file loaded second, as a user loads them (`kgbrain load onto; kgbrain load
data`):
- the constructs: one tiny ontology per rule of the OWL 2 RL tables 4-9 (W3C OWL 2 Profiles, section 4.3),
  `tests/fixtures/owl2rl/<rule>.ttl` with its data `<rule>.data.ttl` (the tests keep them small);
- the real ontologies in ../shared/data/ontologies (pizza, LUBM, schema.org, DBpedia, GO), each with probe data
  written here: one individual per named class (`probe:c<n> a C`) and one pair per property
  (`probe:s<n> p probe:o<n>`, or a literal of the range's datatype for a data property). LUBM also runs with its
  real department (University0_0.owl) as the data;
- with `--cases-dir DIR`, every `<case>.ttl` in DIR with its data `<case>.data.ttl`, laid out as the constructs are
  (a set written elsewhere, e.g. one kept from the developers). owlrl's reference is computed live; where
  `<case>.expected.nt` is present (the format `--write-expected` writes, `# inconsistent:` line included) it is the
  reference instead, and the row says how many of its statements live owlrl disagrees with (`owlrl≠expected`).

All three reasoners read the same N-Triples copies. The compared entailments are the named-term ones each closure
adds to the input: `rdf:type` to a class outside the RDF/RDFS/OWL/XSD vocabularies, `rdfs:subClassOf` between two
such classes (kgbrain's: the transitive closure of its `is_a` facts, what its hierarchy view answers), `owl:sameAs`
between two IRIs, and assertions of the ontology's own properties (literal objects compared by lexical form).
Blank nodes, literal subjects and the rest of the schema vocabulary (subPropertyOf, domain, equivalentClass ...)
are left out: kgbrain keeps those as declarations and rules, and their consequences show at the data level; so are
kgbrain's class-level restriction facts (`some_values__p`, ...), its form of owlrl's blank-node restriction classes.
When something is a member of owl:Nothing, owlrl's reference is its closure with owl:Nothing read as a plain class
(owlrl types such a member with every class, ex falso; kgbrain reports cls-nothing2 and derives nothing from it).

Columns: `owlrl` and `reasonable` count each peer's entailments; `matched / missed / extra` compare kgbrain with
owlrl (the reference: missed = owlrl derives it, kgbrain does not; extra = kgbrain derives it, owlrl does not);
`vs reasonable` gives the missed / extra against reasonable; `inconsistent` says whether owlrl found an
inconsistency (its error messages), whether reasonable typed something `owl:Nothing`, and how many conflicts
kgbrain recorded (`!` marks a disagreement with owlrl).

`--write-expected` stores owlrl's entailments of each construct case as `<rule>.expected.nt` beside it, for the
tests (tests/reasoning/rules/test_owl2rl_constructs.py), which cannot run owlrl.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rdflib
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import OWL, RDF, RDFS, XSD

from kgbrain.api import Brain
from kgbrain.ingest.loader import stored_predicate_iris
from kgbrain.ingest.ontology import load_mapping
from kgbrain.ingest.owl_rules import is_restriction_predicate
from kgbrain.ingest.rdf_mapping import RdfMapper

HERE = Path(__file__).resolve().parent
CONSTRUCTS = HERE.parent / "tests" / "fixtures" / "owl2rl"
# ../shared/data/ontologies beside the checkout (/work/main), or beside the repository of a worktree (/work/wt/x)
SHARED = next(
    (p / "shared" / "data" / "ontologies" for p in HERE.parents if (p / "shared" / "data" / "ontologies").is_dir()),
    HERE.parent.parent / "shared" / "data" / "ontologies",
)
PROBE = "http://kgbrain.dev/probe#"
_VOCAB = (str(RDF), str(RDFS), str(OWL), str(XSD))
_TYPE, _SUB, _SAME = str(RDF.type), str(RDFS.subClassOf), str(OWL.sameAs)
_ANNOTATIONS = (
    "http://www.w3.org/2004/02/skos/core#",
    "http://purl.org/dc/elements/1.1/",
    "http://purl.org/dc/terms/",
    "http://www.geneontology.org/formats/oboInOwl#",
    "http://www.w3.org/ns/prov#",
)
_FIXED = {"instance_of": _TYPE, "same_as": _SAME, "different_from": str(OWL.differentFrom)}  # kgbrain's own names
Key = tuple[str, str, str]  # (subject IRI, predicate IRI, object IRI or '"' + lexical form)


def _vocab(iri: str) -> bool:
    return iri.startswith(_VOCAB)


@dataclass
class Case:
    name: str
    ontology: Path  # N-Triples (read by all three)
    data: Path
    expected: Path | None = None  # a stored reference (`<case>.expected.nt`), used instead of live owlrl's


@dataclass
class Result:
    name: str
    asserted: int = 0
    owlrl: set[Key] = field(default_factory=set)
    reasonable: set[Key] | None = None
    kgbrain: set[Key] = field(default_factory=set)
    owlrl_errors: list[str] = field(default_factory=list)
    reasonable_nothing: bool | None = None
    kgbrain_conflicts: int = 0
    live_disagreement: int | None = None  # with a stored reference: statements live owlrl and it differ on
    seconds: dict[str, float] = field(default_factory=dict)
    error: str | None = None

    def row(self) -> dict[str, Any]:
        ref, kgb = self.owlrl, self.kgbrain
        out: dict[str, Any] = {
            "case": self.name,
            "asserted": self.asserted,
            "owlrl": len(ref),
            "reasonable": None if self.reasonable is None else len(self.reasonable),
            "matched": len(ref & kgb),
            "missed": len(ref - kgb),
            "extra": len(kgb - ref),
            "owlrl_inconsistent": bool(self.owlrl_errors),
            "reasonable_nothing": self.reasonable_nothing,
            "kgbrain_conflicts": self.kgbrain_conflicts,
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
        }
        if self.reasonable is not None:
            out["missed_vs_reasonable"] = len(self.reasonable - kgb)
            out["extra_vs_reasonable"] = len(kgb - self.reasonable)
        if self.live_disagreement is not None:
            out["owlrl_vs_expected"] = self.live_disagreement
        if self.error:
            out["error"] = self.error
        return out


# -- the named-term entailments of an RDF graph -------------------------------------------------------------


def _key(s: Any, p: Any, o: Any, annotation: set[str]) -> Key | None:
    if not isinstance(s, URIRef) or not isinstance(p, URIRef):
        return None
    p_s, s_s = str(p), str(s)
    if isinstance(o, BNode):
        return None
    o_s = '"' + str(o) if isinstance(o, Literal) else str(o)
    if p_s == _TYPE:
        return None if isinstance(o, Literal) or _vocab(o_s) else (s_s, p_s, o_s)
    if p_s == _SUB:
        ok = isinstance(o, URIRef) and not _vocab(o_s) and not _vocab(s_s) and s_s != o_s
        return (s_s, p_s, o_s) if ok else None
    if p_s == _SAME:
        return (s_s, p_s, o_s) if isinstance(o, URIRef) and s_s != o_s else None
    if _vocab(p_s) or p_s.startswith(_ANNOTATIONS) or p_s in annotation:
        return None
    return s_s, p_s, o_s


def named(triples: Iterable[tuple[Any, Any, Any]], annotation: set[str]) -> set[Key]:
    """The compared (named-term) statements among `triples`."""
    return {k for t in triples if (k := _key(*t, annotation)) is not None}


def annotation_properties(graph: rdflib.Graph) -> set[str]:
    return {str(s) for s in graph.subjects(RDF.type, OWL.AnnotationProperty) if isinstance(s, URIRef)}


# -- the three reasoners ------------------------------------------------------------------------------------


def run_owlrl(case: Case, result: Result, annotation: set[str], asserted: set[Key]) -> None:
    import owlrl

    graph = rdflib.Graph()
    graph.parse(case.ontology, format="nt")
    graph.parse(case.data, format="nt")
    start = time.perf_counter()
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    result.seconds["owlrl"] = time.perf_counter() - start
    err = URIRef("http://www.daml.org/2002/03/agents/agent-ont#error")
    result.owlrl_errors = sorted(str(m) for m in graph.objects(None, err))
    if (None, RDF.type, OWL.Nothing) in graph:
        graph = _without_ex_falso(case)
    result.owlrl = named(graph, annotation) - asserted


_NOT_NOTHING = URIRef("urn:kgbrain:bench:nothing")  # owl:Nothing as a plain class


def _without_ex_falso(case: Case) -> rdflib.Graph:
    """owlrl's closure with owl:Nothing read as a plain class: its members keep the types they have for a reason.

    owlrl makes owl:Nothing a sub-class of every class (scm-cls), so a member of it is typed with every class of
    the ontology, ex falso quodlibet; kgbrain reports the inconsistency (cls-nothing2) and derives nothing from it.
    """
    import owlrl

    graph = rdflib.Graph()
    for path in (case.ontology, case.data):
        for t in rdflib.Graph().parse(path, format="nt"):
            graph.add(tuple(_NOT_NOTHING if x == OWL.Nothing else x for x in t))  # type: ignore[arg-type]
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    back = rdflib.Graph()
    for t in graph:
        back.add(tuple(OWL.Nothing if x == _NOT_NOTHING else x for x in t))  # type: ignore[arg-type]
    return back


def run_reasonable(case: Case, result: Result, annotation: set[str], asserted: set[Key], work: Path) -> None:
    import reasonable

    reasoner = reasonable.PyReasoner()
    start = time.perf_counter()
    for path in (case.ontology, case.data):
        ttl = work / (path.stem + ".ttl")  # reasonable reads .ttl / .n3 only; N-Triples is Turtle
        shutil.copyfile(path, ttl)
        reasoner.load_file(str(ttl))
    triples = reasoner.reason()
    result.seconds["reasonable"] = time.perf_counter() - start
    nothing = str(OWL.Nothing)
    result.reasonable_nothing = any(str(p) == _TYPE and str(o) == nothing for _, p, o in triples)
    result.reasonable = named(triples, annotation) - asserted


def predicate_iris(paths: Iterable[Path]) -> dict[str, str]:
    """kgbrain's predicate name -> the property IRI, as the RDF reader names them (file by file)."""
    out: dict[str, str] = {}
    for path in paths:
        graph = rdflib.Graph().parse(path, format=_fmt(path))
        iris = {str(p) for p in graph.predicates() if isinstance(p, URIRef)}
        iris |= {str(s) for s, _, o in graph.triples((None, RDF.type, None)) if str(o).endswith("Property")}
        mapper = RdfMapper(load_mapping(), file=str(path), source=path.stem, trust=0.5)
        for iri, name in mapper.predicate_names(iris).items():
            out.setdefault(name, iri)
    return out


def _kgbrain_statements(brain: Brain, preds: dict[str, str]) -> Iterator[Key]:
    """kgbrain's active, positive facts as IRI statements: every IRI of a merged concept answers for it."""
    iris: dict[str, list[str]] = defaultdict(list)
    for row in brain.store.run_generated(
        "MATCH (t:Term)-[n:NAMES]->(c:Concept) WHERE n.kind = $alias RETURN DISTINCT c.id AS c, n.text AS iri",
        alias="alias",
    ):
        if "://" in row["iri"]:
            iris[row["c"]].append(row["iri"])

    def of(cid: str) -> list[str]:
        return iris.get(cid) or ["urn:kgbrain:" + cid]

    for names in iris.values():
        for a in names:
            for b in names:
                if a != b:
                    yield a, _SAME, b
    is_a: dict[str, set[str]] = defaultdict(set)
    rows = brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o) WHERE r.status = $active AND r.polarity AND r.fact_id IS NOT NULL "
        "RETURN s.id AS s, r.predicate AS p, label(o) AS kind, o.id AS o, o.lexical AS lexical",
        active="active",
    )
    for r in rows:
        p = r["p"]
        if p == "is_a":
            is_a[r["s"]].add(r["o"])
            continue
        if p == "disjoint_with" or is_restriction_predicate(p):
            continue  # restrictions at class level stand for owlrl's blank-node classes, which are left out too
        p_iri = _FIXED.get(p) or preds.get(p, "urn:kgbrain:" + p)
        objects = of(r["o"]) if r["kind"] == "Concept" else ['"' + str(r["lexical"])]
        for s in of(r["s"]):
            for o in objects:
                yield s, p_iri, o
    for start in list(is_a):  # the hierarchy view: is_a is transitive
        seen: set[str] = set()
        todo = [start]
        while todo:
            for up in is_a.get(todo.pop(), ()):
                if up not in seen:
                    seen.add(up)
                    todo.append(up)
        for up in seen:
            for s in of(start):
                for o in of(up):
                    yield s, _SUB, o


def kgbrain_closure(ontology: Path, data: Path, db: Path | None = None) -> tuple[set[Key], list[Any], float]:
    """kgbrain's named-term entailments after loading `ontology` then `data`, its conflicts, and the load time;
    in a knowledge base at `db` (a new file) or in memory.

    The tests (tests/reasoning/rules/test_owl2rl_constructs.py) call this too.
    """
    preds = predicate_iris([ontology, data])
    graph = rdflib.Graph().parse(ontology, format=_fmt(ontology)).parse(data, format=_fmt(data))
    annotation = annotation_properties(graph)
    start = time.perf_counter()
    with Brain.open(db) as brain:
        brain.load([ontology])
        brain.load([data])
        seconds = time.perf_counter() - start
        # the knowledge base's own record of which IRI each predicate name stands for (identity by IRI)
        preds = preds | {name: iri for iri, name in stored_predicate_iris(brain.store).items()}
        statements = set(_kgbrain_statements(brain, preds))
        conflicts = brain.conflicts()
    keys = {k for s, p, o in statements if (k := _key(URIRef(s), URIRef(p), _object(o), annotation)) is not None}
    return keys - named(graph, annotation), conflicts, seconds


def _fmt(path: Path) -> str:
    return "nt" if path.suffix == ".nt" else "turtle"


ON_DISK: list[Path] = []  # --on-disk: the folder of each case's knowledge base file


def run_kgbrain(case: Case, result: Result, annotation: set[str], asserted: set[Key]) -> None:
    db = ON_DISK[0] / f"{case.name}.kgb" if ON_DISK else None
    result.kgbrain, conflicts, result.seconds["kgbrain"] = kgbrain_closure(case.ontology, case.data, db)
    result.kgbrain_conflicts = len(conflicts)


def _object(o: str) -> Any:
    return Literal(o[1:]) if o.startswith('"') else URIRef(o)


# -- cases --------------------------------------------------------------------------------------------------


def _nt_copy(src: Path, dst: Path, fmt: str | None = None) -> Path:
    if src.suffix == ".gz":
        with gzip.open(src, "rb") as f_in, dst.open("wb") as f_out:
            shutil.copyfileobj(f_in, f_out)
        return dst
    graph = rdflib.Graph()
    graph.parse(src, format=fmt or rdflib.util.guess_format(str(src)) or "turtle")
    graph.serialize(dst, format="nt", encoding="utf-8")
    return dst


_SAMPLE = {
    str(XSD.integer): Literal(1),
    str(XSD.nonNegativeInteger): Literal("1", datatype=XSD.nonNegativeInteger),
    str(XSD.positiveInteger): Literal("1", datatype=XSD.positiveInteger),
    str(XSD.int): Literal("1", datatype=XSD.int),
    str(XSD.float): Literal("1.5", datatype=XSD.float),
    str(XSD.double): Literal("1.5", datatype=XSD.double),
    str(XSD.decimal): Literal("1.5", datatype=XSD.decimal),
    str(XSD.boolean): Literal(True),
    str(XSD.date): Literal("2020-01-01", datatype=XSD.date),
    str(XSD.dateTime): Literal("2020-01-01T00:00:00", datatype=XSD.dateTime),
}


def probe_data(ontology: Path, out: Path) -> Path:
    """One individual per named class and one statement per property of the ontology, as N-Triples."""
    graph = rdflib.Graph().parse(ontology, format="nt")
    classes = {s for kind in (OWL.Class, RDFS.Class) for s in graph.subjects(RDF.type, kind)}
    object_props = {s for kind in (OWL.ObjectProperty,) for s in graph.subjects(RDF.type, kind)}
    data_props = set(graph.subjects(RDF.type, OWL.DatatypeProperty))
    for p in set(graph.subjects(RDF.type, RDF.Property)) - object_props - data_props:  # schema.org: ranges say
        # (DBpedia declares its properties rdf:Property and owl:DatatypeProperty both: OWL's word decides, else a
        # datatype property got an IRI value as well, which owlrl types with the range datatype by prp-rng)
        ranges = {str(r) for r in graph.objects(p, RDFS.range)} | {
            str(r) for r in graph.objects(p, URIRef("https://schema.org/rangeIncludes"))
        }
        literal = any(_vocab(r) or r.endswith(("/Text", "/Number", "/Date", "/Boolean", "/URL")) for r in ranges)
        (data_props if literal else object_props).add(p)
    probe = rdflib.Graph()
    for n, c in enumerate(sorted(x for x in classes if isinstance(x, URIRef) and not _vocab(str(x)))):
        probe.add((URIRef(f"{PROBE}c{n}"), RDF.type, c))
    for n, p in enumerate(sorted(x for x in object_props if isinstance(x, URIRef) and not _vocab(str(x)))):
        probe.add((URIRef(f"{PROBE}s{n}"), p, URIRef(f"{PROBE}o{n}")))
    for n, p in enumerate(sorted(x for x in data_props if isinstance(x, URIRef) and not _vocab(str(x)))):
        ranges = [str(r) for r in graph.objects(p, RDFS.range)]
        value = next((_SAMPLE[r] for r in ranges if r in _SAMPLE), Literal("probe"))
        probe.add((URIRef(f"{PROBE}d{n}"), p, value))
    probe.serialize(out, format="nt", encoding="utf-8")
    return out


def construct_cases(work: Path, only: set[str] | None) -> Iterator[Case]:
    for case in dir_cases(CONSTRUCTS, work, only):
        yield Case(case.name, case.ontology, case.data)  # the constructs' reference is live owlrl's, always


def dir_cases(folder: Path, work: Path, only: set[str] | None = None) -> Iterator[Case]:
    """Every `<case>.ttl` in `folder` with its `<case>.data.ttl` (none: no data) and `<case>.expected.nt` if any."""
    work.mkdir(parents=True, exist_ok=True)
    for onto in sorted(folder.glob("*.ttl")):
        if onto.name.endswith(".data.ttl"):
            continue
        name = onto.stem
        if only and name not in only:
            continue
        data = onto.with_name(name + ".data.ttl")
        data_nt = work / f"{name}.data.nt"
        if data.exists():
            _nt_copy(data, data_nt, "turtle")
        else:
            data_nt.write_text("", encoding="utf-8")
        expected: Path | None = onto.with_name(name + ".expected.nt")
        if expected is not None and not expected.exists():
            expected = None
        yield Case(name, _nt_copy(onto, work / f"{name}.nt", "turtle"), data_nt, expected)


def read_expected(path: Path) -> tuple[set[Key], list[str]]:
    """A stored reference (`--write-expected`'s format): its statements and its `# inconsistent:` messages."""
    inconsistent = [
        line.removeprefix("# inconsistent:").strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("# inconsistent:")
    ]
    graph = rdflib.Graph().parse(path, format="nt")
    keys = {(str(s), str(p), '"' + str(o) if isinstance(o, Literal) else str(o)) for s, p, o in graph}
    return keys, inconsistent


_ONTOLOGIES = {
    "pizza": ("pizza/pizza.owl", "xml"),
    "lubm": ("lubm/univ-bench.owl", "xml"),
    "schemaorg": ("schemaorg/schemaorg-current-https.nt", "nt"),
    "dbpedia": ("dbpedia/dbo-snapshots.ttl", "turtle"),
    "go": ("go/go_2019-01-29_isa_rel.nt.gz", "nt"),
}


def ontology_cases(work: Path, names: list[str], shared: Path) -> Iterator[Case]:
    for name in names:
        rel, fmt = _ONTOLOGIES[name]
        src = shared / rel
        if not src.exists():
            print(f"{name}: {src} is missing, skipped", file=sys.stderr)
            continue
        onto = _nt_copy(src, work / f"{name}.nt", fmt)
        yield Case(name, onto, probe_data(onto, work / f"{name}.probe.nt"))
        if name == "lubm" and (shared / "lubm" / "University0_0.owl").exists():
            data = _nt_copy(shared / "lubm" / "University0_0.owl", work / "University0_0.nt", "xml")
            yield Case("lubm+University0_0", onto, data)


# -- running and printing -----------------------------------------------------------------------------------


def run_case(case: Case, work: Path, *, with_reasonable: bool) -> Result:
    result = Result(case.name)
    graph = rdflib.Graph().parse(case.ontology, format="nt").parse(case.data, format="nt")
    annotation = annotation_properties(graph)
    asserted = named(graph, annotation)
    result.asserted = len(asserted)
    steps = [("owlrl", run_owlrl), ("kgbrain", run_kgbrain)]
    for label, step in steps:
        try:
            step(case, result, annotation, asserted)
        except Exception as exc:  # a bench reports a reasoner's failure and goes on
            result.error = f"{label}: {type(exc).__name__}: {exc}"[:300]
    if case.expected is not None:
        live = result.owlrl
        result.owlrl, result.owlrl_errors = read_expected(case.expected)
        result.live_disagreement = len(live ^ result.owlrl)
    if with_reasonable:
        try:
            run_reasonable(case, result, annotation, asserted, work)
        except Exception as exc:  # likewise
            result.error = f"reasonable: {type(exc).__name__}: {exc}"[:300]
    return result


def _short(key: Key) -> str:
    def cut(t: str) -> str:
        return t.rsplit("#", 1)[-1].rsplit("/", 1)[-1] if not t.startswith('"') else t + '"'

    return " ".join(cut(t) for t in key)


def print_table(results: list[Result], show: int) -> None:
    head = (
        f"{'case':<28} {'asserted':>8} {'owlrl':>7} {'reasonable':>10} {'matched':>7} {'missed':>7} {'extra':>6}"
        f" {'vs reasonable':>14}  inconsistent (owlrl/reasonable/kgbrain conflicts)"
    )
    print(head)
    print("-" * len(head))
    totals = defaultdict(int)
    for r in results:
        row = r.row()
        vs = "-" if r.reasonable is None else f"{row['missed_vs_reasonable']}/{row['extra_vs_reasonable']}"
        incons = f"{'yes' if row['owlrl_inconsistent'] else 'no'}/"
        incons += "-" if r.reasonable_nothing is None else ("yes" if r.reasonable_nothing else "no")
        incons += f"/{r.kgbrain_conflicts}"
        if bool(r.owlrl_errors) != bool(r.kgbrain_conflicts):
            incons += " !"
        reas = "-" if row["reasonable"] is None else str(row["reasonable"])
        print(
            f"{r.name:<28} {row['asserted']:>8} {row['owlrl']:>7} {reas:>10} {row['matched']:>7} {row['missed']:>7}"
            f" {row['extra']:>6} {vs:>14}  {incons}"
        )
        for k in ("matched", "missed", "extra"):
            totals[k] += row[k]
        totals["agree"] += bool(r.owlrl_errors) == bool(r.kgbrain_conflicts)
        if r.error:
            print(f"    error: {r.error}")
        if r.live_disagreement:
            print(f"    reference: {r.name}.expected.nt (owlrl≠expected on {r.live_disagreement} statements)")
        if show:
            for label, keys in (("missed", r.owlrl - r.kgbrain), ("extra", r.kgbrain - r.owlrl)):
                for key in sorted(keys)[:show]:
                    print(f"    {label}: {_short(key)}")
    print("-" * len(head))
    print(
        f"{'total':<28} {'':>8} {'':>7} {'':>10} {totals['matched']:>7} {totals['missed']:>7} {totals['extra']:>6}"
        f" {'':>14}  inconsistency agreement {totals['agree']}/{len(results)}"
    )


def write_expected(result: Result) -> None:
    lines = []
    for s, p, o in sorted(result.owlrl):
        obj = rdflib.Literal(o[1:]).n3() if o.startswith('"') else f"<{o}>"
        lines.append(f"<{s}> <{p}> {obj} .\n")
    header = f"# owlrl {_owlrl_version()}: the named-term entailments of {result.name}.ttl + {result.name}.data.ttl\n"
    if result.owlrl_errors:
        messages = (re.sub(r"\bN[0-9a-f]{32}\b", "_:b", m.split("Traceback")[0]).strip() for m in result.owlrl_errors)
        header += "# inconsistent: " + " | ".join(messages) + "\n"
    (CONSTRUCTS / f"{result.name}.expected.nt").write_text(header + "".join(lines), encoding="utf-8")


def _owlrl_version() -> str:
    from importlib.metadata import version

    return version("owlrl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ontologies", default="pizza,lubm,schemaorg,dbpedia,go", help="comma-separated; '' for none")
    parser.add_argument("--no-constructs", action="store_true")
    parser.add_argument("--data", type=Path, default=SHARED, help="the folder of the real ontologies")
    parser.add_argument("--cases", default="", help="only these construct cases (comma-separated)")
    parser.add_argument(
        "--cases-dir", type=Path, action="append", default=[], help="also every <case>.ttl + <case>.data.ttl in DIR"
    )
    parser.add_argument("--skip-reasonable", action="store_true")
    parser.add_argument("--on-disk", action="store_true", help="kgbrain's knowledge bases on disk, not in memory")
    parser.add_argument("--show", type=int, default=0, help="print up to N missed / extra statements per case")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument("--write-expected", action="store_true", help="store owlrl's construct entailments")
    args = parser.parse_args()
    logging.getLogger("rdflib").setLevel(logging.CRITICAL)  # ill-typed literals are cases here, not news
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.on_disk:
            ON_DISK.append(work)
        cases: list[Case] = []
        if not args.no_constructs:
            cases += construct_cases(work, set(filter(None, args.cases.split(","))) or None)
        constructs = {id(c) for c in cases}
        for n, folder in enumerate(args.cases_dir):
            if not folder.is_dir():
                parser.error(f"--cases-dir {str(folder)!r} is no folder")
            cases += dir_cases(folder, work / f"cases{n}")
        cases += ontology_cases(work, [n for n in args.ontologies.split(",") if n], args.data)
        for case in cases:
            print(f"... {case.name}", file=sys.stderr, flush=True)
            result = run_case(case, work, with_reasonable=not args.skip_reasonable)
            results.append(result)
            if args.write_expected and id(case) in constructs:
                write_expected(result)
    print_table(results, args.show)
    if args.json:
        args.json.write_text(json.dumps([r.row() for r in results], indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
