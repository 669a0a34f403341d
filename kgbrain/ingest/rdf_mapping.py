"""Map RDF triples onto kgbrain's model (facts, annotations, predicate declarations), as ontology/rdf_mapping.ttl says.

The table of which IRI plays which role is data (`Mapping`, read from ontology/rdf_mapping.ttl by
ingest/ontology.py); this module implements the roles. Every triple read ends up either mapped or counted in
`batch.skipped` under a kind, so nothing is dropped silently: `extra["triples_mapped"] +
extra["triples_skipped"] == extra["triples_read"]`. A construct that spans several triples (a class expression
under a blank node, an RDF list) counts once in `skipped` and all its triples in `triples_skipped`.

Triples come in the plain form of ingest/ntriples.py: IRIs are `str`, blank nodes `str` starting with `_:`,
literals `(lexical, datatype IRI | None, language | None)` tuples.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from kgbrain.errors import OntologyError
from kgbrain.ingest import owl_rules
from kgbrain.ingest.batch import FactColumns, LoadBatch
from kgbrain.ingest.ntriples import Term, Triple
from kgbrain.ingest.rdf_intervals import TimedStatement, split_timed
from kgbrain.knowledge import (
    ANNOTATION_PREDICATES,
    DECLARATION_PREDICATES,
    META_PREDICATES,
    SOURCE_PREDICATES,
    Annotation,
    Declaration,
    Status,
)
from kgbrain.ruleset import Atom, Const, Rule

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
KGB = "https://kgbrain.dev/vocab#"
_FIRST, _REST, _NIL, _TYPE = RDF + "first", RDF + "rest", RDF + "nil", RDF + "type"
_OWL = owl_rules.OWL
_DIFFERENT_FROM = _OWL + "differentFrom"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# Predicate names with a fixed meaning in the facts-file contract; an ontology's own property with such a
# local name gets its prefix in front, so that exporting and re-loading the knowledge base keeps its meaning.
RESERVED_PREDICATES = (
    ANNOTATION_PREDICATES
    | DECLARATION_PREDICATES
    | SOURCE_PREDICATES
    | META_PREDICATES
    | {"is_a", "instance_of", "disjoint_with"}
    | {owl_rules.SAME_AS, owl_rules.DIFFERENT_FROM}  # owl:sameAs / owl:differentFrom: the eq-* rules read these
)
_SINGLE_VALUED = frozenset({"domain", "range", "inverse_of"})  # one value per predicate in the Predicate table
_PROPERTY_ROLES = frozenset(
    {
        "Type",
        "SubPropertyOf",
        "InverseOf",
        "Domain",
        "Range",
        "EquivalentProperty",
        "PropertyDisjointWith",
        "Chain",
        "SameAs",
    }
)
# Roles whose statement may point at a class expression (a blank node) that OWL 2 RL turns into rules.
_EXPRESSION_ROLES = frozenset({"IsA", "Equivalent", "DisjointWith", "IntersectionOf", "UnionOf", "ComplementOf"})
# Roles of a class axiom whose subject may be a class expression (a blank node no named term points at).
_SUBJECT_AXIOMS = frozenset({"IsA", "Equivalent", "DisjointWith"})
_CAMEL_1 = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_2 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_NON_WORD = re.compile(r"[^a-z0-9]+")
_Value = tuple[str, str, "str | None"]  # a literal value: (lexical, kgbrain datatype, language)
_CHECKED_DATATYPES = {"integer": int, "decimal": float, "double": float, "float": float}


@dataclass(frozen=True, slots=True)
class Mapping:
    """The mapping table of ontology/rdf_mapping.ttl, as plain dictionaries keyed by IRI."""

    prefixes: dict[str, str]  # namespace IRI -> id prefix
    roles: dict[str, str]  # predicate IRI -> role (IsA, Equivalent, Type, SameAs, Label, ...)
    declares: dict[str, str]  # rdf:type object -> what the subject is (Class, Property, Individual, ...)
    property_types: dict[str, str]  # rdf:type object -> property_type declaration value
    expressions: dict[str, str]  # rdf:type object or predicate that makes a blank node a class expression -> kind
    skip: dict[str, str]  # predicate -> skipped kind
    skip_types: dict[str, str]  # rdf:type object -> skipped kind
    term_skip: dict[str, str]  # predicate -> skipped kind when the subject is a declared class or property
    skip_namespaces: dict[str, str]  # predicate namespace -> skipped kind
    builtin_namespaces: frozenset[str]
    datatypes: dict[str, str]  # datatype IRI -> kgbrain datatype


def split_iri(iri: str) -> tuple[str, str]:
    """(namespace, local name): the cut is after the last '#' or '/'."""
    cut = max(iri.rfind("#"), iri.rfind("/"))
    authority = iri.find("://")
    if authority >= 0 and cut < authority + 3:  # https://pending.schema.org: a host, no local name
        return iri, ""
    return iri[: cut + 1], iri[cut + 1 :]


def derived_prefix(namespace: str) -> str:
    """The id prefix of a namespace not in the mapping: itself without scheme, 'www.' and trailing '#'/'/'."""
    rest = namespace.split("://", 1)[-1].removeprefix("www.")
    return rest.rstrip("#/") or namespace


def snake_case(name: str) -> str:
    """`knowsAbout` -> `knows_about`, `HTMLParser` -> `html_parser`, `part-of` -> `part_of`."""
    name = _CAMEL_2.sub(r"\1_\2", _CAMEL_1.sub(r"\1_\2", name))
    return _NON_WORD.sub("_", name.lower()).strip("_")


@dataclass
class _Out:
    """Intermediate results: predicates stay IRIs until every predicate of the file is known (for naming)."""

    relations: list[tuple[str, str, str]] = field(default_factory=list)  # (subject id, predicate IRI | name, object id)
    attributes: list[tuple[str, str, _Value]] = field(default_factory=list)
    # (predicate IRI, kind, value, whether the value is a predicate IRI too)
    declarations: list[tuple[str, str, str, bool]] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    # OWL 2 RL rules, binary predicates still IRIs (see ingest/owl_rules.py)
    rules: list[Rule] = field(default_factory=list)
    # class-level restrictions (subject class id, owl_rules.restriction() predicate, filler or value)
    class_facts: list[tuple[str, str, str]] = field(default_factory=list)
    # statements with a time (ingest/rdf_intervals.py): as relations and attributes, then valid_from, valid_to
    timed_relations: list[tuple[str, str, str, datetime | None, datetime | None]] = field(default_factory=list)
    timed_attributes: list[tuple[str, str, _Value, datetime | None, datetime | None]] = field(default_factory=list)
    mapped: int = 0
    skipped_triples: int = 0


class RdfMapper:
    """Turns the triples of one file into a LoadBatch."""

    def __init__(
        self,
        mapping: Mapping,
        *,
        file: str,
        source: str,
        trust: float,
        known_predicates: dict[str, str] | None = None,
        known_concepts: dict[str, str] | None = None,
        known_parented_types: Collection[str] = (),
    ) -> None:
        """Prepare to map one file whose facts get `source` and `trust`.

        `known_predicates` are the predicate IRIs the knowledge base has loaded already, with their names
        (ingest/loader.stored_predicate_iris): such an IRI keeps its name, and no other IRI takes it.
        `known_concepts` are the IRIs an earlier file merged into another term's concept (owl:sameAs), with that
        concept's id (ingest/loader.stored_same_iris): this file's statements about them go to that concept.
        `known_parented_types` are the declaring classes (`rdfs:Class`, ...) an earlier file gave a superclass.
        """
        self.m = mapping
        self._known = known_predicates or {}
        self._held = {name: iri for iri, name in self._known.items()}
        self.file = file
        self.source = source
        self.trust = trust
        self._ids: dict[str, str] = {}
        self._same: dict[str, str] = {}  # IRI -> canonical IRI (owl:sameAs)
        self._used: dict[str, str] = {}  # IRIs that name concepts -> their ids
        self._merged_before = known_concepts or {}
        self._parented_types = set(known_parented_types)  # _member_classes
        self._out = _Out()
        self._datatypes: set[str] = set()
        self._properties: set[str] = set()
        self._data_properties: set[str] = set()  # owl:DatatypeProperty: no prp-fp equality between values
        self._timed: list[TimedStatement] = []
        self._reader = owl_rules.ExprReader(self._blank_props, self._list, self._const, self._is_datatype)
        self._compiler = owl_rules.Compiler(self._concept, self.concept_id)

    # -- ids ------------------------------------------------------------------------------------

    def concept_id(self, iri: str) -> str:
        """The readable, deterministic concept id of an IRI (see ontology/rdf_mapping.ttl)."""
        cid = self._ids.get(iri)
        if cid is None:
            namespace, local = split_iri(iri)
            if not local or not namespace:
                cid = iri
            else:
                cid = f"{self.m.prefixes.get(namespace) or derived_prefix(namespace)}:{local}"
            self._ids[iri] = cid
        return cid

    def _concept(self, iri: str) -> str:
        """The id of a term that names a concept of this file (after owl:sameAs merging)."""
        if self._same:
            iri = self._same.get(iri, iri)
        cid = self._used.get(iri)
        if cid is None:
            cid = self._used[iri] = self._merged_before.get(iri) or self.concept_id(iri)
        return cid

    def predicate_names(self, iris: Iterable[str]) -> dict[str, str]:
        """snake_case names for predicate IRIs: one name per IRI, never one name for two IRIs.

        An IRI the knowledge base knows keeps its stored name. A new IRI gets the snake_case of its local name
        unless another IRI holds that name (in the knowledge base, or first in this file in IRI order); then the
        id prefix goes in front (`b.example/name` -> `b_example_name`). The facts-file names (RESERVED_PREDICATES)
        are never given to an ontology's own property.
        """
        names: dict[str, str] = {}
        by_name: dict[str, list[str]] = defaultdict(list)
        for iri in sorted(set(iris)):
            known = self._known.get(iri)
            if known is not None:
                names[iri] = known
            else:
                by_name[self._base_name(iri)].append(iri)
        taken = {n for n in by_name if n not in RESERVED_PREDICATES} | set(self._held)
        for name, group in sorted(by_name.items()):
            for i, iri in enumerate(group):
                free = name not in self._held and (name not in RESERVED_PREDICATES or iri.startswith(KGB))
                if i == 0 and free:
                    names[iri] = name
                    continue
                prefixed = f"{_predicate_word(self.concept_id(iri).rpartition(':')[0])}_{name}"
                while prefixed in taken:
                    prefixed = "x_" + prefixed
                taken.add(prefixed)
                names[iri] = prefixed
        return names

    @staticmethod
    def _base_name(iri: str) -> str:
        local = split_iri(iri)[1]
        if iri.startswith(KGB):
            return local
        return _predicate_word(snake_case(local) or "p")

    # -- mapping --------------------------------------------------------------------------------

    def map(self, triples: Sequence[Triple]) -> LoadBatch:
        """Map all triples of the file (they must be in memory: blank-node constructs need lookahead)."""
        out = self._out
        read = len(triples)
        triples, self._timed = split_timed(triples, Path(self.file).name, self._timeable)
        declared, referenced = self._survey(triples)
        terms = declared["Class"] | declared["Property"] | declared["AnnotationProperty"]
        properties = declared["Property"] | declared["AnnotationProperty"]
        self._properties = properties
        for p in sorted(properties):
            self._absolute(p)
        self._datatypes = declared["Datatype"]
        headers = dict.fromkeys(declared["Datatype"], "datatype")
        headers.update(dict.fromkeys(declared["Ontology"], "ontology_header"))
        actions: dict[str, tuple[str, str]] = {}  # predicate IRI -> what its statements become, see _action
        concept, relations = self._concept, out.relations
        for s, p, o in triples:
            if s.startswith("_:"):
                continue  # reached from the named term that points at it, or in _blank_roots
            if s in headers:
                self._skip(headers[s], o)
                continue
            if isinstance(o, str) and o.startswith("_:"):
                self._expression_axiom(s, p, o)
                continue
            action, arg = actions.get(p) or actions.setdefault(p, self._action(p, declared["AnnotationProperty"]))
            if action == "role":
                if s in properties and arg not in _PROPERTY_ROLES:
                    self._skip("annotation:property")
                elif arg == "IsA" and isinstance(o, str):
                    out.mapped += 1
                    relations.append((concept(s), "is_a", concept(o)))
                else:
                    self._role(arg, s, p, o)
            elif action == "skip" or (action == "term_skip" and s in terms):
                self._skip(arg)
            elif s in properties:
                self._skip("annotation:property")
            elif action in ("builtin", "annotation"):
                self._skip(arg)
            elif isinstance(o, tuple):
                out.mapped += 1
                self._attribute(s, p, o)
            else:
                out.mapped += 1
                relations.append((concept(s), p, concept(o)))
        self._blank_roots(referenced)
        self._map_timed()
        return self._batch(read)

    def _timeable(self, p: str) -> bool:
        """A predicate whose statements may hold for a time: a class membership, or any not of RDF/RDFS/OWL."""
        return p == _TYPE or (p not in self.m.roles and split_iri(p)[0] not in self.m.builtin_namespaces)

    def _map_timed(self) -> None:
        out = self._out
        for t in self._timed:
            out.mapped += 1
            s = self._concept(t.subject)
            if isinstance(t.object, tuple):
                out.timed_attributes.append((s, t.predicate, self._literal(t.object), t.valid_from, t.valid_to))
            else:
                p = "instance_of" if t.predicate == _TYPE else t.predicate
                out.timed_relations.append((s, p, self._concept(t.object), t.valid_from, t.valid_to))

    def _survey(self, triples: Sequence[Triple]) -> tuple[dict[str, set[str]], set[str]]:
        """The first pass: what each term is declared as, the blank nodes referred to, where each blank node's
        statements are, and the owl:sameAs merges (applied before any statement maps a term)."""
        m = self.m
        declared: dict[str, set[str]] = defaultdict(set)
        blank_out: dict[str, list[int]] = defaultdict(list)
        referenced: set[str] = set()
        same_pairs: list[tuple[str, str]] = []
        for i, (s, p, o) in enumerate(triples):
            if s.startswith("_:"):
                blank_out[s].append(i)
            if isinstance(o, str):
                if o.startswith("_:"):
                    referenced.add(o)
                elif p == _TYPE and o in m.declares:
                    declared[m.declares[o]].add(s)
                elif m.roles.get(p) == "SameAs" and not s.startswith("_:"):
                    same_pairs.append((s, o))
                elif m.roles.get(p) in ("IsA", "Equivalent"):
                    self._note_parented(s, p, o)
                if p == _TYPE and o == _OWL + "DatatypeProperty":
                    self._data_properties.add(s)
        # two properties owl:sameAs each other are equivalent properties (eq-rep-p), not one concept
        props = declared["Property"]
        self._merge_same([(a, b) for a, b in same_pairs if a not in props and b not in props])
        self._blank_out = blank_out
        self._consumed = bytearray(len(triples))
        self._triples = triples
        return declared, referenced

    def _note_parented(self, s: str, p: str, o: str) -> None:
        """A declaring class (`rdfs:Class`, ...) that this file gives a superclass, as `schema:Class
        owl:equivalentClass rdfs:Class` does: see _member_classes."""
        declares = self.m.declares
        if s in declares and not o.startswith("_:"):
            self._parented_types.add(s)
        if self.m.roles[p] == "Equivalent" and o in declares and not s.startswith("_:"):
            self._parented_types.add(o)

    def _member_classes(self, s: str, o: str) -> None:
        """`s a o` with `o` a declaring class (rdfs:Class, owl:Class, ...): a declaration, and where the ontology
        puts `o` under a class of its own (`schema:Class owl:equivalentClass rdfs:Class`), a membership too, so
        that cax-sco / cax-eqc make `s` a member of that class, as owlrl does. Elsewhere no fact: a declaration
        alone has no consequence that is compared, and one `instance_of owl:Class` per class would only cost."""
        if o in self._parented_types:
            self._out.relations.append((self._concept(s), "instance_of", self._concept(o)))

    def _action(self, p: str, annotation_properties: set[str]) -> tuple[str, str]:
        """What statements with predicate `p` become, as far as the predicate alone decides."""
        m = self.m
        self._absolute(p)
        namespace = split_iri(p)[0]
        if p in m.roles:
            return "role", m.roles[p]
        if p == _DIFFERENT_FROM:
            return "role", "DifferentFrom"
        if p in m.skip:
            return "skip", m.skip[p]
        if p in m.term_skip:
            return "term_skip", m.term_skip[p]
        if namespace in m.skip_namespaces:
            return "skip", m.skip_namespaces[namespace]
        if namespace in m.builtin_namespaces:
            return "builtin", "unmapped:" + self.concept_id(p)
        if p in annotation_properties:
            return "annotation", "annotation:other"
        return "assertion", ""

    def _absolute(self, iri: str) -> None:
        # a parser may hand on a relative IRI (N-Triples as written, a JSON-LD prefix that is not an IRI); a
        # property needs a stable identity, so it is refused rather than named after whatever it resolves to
        if not _SCHEME.match(iri):
            raise OntologyError(
                f"{Path(self.file).name}: the property <{iri}> is not an absolute IRI (no scheme such as http:); "
                "write the property's full IRI"
            )

    def _merge_same(self, pairs: list[tuple[str, str]]) -> None:
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        for a, b in pairs:
            ra, rb = find(a), find(b)
            if ra != rb:
                # the smaller id is the canonical one, whichever order the file states the pair in
                keep, drop = sorted((ra, rb), key=lambda iri: (self.concept_id(iri), iri))
                parent[drop] = keep
        for iri in parent:
            self._same[iri] = find(iri)
        for iri, canon in self._same.items():
            cid = self._concept(canon)
            self._out.annotations.append(Annotation(cid, "alias", self.concept_id(iri)))
            self._out.annotations.append(Annotation(cid, "alias", iri))
            self._concept(canon)

    def _role(self, role: str, s: str, p: str, o: Term) -> None:
        out = self._out
        if isinstance(o, tuple):
            if role in ("Label", "Alias", "Description"):
                out.mapped += 1
                lexical, _, lang = o
                if not lexical.strip():  # an empty name cannot be looked up, nor exported and loaded back
                    out.mapped -= 1
                    self._skip("invalid:empty_" + role.lower())
                    return
                kind = {"Label": "label", "Alias": "alias", "Description": "description"}[role]
                out.annotations.append(Annotation(self._concept(s), kind, lexical, _primary(lang)))
            else:
                self._skip("invalid:literal_object")
            return
        if role in ("Label", "Alias", "Description"):
            self._skip("invalid:iri_label")
            return
        out.mapped += 1
        if role == "IsA":
            out.relations.append((self._concept(s), "is_a", self._concept(o)))
        elif role == "Equivalent":
            a, b = self._concept(s), self._concept(o)
            out.relations += [(a, "is_a", b), (b, "is_a", a)]
        elif role == "DisjointWith":
            out.relations.append((self._concept(s), "disjoint_with", self._concept(o)))
        elif role == "SameAs" and (s in self._properties or o in self._properties):
            out.rules += owl_rules.equivalent_property(s, o, self.concept_id(s), self.concept_id(o))
            a, b = self._concept(s), self._concept(o)  # the statement kept, both ways (eq-sym), about the two terms
            out.relations += [(a, owl_rules.SAME_AS, b), (b, owl_rules.SAME_AS, a)]
        elif role == "SameAs":
            self._concept(s)
            self._concept(o)
        elif role == "DifferentFrom":
            out.relations.append((self._concept(s), owl_rules.DIFFERENT_FROM, self._concept(o)))
        elif role == "ComplementOf":  # `A owl:complementOf B`, B named (cls-com); a blank B is _expression_axiom's
            rules, _ = self._compiler.subclass(owl_rules.Named(s), owl_rules.Not(owl_rules.Named(o)), self._concept(s))
            out.rules += rules
        elif role == "Type":
            out.mapped -= 1
            self._type(s, o)
        elif role in ("SubPropertyOf", "InverseOf"):
            out.declarations.append((s, "sub_property_of" if role == "SubPropertyOf" else "inverse_of", o, True))
            s_id, o_id = self.concept_id(s), self.concept_id(o)
            if role == "SubPropertyOf":
                out.rules.append(owl_rules.sub_property(s, o, s_id, o_id))
            else:
                out.rules += owl_rules.inverse(s, o, s_id, o_id)
        elif role in ("EquivalentProperty", "PropertyDisjointWith"):
            make = owl_rules.equivalent_property if role == "EquivalentProperty" else owl_rules.disjoint_properties
            out.rules += make(s, o, self.concept_id(s), self.concept_id(o))
        elif role in ("Domain", "Range"):
            # a domain or range names a class without creating it (ranges are often datatypes such as xsd:string)
            out.declarations.append((s, role.lower(), self.concept_id(self._same.get(o, o)), False))
            target = self._reader.read(self._same.get(o, o))
            if isinstance(target, owl_rules.Named) and target.iri != owl_rules.LITERAL:
                rules, _ = owl_rules.domain_range(self._compiler, role.lower(), s, self.concept_id(s), target)
                out.rules += rules
        else:  # Members outside an owl:AllDisjointClasses node
            out.mapped -= 1
            self._skip("unmapped:" + self.concept_id(p))

    def _type(self, s: str, o: str) -> None:
        m, out = self.m, self._out
        if o in m.declares:
            what = m.declares[o]
            if what in ("Class", "Individual"):
                self._concept(s)
            if what == "Individual":
                out.annotations.append(Annotation(self._concept(s), "kind", "individual"))
            self._member_classes(s, o)
            out.mapped += 1
        elif o in m.property_types:
            out.declarations.append((s, "property_type", m.property_types[o], False))
            out.mapped += 1
            rule = owl_rules.characteristic(m.property_types[o], s, self.concept_id(s))
            if rule is not None:
                out.rules.append(rule)
            elif m.property_types[o] == "functional" and s not in self._data_properties:
                out.rules.append(owl_rules.functional(s, self.concept_id(s)))
        elif o in owl_rules.RULE_CHARACTERISTICS:
            out.mapped += 1
            rule = owl_rules.characteristic(owl_rules.RULE_CHARACTERISTICS[o], s, self.concept_id(s))
            out.rules.append(rule) if rule is not None else None
        elif o == owl_rules.NOTHING:  # cls-nothing2: kept, and denied by a rule (_rules), so it shows as a conflict
            out.mapped += 1
            out.relations.append((self._concept(s), "instance_of", self._concept(o)))
        elif o in m.skip_types:
            self._skip(m.skip_types[o])
        elif o in m.expressions:
            self._skip(m.expressions[o])
        elif split_iri(o)[0] in m.builtin_namespaces:
            self._skip("unmapped:" + self.concept_id(o))
        else:
            out.relations.append((self._concept(s), "instance_of", self._concept(o)))
            out.mapped += 1

    def _attribute(self, s: str, p: str, o: tuple[str, str | None, str | None]) -> None:
        value = self._literal(o)
        self._out.attributes.append((self._concept(s), p, value))
        if o[1] is not None and value[1] == o[1] and self.m.datatypes.get(o[1], o[1]) != o[1]:  # ill-typed, kept
            rule = owl_rules.ill_typed_rule(self._concept(s), p, self.concept_id(p), value[0])
            self._out.rules.append(rule)

    def _literal(self, o: tuple[str, str | None, str | None]) -> _Value:
        lexical, datatype, lang = o
        kind = "string" if datatype is None else self.m.datatypes.get(datatype, datatype)
        if kind == "boolean":
            lexical = {"1": "true", "0": "false"}.get(lexical.strip(), lexical.strip())
            if lexical not in ("true", "false"):
                kind = datatype or kind
        elif kind in _CHECKED_DATATYPES:
            try:
                number = _CHECKED_DATATYPES[kind](lexical)
            except ValueError:
                kind = datatype or kind  # keep an ill-typed value as text under its own datatype IRI
            else:
                if kind == "integer":  # canonical form, as rdflib gives it: "007" and "+7" are the value 7
                    lexical = str(number)
        return lexical, kind, _primary(lang)

    # -- OWL 2 RL --------------------------------------------------------------------------------

    def _has_key(self, s: str, o: str) -> tuple[list[Rule], list[str]]:
        """prp-key: `C owl:hasKey (p1 ... pn)` of named properties."""
        keys = self._list(o)
        if keys and all(isinstance(k, str) and not k.startswith("_:") for k in keys):
            return [owl_rules.has_key(self._concept(s), [str(k) for k in keys], self._concept(s))], []
        return [], ["has_key"]

    def _expression_axiom(self, s: str, p: str, o: str) -> None:
        """A statement about a named term whose object is a blank node: rules where OWL 2 RL has them.

        The statement and everything under the blank node count as mapped when at least one rule came out;
        the parts OWL 2 RL cannot use (an existential super-class, ...) are still counted in `skipped`.
        """
        role = self.m.roles.get(p)
        read, compiler = self._reader.read, self._compiler
        rules: list[Rule] = []
        skipped: list[str] = []
        level = 0  # class-level restriction facts stated
        if role in _EXPRESSION_ROLES:
            named: owl_rules.Expr = owl_rules.Named(s)
            anchor = self._concept(s)
            if role in ("IntersectionOf", "UnionOf"):  # OWL 1 style: the named class IS the list's and / or
                items = self._list(o)
                parts = tuple(read(x) for x in items) if items is not None else (owl_rules.Other("bad_list"),)
                expr: owl_rules.Expr = owl_rules.And(parts) if role == "IntersectionOf" else owl_rules.Or(parts)
            else:
                expr = read(o)
            if role in ("DisjointWith", "ComplementOf"):
                rules, skipped = compiler.subclass(named, owl_rules.Not(expr), anchor)
                if role == "ComplementOf":
                    skipped.append("complement_subclass")  # ¬E ⊑ C
            else:
                rules, skipped = compiler.subclass(named, expr, anchor)
                skipped, level = self._class_level(anchor, expr, skipped)
                if role != "IsA":
                    back, back_skipped = compiler.subclass(expr, named, anchor)
                    defined, back_skipped = self._definition(expr, anchor, back_skipped)
                    rules += back + defined
                    skipped += back_skipped
                self._schema_is_a(anchor, role, expr)
        elif role in ("Domain", "Range"):
            rules, skipped = owl_rules.domain_range(compiler, role.lower(), s, self.concept_id(s), read(o))
        elif role == "HasKey":
            rules, skipped = self._has_key(s, o)
        elif role == "Chain":
            items = self._list(o)
            links = [self._reader.prop(x) for x in items or ()]
            if items and all(links):
                rules = [owl_rules.chain(s, [x for x in links if x], self.concept_id(s))]
            else:
                skipped = ["property_chain"]
        out = self._out
        if not rules and not level:
            if not skipped:
                kind = self._construct_kind(p, o)
            else:
                kind = skipped[0] if skipped[0] == "property_chain" else "class_expression:" + skipped[0]
            self._skip(kind, o)
            return
        out.rules += rules
        out.mapped += 1 + self._consume(o)
        for kind in sorted(set(skipped)):
            out.skipped["class_expression:" + kind] += 1

    def _class_level(self, anchor: str, sup: owl_rules.Expr, skipped: list[str]) -> tuple[list[str], int]:
        """`anchor ⊑ sup` as class-level restriction facts: `skipped` without the existentials they cover, and
        how many facts."""
        facts, covered = self._compiler.class_facts(sup)
        self._out.class_facts += [(anchor, pred, str(filler.value)) for pred, filler in facts]
        left = list(skipped)
        for _ in range(covered):
            left.remove("some_values_superclass")
        return left, len(facts)

    def _definition(self, sub: owl_rules.Expr, anchor: str, skipped: list[str]) -> tuple[list[Rule], list[str]]:
        """`sub ⊑ anchor` at class level (owl_rules.Compiler.definition): its rules, and `skipped` without the
        `∀p.D` on the sub-class side that they cover."""
        rules = self._compiler.definition(sub, anchor)
        if rules and isinstance(sub, owl_rules.All):
            skipped = [k for k in skipped if k != "all_values_subclass"]
        return rules, skipped

    def _schema_is_a(self, anchor: str, role: str | None, expr: owl_rules.Expr) -> None:
        """The class hierarchy an intersection or union states (OWL 2 RL scm-int, scm-uni), as `is_a` facts.

        `role` is the axiom's, or "Sub" for `C1 ⊔ ... ⊔ Cn ⊑ C` (the union on the sub-class side).

        The rules give members; the reasoner's hierarchy reads `is_a` facts, so without these `SpicyPizza ≡
        Pizza ⊓ ∃hasTopping.SpicyTopping` left "Is a spicy pizza a pizza?" undecided.
        """
        if not isinstance(expr, (owl_rules.And, owl_rules.Or)):
            return
        named = [p.iri for p in expr.parts if isinstance(p, owl_rules.Named) and p.iri != owl_rules.THING]
        ids = [c for c in map(self._concept, named) if c != anchor]
        if isinstance(expr, owl_rules.And) and role in ("Equivalent", "IsA", "IntersectionOf"):
            self._out.relations += [(anchor, "is_a", c) for c in ids]  # C ≡ C1 ⊓ ... ⊓ Cn: C ⊑ Ci
        elif isinstance(expr, owl_rules.Or) and role in ("Equivalent", "UnionOf", "Sub"):
            self._out.relations += [(c, "is_a", anchor) for c in ids]  # C ≡ C1 ⊔ ... ⊔ Cn: Ci ⊑ C

    def _blank_props(self, node: str) -> list[tuple[str, Term]]:
        return [(p, o) for i in self._blank_out.get(node, ()) for _, p, o in [self._triples[i]]]

    def _const(self, term: Term) -> Const:
        """A hasValue value as a rule constant: a concept id, or a typed literal."""
        if isinstance(term, str):
            return Const(self._concept(term))
        lexical, kind, _ = self._literal(term)
        if kind in _CHECKED_DATATYPES:
            return Const(_CHECKED_DATATYPES[kind](lexical), literal=True)
        if kind == "boolean":
            return Const(lexical == "true", literal=True)
        return Const(lexical, literal=True)

    def _is_datatype(self, iri: str) -> bool:
        return iri.startswith(owl_rules.XSD) or iri in self._datatypes or iri == RDF + "langString"

    def _rules(self, names: dict[str, str]) -> list[Rule]:
        """The file's OWL 2 RL rules with kgbrain predicate names, plus the generic ones its facts need."""
        out = self._out
        rules = list(out.rules)
        fixed = {p for _, p, _ in out.relations if ":" not in p} | {r.head.predicate for r in rules}
        if "is_a" in fixed:
            rules.append(owl_rules.CAX_SCO)
        if "disjoint_with" in fixed:
            rules += owl_rules.CAX_DW
        if owl_rules.DIFFERENT_FROM in fixed:
            rules.append(owl_rules.EQ_DIFF)
        if self._names_nothing(rules):  # asserted `x a owl:Nothing`, or a class below it (derived memberships)
            rules.append(owl_rules.nothing_rule(self.concept_id(owl_rules.NOTHING)))
        rules += self._restriction_rules(rules)
        origin = "owl2rl:" + Path(self.file).name

        def rename(a: Atom) -> Atom:
            return Atom(owl_rules.restriction_name(a.predicate, names), a.args, a.negated, a.naf)

        return [
            Rule(r.id, rename(r.head), tuple(rename(a) if isinstance(a, Atom) else a for a in r.body), r.kind, origin)
            for r in owl_rules.unique_ids(rules)
        ]

    def _names_nothing(self, rules: list[Rule]) -> bool:
        nothing = self.concept_id(owl_rules.NOTHING)
        if any(o == nothing for _, _, o in self._out.relations):
            return True
        atoms = (a for r in rules for a in (r.head, *r.body) if isinstance(a, Atom))
        return any(Const(nothing) in a.args for a in atoms)

    def _restriction_rules(self, rules: list[Rule]) -> list[Rule]:
        """scm-svf1/2, scm-avf1/2, scm-hv for the class-level restrictions this file states or reads."""
        used = {split for _, p, _ in self._out.class_facts if (split := owl_rules.split_restriction(p))}
        used |= {
            split
            for r in rules
            for a in (r.head, *r.body)
            if isinstance(a, Atom) and (split := owl_rules.split_restriction(a.predicate))
        }
        if not used:
            return []
        subs = {(p, q) for p, kind, q, is_pred in self._out.declarations if kind == "sub_property_of" and is_pred}
        return owl_rules.restriction_rules(used, subs, self.concept_id)

    # -- blank nodes ----------------------------------------------------------------------------

    def _construct_kind(self, p: str, node: str) -> str:
        m = self.m
        if p in m.expressions:
            return m.expressions[p]
        if p in m.skip:
            return m.skip[p]
        for i in self._blank_out.get(node, ()):
            _, bp, bo = self._triples[i]
            if bp == _TYPE and isinstance(bo, str) and bo in m.expressions:
                return m.expressions[bo]
            if bp in m.expressions:
                return m.expressions[bp]
        return "blank_node"

    def _skip(self, kind: str, obj: Term | None = None) -> None:
        """Count one skipped construct: this triple and, if `obj` is a blank node, everything under it."""
        out = self._out
        out.skipped[kind] += 1
        out.skipped_triples += 1
        if isinstance(obj, str) and obj.startswith("_:"):
            out.skipped_triples += self._consume(obj)

    def _consume(self, node: str) -> int:
        """Mark the triples under a blank node as accounted for; returns how many were new."""
        count = 0
        stack = [node]
        while stack:
            for i in self._blank_out.get(stack.pop(), ()):
                if not self._consumed[i]:
                    self._consumed[i] = 1
                    count += 1
                    o = self._triples[i][2]
                    if isinstance(o, str) and o.startswith("_:"):
                        stack.append(o)
        return count

    def _blank_roots(self, referenced: set[str]) -> None:
        """Blank nodes no named term points at: OWL axioms such as owl:AllDisjointClasses or owl:Axiom."""
        out = self._out
        roots = sorted(b for b in self._blank_out if b not in referenced)
        for node in roots:
            if self._consumed[self._blank_out[node][0]]:
                continue
            types = [o for i in self._blank_out[node] for _, p, o in [self._triples[i]] if p == _TYPE]
            if self._expression_subject(node) or self._individual_axiom(node, types) or self._all_disjoint(node, types):
                continue
            kinds = [self.m.skip_types.get(t) or self.m.expressions.get(t) for t in types if isinstance(t, str)]
            kind = next((k for k in kinds if k), None) or self._construct_kind("", node)
            out.skipped[kind] += 1
            out.skipped_triples += self._consume(node)
        leftover = sum(1 for i, (s, _, _) in enumerate(self._triples) if s.startswith("_:") and not self._consumed[i])
        if leftover:  # blank nodes only reachable from each other (a cycle): nothing to map
            out.skipped["blank_node"] += 1
            out.skipped_triples += leftover

    def _all_disjoint(self, node: str, types: list[Term]) -> bool:
        """owl:AllDisjointClasses (pairwise `disjoint_with`) or owl:AllDisjointProperties (pairwise prp-pdw rules,
        named prp-adp): whether the node was one (it is then accounted for)."""
        kinds = {self.m.declares.get(t) for t in types if isinstance(t, str)}
        if not kinds & {"AllDisjointClasses", "AllDisjointProperties"}:
            return False
        members = self._members(node)
        if members is None:
            return False
        if "AllDisjointClasses" in kinds:
            ids = sorted({self._concept(x) for x in members})
            self._out.relations += [(a, "disjoint_with", b) for k, a in enumerate(ids) for b in ids[k + 1 :]]
        else:
            props = sorted(set(members))
            for k, p in enumerate(props):
                for q in props[k + 1 :]:
                    self._out.rules += owl_rules.disjoint_properties(
                        p, q, self.concept_id(p), self.concept_id(q), "prp-adp"
                    )
        self._out.mapped += self._consume(node)
        return True

    def _expression_subject(self, node: str) -> bool:
        """A class expression as the subject of a class axiom: `[∃p.D] rdfs:subClassOf C` (cls-svf1),
        `[A ⊓ B] rdfs:subClassOf C` (cls-int1), `[A ⊔ B] rdfs:subClassOf C` (cls-uni), `[p hasValue v]
        rdfs:subClassOf C` (cls-hv2), or `[E] owl:equivalentClass C` written restriction-first: the same rules as
        `C`'s side would give. Whether any rule came out (the node is then accounted for)."""
        axioms = [(p, o) for p, o in self._blank_props(node) if self.m.roles.get(p) in _SUBJECT_AXIOMS]
        named = [(p, o) for p, o in axioms if isinstance(o, str) and not o.startswith("_:")]
        if not named:
            return False
        expr, compiler = self._reader.read(node), self._compiler
        rules: list[Rule] = []
        skipped: list[str] = []
        facts = False
        for p, o in named:
            role, anchor, target = self.m.roles[p], self._concept(o), owl_rules.Named(o)
            if role == "DisjointWith":
                found, lost = compiler.subclass(target, owl_rules.Not(expr), anchor)
            else:
                found, lost = compiler.subclass(expr, target, anchor)
                defined, lost = self._definition(expr, anchor, lost)
                found += defined
                if role == "Equivalent":
                    back, back_lost = compiler.subclass(target, expr, anchor)
                    back_lost, level = self._class_level(anchor, expr, back_lost)
                    found, lost = found + back, lost + back_lost
                    facts = facts or bool(level)
                self._schema_is_a(anchor, "Sub" if role == "IsA" else role, expr)
            rules += found
            skipped += lost
        out = self._out
        if not rules and not facts:
            return False
        out.rules += rules
        out.mapped += self._consume(node)
        for kind in sorted(set(skipped)):
            out.skipped["class_expression:" + kind] += 1
        return True

    def _individual_axiom(self, node: str, types: list[Term]) -> bool:
        """owl:AllDifferent (eq-diff2/3: pairwise `different_from`) and owl:NegativePropertyAssertion (prp-npa1/2:
        a denial); whether the node was one (it is then accounted for)."""
        props = dict(self._blank_props(node))
        out = self._out
        if _OWL + "AllDifferent" in types:
            listed = props.get(_OWL + "members", props.get(_OWL + "distinctMembers"))
            items = self._list(listed) if isinstance(listed, str) else None
            if items is None or not all(isinstance(x, str) and not x.startswith("_:") for x in items):
                return False
            # every pair, a pair merged by owl:sameAs too: `different_from(c, c)` is what eq-diff2/3 catch
            members = [self._concept(x) for x in items if isinstance(x, str)]
            pairs = {(min(a, b), max(a, b)) for k, a in enumerate(members) for b in members[k + 1 :]}
            out.relations += [(a, owl_rules.DIFFERENT_FROM, b) for a, b in sorted(pairs)]
        elif _OWL + "NegativePropertyAssertion" in types:
            s, p = props.get(_OWL + "sourceIndividual"), props.get(_OWL + "assertionProperty")
            o = props.get(_OWL + "targetIndividual", props.get(_OWL + "targetValue"))
            if not (isinstance(s, str) and isinstance(p, str) and o is not None) or "_:" in (s[:2], p[:2]):
                return False
            target = self._const(o)
            ids = (self._concept(s), self.concept_id(p), str(target.value))
            out.rules.append(owl_rules.negative_assertion(p, Const(self._concept(s)), target, ids))
        else:
            return False
        out.mapped += self._consume(node)
        return True

    def _members(self, node: str) -> list[str] | None:
        """The named members of an owl:AllDisjointClasses or AllDisjointProperties node's owl:members list, or None."""
        for i in self._blank_out[node]:
            _, p, o = self._triples[i]
            if self.m.roles.get(p) == "Members" and isinstance(o, str):
                items = self._list(o)
                if items is not None and all(isinstance(x, str) and not x.startswith("_:") for x in items):
                    return [x for x in items if isinstance(x, str)]
        return None

    def _list(self, node: str) -> list[Term] | None:
        items: list[Term] = []
        seen: set[str] = set()
        while node != _NIL:
            if node in seen or not node.startswith("_:"):
                return None
            seen.add(node)
            first = rest = None
            for i in self._blank_out.get(node, ()):
                _, p, o = self._triples[i]
                if p == _FIRST:
                    first = o
                elif p == _REST:
                    rest = o
            if first is None or not isinstance(rest, str):
                return None
            items.append(first)
            node = rest
        return items

    # -- output ---------------------------------------------------------------------------------

    def _single_valued(self, declarations: list[Declaration]) -> list[Declaration]:
        """A predicate has one domain, range and inverse in kgbrain: keep the first (sorted), count the rest."""
        out, kept = self._out, []
        seen: set[tuple[str, str]] = set()
        for d in declarations:
            if d.kind in _SINGLE_VALUED:
                if (d.predicate, d.kind) in seen:
                    out.skipped[f"{d.kind}:additional"] += 1
                    out.mapped -= 1
                    out.skipped_triples += 1
                    continue
                seen.add((d.predicate, d.kind))
            kept.append(d)
        return kept

    def _predicate_iris(self) -> set[str]:
        """Every property IRI the file's facts, declarations and rules use (a restriction's: its property's)."""
        out = self._out
        found = {p for _, p, _ in out.relations} | {p for _, p, _ in out.class_facts}
        found |= {p for _, p, _ in out.attributes}
        found |= {t[1] for t in out.timed_relations} | {t[1] for t in out.timed_attributes}
        found |= {d[0] for d in out.declarations} | {d[2] for d in out.declarations if d[3]}
        found |= {a.predicate for r in out.rules for a in (r.head, *r.body) if isinstance(a, Atom)}
        found = {split[1] if (split := owl_rules.split_restriction(p)) else p for p in found}
        return {p for p in found if ":" in p}  # IRIs; `instance_of`, `is_a`, `same_as` ... are kgbrain's names

    def _intervals(self) -> dict[str, list[datetime | None]]:
        """valid_from / valid_to in _columns' order (the timed relations last of the relations, attributes too)."""
        out = self._out
        if not out.timed_relations and not out.timed_attributes:
            return {}
        before_rel, before_attr = [None] * (len(out.relations) + len(out.class_facts)), [None] * len(out.attributes)
        rel, attr = out.timed_relations, out.timed_attributes
        return {
            "valid_from": [*before_rel, *(t[3] for t in rel), *before_attr, *(t[3] for t in attr)],
            "valid_to": [*before_rel, *(t[4] for t in rel), *before_attr, *(t[4] for t in attr)],
        }

    def _batch(self, triples_read: int) -> LoadBatch:
        out = self._out
        names = self.predicate_names(self._predicate_iris())
        new_iris = {iri: name for iri, name in names.items() if ":" in iri and iri not in self._known}
        source, trust = self.source, self.trust
        facts = _columns(
            [(s, names.get(p, p), o) for s, p, o in out.relations]
            + [(s, owl_rules.restriction_name(p, names), o) for s, p, o in out.class_facts]
            + [(s, names.get(p, p), o) for s, p, o, _, _ in out.timed_relations],
            [(s, names[p], v) for s, p, v in out.attributes]
            + [(s, names[p], v) for s, p, v, _, _ in out.timed_attributes],
            source,
            trust,
            self._intervals(),
        )
        declarations = sorted(
            {Declaration(names[p], kind, names[v] if is_pred else v) for p, kind, v, is_pred in out.declarations},
            key=lambda d: (d.predicate, d.kind, d.value),
        )
        declarations = self._single_valued(declarations)
        rules = self._rules(names)
        annotations = [Annotation(cid, "alias", iri) for iri, cid in sorted(self._used.items())]
        # sorted, so that the preferred label (the first one per language) does not depend on triple order
        annotations += sorted(set(out.annotations), key=lambda a: (a.concept, a.kind, a.lang or "", a.text))
        return LoadBatch(
            file=self.file,
            facts=facts,
            annotations=annotations,
            declarations=declarations,
            source_trust={self.source: self.trust},
            rows_read=triples_read,
            skipped=dict(sorted(out.skipped.items())),
            rules=rules,
            owl2rl=dict(sorted(Counter(r.id.split(":", 1)[0] for r in rules).items())),
            predicate_iris=dict(sorted(new_iris.items())),
            same_iris={iri: self._concept(iri) for iri, canon in sorted(self._same.items()) if iri != canon},
            source_unique_names={source: False},
            extra={
                "triples_read": triples_read,
                "triples_mapped": out.mapped,
                "triples_skipped": out.skipped_triples,
                "concepts_seen": len(self._used),
            },
        )


def _columns(
    relations: list[tuple[str, str, str]],
    attributes: list[tuple[str, str, _Value]],
    source: str,
    trust: float,
    intervals: dict[str, list[datetime | None]],
) -> FactColumns:
    """Facts column-wise, as the bulk loader takes them (it computes the fact ids)."""
    n_rel, n = len(relations), len(relations) + len(attributes)
    langs = [v[2] for _, _, v in attributes]
    return FactColumns.of(
        intervals
        | {
            "subject": [r[0] for r in relations] + [a[0] for a in attributes],
            "predicate": [r[1] for r in relations] + [a[1] for a in attributes],
            "object": [r[2] for r in relations] + [None] * len(attributes),
            "lexical": [None] * n_rel + [v[0] for _, _, v in attributes],
            "datatype": [None] * n_rel + [v[1] for _, _, v in attributes],
            "unit": [None] * n,
            "value_lang": [None] * n_rel + langs,
            "polarity": [True] * n,
            "confidence": [1.0] * n,
            "source": [source] * n,
            "trust": [trust] * n,
            "authority": [None] * n,
            "observed_at": [None] * n,
            "loaded_at": [None] * n,
            "status": [Status.ACTIVE.value] * n,
            "lang": [None] * n_rel + langs,
            "fact_id": [""] * n,
        }
    )


def _predicate_word(text: str) -> str:
    word = _NON_WORD.sub("_", text.lower()).strip("_")
    return word if word[:1].isalpha() else "p_" + word


def _primary(lang: str | None) -> str | None:
    """The primary language subtag: labels tagged en-GB are English labels."""
    return lang.split("-", 1)[0].lower() if lang else None
