"""OWL 2 RL: class expressions and property axioms of an ontology -> built-in rules (kgbrain.ruleset).

Each rule is the instance of one rule of the OWL 2 RL tables
(https://www.w3.org/TR/owl2-profiles/#Reasoning_in_OWL_2_RL_and_RDF_Graphs_using_Rules) for one axiom, and
its id is that table name plus the axiom's named terms, so reloading a file gives the same ids:
`[prp-dom:ub:teacherOf:ub:Faculty] instance_of(X, 'ub:Faculty') :- teacher_of(X, Y).`

Class expressions under blank nodes become rule bodies and heads directly: an intersection or restriction
gets no concept of its own (nothing to name, nothing to show in answers). A sub-class-side expression
(intersection, union, someValuesFrom, hasValue) is a body, a super-class-side one (intersection,
allValuesFrom, hasValue, complementOf) gives heads, so `Chair ≡ Person ⊓ ∃headOf.Department` gives
`[cls-int1:ub:Chair] instance_of(X, 'ub:Chair') :- instance_of(X, 'ub:Person'), head_of(X, Y),
instance_of(Y, 'ub:Department').` (the RL direction) and `[cls-int2:ub:Chair:ub:Person] instance_of(X,
'ub:Person') :- instance_of(X, 'ub:Chair').`; `Chair ⊑ ∃headOf.Department` is outside
OWL 2 RL (an existential head) and is reported as skipped under its kind.

Class membership is written `instance_of(X, 'ub:Person')`, not `'ub:Person'(X)`: a unary atom also matches the
classes that are `is_a` the class, and an OWL class axiom says nothing about sub-classes as members. Rules are
built while predicate names are still IRIs (or the fixed name `instance_of`); ingest/rdf_mapping.py renames
them once every predicate name of the file is known.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgbrain.ingest.ntriples import Term
from kgbrain.ruleset import Atom, CompareOp, Comparison, Const, Rule, Var
from kgbrain.ruleset import Literal as BodyLiteral
from kgbrain.ruleset import Term as RuleTerm

OWL = "http://www.w3.org/2002/07/owl#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"
THING = OWL + "Thing"
INSTANCE_OF = "instance_of"
LITERAL = RDFS + "Literal"
_MAX_ALTERNATIVES = 64  # a union of unions multiplies rule bodies; beyond this the axiom is skipped
_MAX_DEPTH = 32

# The OWL 2 RL rules whose head is `false` (an inconsistency). Each is compiled with the denial of one of its
# premises as the head, so that it fires as a conflict between two facts (reasoning/tms/contradictions.py
# types it `inconsistency` and records the rule id) and nothing is deleted.
INCONSISTENCY_RULES = frozenset(
    {
        "eq-diff1", "eq-diff2", "eq-diff3", "prp-irp", "prp-asyp", "prp-pdw", "prp-adp", "prp-npa1", "prp-npa2",
        "cls-nothing2", "cls-com", "cls-maxc1", "cls-maxqc1", "cls-maxqc2", "cax-dw", "cax-adc", "dt-not-type",
    }
)  # fmt: skip
NOTHING = OWL + "Nothing"
DIFFERENT_FROM = "different_from"
SAME_AS = (
    "same_as"  # owl:sameAs derived by prp-fp, prp-ifp, prp-key, cls-maxc2, cls-maxqc3/4 (reasoning/rules/equality)
)

# Class-level restrictions: `C ⊑ ∃p.D` is the fact `C some_values__p D` (`∀p.D`: all_values__p, `p hasValue v`:
# has_value__p), so the anonymous restriction class takes part in the class hierarchy as owlrl's blank node does
# (scm-svf1/2, scm-avf1/2, scm-hv): a filler's super-classes and a property's super-properties carry the fact up,
# and a class with the restriction is a sub-class of every class the restriction is a sub-class of. The double
# underscore keeps these names apart from an ontology's own properties (snake_case names never contain one).
RESTRICTION_NAMES = {"some": "some_values__", "all": "all_values__", "value": "has_value__"}
_MARK = "\x1f"  # between kind and property IRI while predicate names are still IRIs


def restriction(kind: str, iri: str) -> str:
    """The class-level predicate of a `kind` restriction on the property `iri`, before names are known."""
    return f"{kind}{_MARK}{iri}"


def split_restriction(predicate: str) -> tuple[str, str] | None:
    """(kind, property IRI) of a `restriction()` predicate, else None."""
    kind, mark, iri = predicate.partition(_MARK)
    return (kind, iri) if mark else None


def restriction_name(predicate: str, names: dict[str, str]) -> str:
    """A predicate's kgbrain name: `names` maps IRIs; a restriction predicate is named after its property's name."""
    split = split_restriction(predicate)
    if split is None:
        return names.get(predicate, predicate)
    return RESTRICTION_NAMES[split[0]] + names[split[1]]


def is_restriction_predicate(name: str) -> bool:
    """Whether a stored predicate name is a class-level restriction (`some_values__has_topping`)."""
    return name.startswith(tuple(RESTRICTION_NAMES.values()))


def restriction_rules(
    used: set[tuple[str, str]], sub_properties: set[tuple[str, str]], term_id: Callable[[str], str]
) -> list[Rule]:
    """The generic schema rules of the class-level restrictions a file uses, predicates still IRIs.

    scm-svf1 / scm-avf1: `C some_values__p D`, `D is_a E` give `C some_values__p E` (one rule per property);
    scm-svf2 / scm-hv: a sub-property's restriction holds for the super-property; scm-avf2 the other way round.
    """
    kinds = {k for k, _ in used}
    props = set(used)
    grown = True
    while grown:  # the properties a restriction reaches along sub-property axioms, either way
        pairs = {(k, p, q) for k in kinds for p, q in sub_properties if (k, p) in props or (k, q) in props}
        grown = not {(k, x) for k, p, q in pairs for x in (p, q)} <= props
        props |= {(k, x) for k, p, q in pairs for x in (p, q)}
    rules: list[Rule] = []
    for kind, iri in sorted(props):
        if kind in ("some", "all"):
            pred = restriction(kind, iri)
            body = (Atom(pred, (_X, _Y)), Atom("is_a", (_Y, _Z)))
            climb = "scm-svf1" if kind == "some" else "scm-avf1"
            rules.append(Rule(f"{climb}:{term_id(iri)}", Atom(pred, (_X, _Z)), body))
    table = {"some": "scm-svf2", "value": "scm-hv", "all": "scm-avf2"}
    for kind, p, q in sorted(pairs):
        sub, sup = (restriction(kind, p), restriction(kind, q))
        if kind == "all":  # ∀q.D ⊑ ∀p.D when p ⊑ q
            sub, sup = sup, sub
        rid = f"{table[kind]}:{term_id(p)}:{term_id(q)}"
        rules.append(Rule(rid, Atom(sup, (_X, _Y)), (Atom(sub, (_X, _Y)),)))
    return rules


# Generic rules over stored facts: one rule for every `is_a` (GO alone has 77k) and every `disjoint_with`.
CAX_SCO = Rule(
    "cax-sco",
    Atom("instance_of", (Var("X"), Var("D"))),
    (Atom("instance_of", (Var("X"), Var("C"))), Atom("is_a", (Var("C"), Var("D")))),
)
CAX_DW = (
    Rule(
        "cax-dw",
        Atom("instance_of", (Var("X"), Var("D")), negated=True),
        (Atom("instance_of", (Var("X"), Var("C"))), Atom("disjoint_with", (Var("C"), Var("D")))),
    ),
    Rule(
        "cax-dw:inverse",  # disjoint_with is stored one way round
        Atom("instance_of", (Var("X"), Var("C")), negated=True),
        (Atom("instance_of", (Var("X"), Var("D"))), Atom("disjoint_with", (Var("C"), Var("D")))),
    ),
)

# eq-diff1/2/3: `a owl:differentFrom b` (and every pair of an owl:AllDifferent) is a `different_from` fact;
# `a owl:sameAs b` merges a and b into one concept, so a merged pair shows as `different_from(c, c)`.
EQ_DIFF = Rule(
    "eq-diff1",
    Atom(DIFFERENT_FROM, (Var("X"), Var("X")), negated=True),
    (Atom(DIFFERENT_FROM, (Var("X"), Var("X"))),),
)


def nothing_rule(nothing_id: str) -> Rule:
    """cls-nothing2: `x a owl:Nothing` is false (its membership is denied, as a conflict)."""
    member = Atom(INSTANCE_OF, (Var("X"), Const(nothing_id)))
    return Rule("cls-nothing2", Atom(member.predicate, member.args, negated=True), (member,))


def ill_typed_rule(subject_id: str, predicate: str, predicate_id: str, lexical: str) -> Rule:
    """dt-not-type: a literal outside its datatype's lexical space ("abc"^^xsd:integer) is false; the statement is
    kept (as text under the datatype IRI) and denied by this rule, so that it shows as a conflict."""
    stated = Atom(predicate, (Const(subject_id), Const(lexical, literal=True)))
    return Rule(f"dt-not-type:{subject_id}:{predicate_id}", Atom(predicate, stated.args, negated=True), (stated,))


# -- class expressions --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prop:
    """A property expression: a property IRI, or its inverse (`owl:inverseOf` under a blank node)."""

    iri: str
    inverse: bool = False


@dataclass(frozen=True, slots=True)
class Named:
    iri: str


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Some:
    prop: Prop
    filler: Expr


@dataclass(frozen=True, slots=True)
class All:
    prop: Prop
    filler: Expr


@dataclass(frozen=True, slots=True)
class HasValue:
    prop: Prop
    value: Const


@dataclass(frozen=True, slots=True)
class Max:
    """`≤ n p.D` (owl:maxCardinality, or owl:maxQualifiedCardinality with owl:onClass D; D None: any)."""

    n: int
    prop: Prop
    filler: Expr | None


@dataclass(frozen=True, slots=True)
class OneOf:
    """`{a1, ..., an}` (owl:oneOf of named individuals)."""

    members: tuple[Const, ...]


@dataclass(frozen=True, slots=True)
class Not:
    inner: Expr


@dataclass(frozen=True, slots=True)
class Other:
    """An expression OWL 2 RL cannot use in the position it appears in (or at all): `kind` says which."""

    kind: str


Expr = Named | And | Or | Some | All | HasValue | Max | OneOf | Not | Other


class ExprReader:
    """Reads the class expression under a blank node (or a named class) from the file's triples."""

    def __init__(
        self,
        props: Callable[[str], Sequence[tuple[str, Term]]],
        rdf_list: Callable[[str], list[Term] | None],
        value: Callable[[Term], Const],
        is_datatype: Callable[[str], bool],
    ) -> None:
        """`props(node)`: the (predicate, object) pairs of a blank node; `rdf_list(node)`: an RDF list's items."""
        self._props = props
        self._list = rdf_list
        self._value = value
        self._is_datatype = is_datatype

    def read(self, term: Term, depth: int = 0) -> Expr:
        """The expression `term` denotes."""
        if not isinstance(term, str):
            return Other("literal")
        if not term.startswith("_:"):
            return Other("data_range") if self._is_datatype(term) else Named(term)
        if depth > _MAX_DEPTH:
            return Other("too_deep")
        props: dict[str, Term] = {}
        for p, o in self._props(term):
            props.setdefault(p, o)
        if OWL + "intersectionOf" in props or OWL + "unionOf" in props:
            is_and = OWL + "intersectionOf" in props
            items = self._items(props[OWL + ("intersectionOf" if is_and else "unionOf")])
            if items is None:
                return Other("bad_list")
            parts = tuple(self.read(x, depth + 1) for x in items)
            return And(parts) if is_and else Or(parts)
        if OWL + "complementOf" in props:
            return Not(self.read(props[OWL + "complementOf"], depth + 1))
        if OWL + "oneOf" in props:
            return self._one_of(props[OWL + "oneOf"])
        on = props.get(OWL + "onProperty")
        if on is None:
            return Other("datatype" if OWL + "onDatatype" in props else "unknown")
        prop = self.prop(on)
        if prop is None:
            return Other("property_expression")
        if OWL + "someValuesFrom" in props:
            return Some(prop, self.read(props[OWL + "someValuesFrom"], depth + 1))
        if OWL + "allValuesFrom" in props:
            return All(prop, self.read(props[OWL + "allValuesFrom"], depth + 1))
        if OWL + "hasValue" in props:
            return HasValue(prop, self._value(props[OWL + "hasValue"]))
        if OWL + "hasSelf" in props:
            return Other("has_self")
        return self._max(prop, props, depth)

    def _max(self, prop: Prop, props: dict[str, Term], depth: int) -> Expr:
        for key, qualified in (("maxCardinality", False), ("maxQualifiedCardinality", True)):
            n = props.get(OWL + key)
            if not isinstance(n, tuple) or not n[0].strip().isdigit():
                continue
            filler = props.get(OWL + "onClass") if qualified else None
            if qualified and filler is None:
                return Other("cardinality")
            return Max(int(n[0]), prop, None if filler is None else self.read(filler, depth + 1))
        return Other("cardinality")

    def _one_of(self, node: Term) -> Expr:
        members = self._items(node)
        if members is None or not all(isinstance(m, str) and not m.startswith("_:") for m in members):
            return Other("one_of")
        return OneOf(tuple(self._value(m) for m in members))

    def _items(self, node: Term) -> list[Term] | None:
        return self._list(node) if isinstance(node, str) else None

    def prop(self, term: Term) -> Prop | None:
        if not isinstance(term, str):
            return None
        if not term.startswith("_:"):
            return Prop(term)
        inner = [o for p, o in self._props(term) if p == OWL + "inverseOf"]
        if len(inner) == 1 and isinstance(inner[0], str) and not inner[0].startswith("_:"):
            return Prop(inner[0], inverse=True)
        return None


# -- compiling expressions to rule parts --------------------------------------------------------------------


class _Fresh:
    """Variable names X, Y, Z, W, V, U, V6, V7, ... in the order a rule needs them."""

    _NAMES = ("X", "Y", "Z", "W", "V", "U")

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> Var:
        name = self._NAMES[self.n] if self.n < len(self._NAMES) else f"V{self.n}"
        self.n += 1
        return Var(name)


def _canonical(rule: Rule) -> Rule:
    """Variables renamed X, Y, Z, ... in the order the body uses them, so equal rules print alike."""
    fresh, names = _Fresh(), {}
    for atom in (*rule.body, rule.head):
        for arg in atom.args if isinstance(atom, Atom) else ():
            if isinstance(arg, Var) and arg.name not in names:
                names[arg.name] = fresh()

    def var(t: RuleTerm) -> RuleTerm:
        return names[t.name] if isinstance(t, Var) else t

    def rename(a: Atom) -> Atom:
        return Atom(a.predicate, tuple(map(var, a.args)), a.negated, a.naf)

    body = tuple(rename(a) if isinstance(a, Atom) else Comparison(a.op, var(a.left), var(a.right)) for a in rule.body)
    return Rule(rule.id, rename(rule.head), body, rule.kind, rule.origin)


def _edge(prop: Prop, x: RuleTerm, y: RuleTerm) -> Atom:
    return Atom(prop.iri, (y, x) if prop.inverse else (x, y))


class Compiler:
    """Turns sub-class / super-class expressions into rule bodies and heads over the file's concept ids."""

    def __init__(self, class_id: Callable[[str], str], term_id: Callable[[str], str]) -> None:
        """`class_id(iri)`: a class's concept id (registers the class); `term_id(iri)`: any term's id, for rule ids."""
        self.class_id = class_id
        self.term_id = term_id

    def member(self, x: RuleTerm, iri: str) -> Atom:
        """`instance_of(X, c)`: binary, because a unary `c(X)` also matches the classes that are `is_a c`."""
        return Atom(INSTANCE_OF, (x, Const(self.class_id(iri))))

    def term(self, atom: Atom) -> str:
        """The named term an atom is about, for rule ids: the class of a membership, else the property's id."""
        cls = atom.args[1]
        if atom.predicate == INSTANCE_OF and isinstance(cls, Const):
            return str(cls.value)
        return self.term_id(atom.predicate)

    def body(self, e: Expr, x: RuleTerm, fresh: _Fresh, *, classes: bool) -> list[list[Atom]] | str:
        """Alternative conjunctions that make `x` a member of `e` (a sub-class expression), or why RL cannot.

        With `classes`, `∃p.D` (D named) is also met by a member of a class with the restriction at class level
        (`instance_of(X, C), some_values__p(C, D)`): what owlrl gets from typing X with the restriction's blank
        node (`Margherita ⊑ ∃hasTopping.Mozzarella` makes every Margherita a member of `Pizza ⊓ ∃hasTopping.Cheese`).
        """
        if isinstance(e, Named):
            return [[]] if e.iri == THING else [[self.member(x, e.iri)]]
        if isinstance(e, And | Or):
            alternatives: list[list[Atom]] = [[]] if isinstance(e, And) else []
            for part in e.parts:
                found = self.body(part, x, fresh, classes=classes)
                if isinstance(found, str):
                    return found
                if isinstance(e, And):
                    alternatives = [a + b for a, b in itertools.product(alternatives, found)]
                else:
                    alternatives += found
                if len(alternatives) > _MAX_ALTERNATIVES:
                    return "too_large"
            return alternatives
        if isinstance(e, Some):
            return self._some_body(e, x, fresh, classes=classes)
        if isinstance(e, HasValue):
            return [[_edge(e.prop, x, e.value)]]
        if isinstance(e, All):
            # no edge proves `∀p.D`; a class with the restriction at class level does (scm-avf1 brings the ones
            # with a sub-class of D as the filler): `RealItalianPizza ⊑ ∀hasBase.ThinAndCrispyBase` and `Pizza`
            # make a member of `ThinAndCrispyPizza ≡ Pizza ⊓ ∀hasBase.ThinAndCrispyBase`
            level = self._class_level(e, x, fresh) if classes else None
            return "all_values_subclass" if level is None else [level]
        if isinstance(e, Not):
            return "complement_subclass"
        if isinstance(e, Max):
            return "max_cardinality_subclass"
        if isinstance(e, OneOf):
            return "one_of_inside"
        return e.kind

    def _some_body(self, e: Some, x: RuleTerm, fresh: _Fresh, *, classes: bool) -> list[list[Atom]] | str:
        y = fresh()
        if isinstance(e.filler, Named) and e.filler.iri == LITERAL:
            return [[_edge(e.prop, x, y)]]
        filler = self.body(e.filler, y, fresh, classes=classes)
        if isinstance(filler, str):
            return filler
        found = [[_edge(e.prop, x, y), *alt] for alt in filler]
        level = self._class_level(e, x, fresh) if classes else None
        return found if level is None else [*found, level]

    def _class_level(self, e: Some | All, x: RuleTerm, fresh: _Fresh) -> list[Atom] | None:
        """`instance_of(X, C), some_values__p(C, D)`: x is a member of a class with the restriction `e`."""
        if e.prop.inverse or not isinstance(e.filler, Named) or e.filler.iri in (THING, LITERAL):
            return None
        c = fresh()
        kind = "some" if isinstance(e, Some) else "all"
        return [Atom(INSTANCE_OF, (x, c)), Atom(restriction(kind, e.prop.iri), (c, Const(self.class_id(e.filler.iri))))]

    def heads(self, e: Expr, x: RuleTerm, fresh: _Fresh, table: str | None = None) -> tuple[list[_Head], list[str]]:
        """What membership of `x` in `e` (a super-class expression) implies, and the parts RL cannot use."""
        if isinstance(e, Named):
            if e.iri == THING:
                return [], []
            return [_Head(table, self.member(x, e.iri), ())], []
        if isinstance(e, And):
            heads: list[_Head] = []
            skipped: list[str] = []
            for part in e.parts:
                h, s = self.heads(part, x, fresh, "cls-int2")
                heads += h
                skipped += s
            return heads, skipped
        if isinstance(e, All):
            y = fresh()
            if isinstance(e.filler, Other) and e.filler.kind == "data_range":
                return [], ["data_range"]
            inner, skipped = self.heads(e.filler, y, fresh, "cls-avf")
            edge = _edge(e.prop, x, y)
            return [_Head(h.table, h.atom, (edge, *h.extra)) for h in inner], skipped
        if isinstance(e, HasValue):
            return [_Head("cls-hv1", _edge(e.prop, x, e.value), ())], []
        if isinstance(e, Not):
            alternatives = self.body(e.inner, x, fresh, classes=False)
            if isinstance(alternatives, str):
                return [], [alternatives]
            if not all(alternatives):  # ¬owl:Thing
                return [], ["complement_superclass"]
            # ¬(a1 ∧ ... ∧ an) for each alternative: an is false wherever a1 ... an-1 hold
            return [
                _Head("cls-com", Atom(alt[-1].predicate, alt[-1].args, negated=True), tuple(alt[:-1]))
                for alt in alternatives
            ], []
        if isinstance(e, Max):
            return self._max_heads(e, x, fresh)
        if isinstance(e, OneOf):
            return [], ["one_of_superclass"]
        if isinstance(e, Some):
            return [], ["some_values_superclass"]
        if isinstance(e, Or):
            return [], ["union_superclass"]
        return [], [e.kind]

    def _members_of(self, sub: OneOf, sup: Expr, anchor: str) -> tuple[list[Rule], list[str]]:
        """cls-oo: each listed individual is a member of `sup` (rules without body: facts the ontology implies)."""
        rules: list[Rule] = []
        skipped: list[str] = []
        for member in sub.members:
            heads, lost = self.heads(sup, member, _Fresh())
            skipped += lost
            for head in heads:
                if head.extra or head.atom.variables():
                    skipped.append("one_of_superclass")
                    continue
                rules.append(Rule(f"cls-oo:{anchor}:{member.value}", head.atom, ()))
        return rules, skipped

    def _max_heads(self, e: Max, x: RuleTerm, fresh: _Fresh) -> tuple[list[_Head], list[str]]:
        """cls-maxc1 / cls-maxqc1 / cls-maxqc2: `≤ 0 p.D` denies every p edge (to a D); `≤ 1` is equality."""
        if e.n == 1:
            return self._equal_heads(e, x, fresh)
        if e.n != 0:
            return [], ["max_cardinality_above_one"]
        y = fresh()
        edge = _edge(e.prop, x, y)
        denial = Atom(edge.predicate, edge.args, negated=True)
        if e.filler is None or e.filler == Named(THING):
            return [_Head("cls-maxc1" if e.filler is None else "cls-maxqc2", denial, (edge,))], []
        filler = self.body(e.filler, y, fresh, classes=False)
        if isinstance(filler, str):
            return [], [filler]
        return [_Head("cls-maxqc1", denial, (edge, *alt)) for alt in filler], []

    def _equal_heads(self, e: Max, x: RuleTerm, fresh: _Fresh) -> tuple[list[_Head], list[str]]:
        """cls-maxc2 / cls-maxqc3 / cls-maxqc4: two p edges (to D members) of a `≤ 1 p.D` member are one thing."""
        y, z = fresh(), fresh()
        edges = (_edge(e.prop, x, y), _edge(e.prop, x, z))
        table = "cls-maxc2" if e.filler is None else "cls-maxqc4" if e.filler == Named(THING) else "cls-maxqc3"
        alternatives: list[list[Atom]] = [[]]
        if table == "cls-maxqc3" and e.filler is not None:
            first, second = self.body(e.filler, y, fresh, classes=False), self.body(e.filler, z, fresh, classes=False)
            if isinstance(first, str) or isinstance(second, str):
                return [], [first if isinstance(first, str) else str(second)]
            alternatives = [a + b for a, b in itertools.product(first, second)]
        differ = Comparison(CompareOp.NE, y, z)
        same = Atom(SAME_AS, (y, z))
        return [_Head(table, same, (*edges, *alt, differ)) for alt in alternatives], []

    def subclass(self, sub: Expr, sup: Expr, anchor: str) -> tuple[list[Rule], list[str]]:
        """The rules of `sub ⊑ sup`, named after the axiom's class `anchor`, and the kinds RL leaves out."""
        if isinstance(sub, OneOf):
            return self._members_of(sub, sup, anchor)
        fresh = _Fresh()
        x = fresh()
        bodies = self.body(sub, x, fresh, classes=not isinstance(sub, Some | All))  # `∃p.D ⊑ C`: definition()
        if isinstance(bodies, str):
            return [], [bodies]
        heads, skipped = self.heads(sup, x, fresh)
        table = _BODY_TABLES.get(type(sub))
        if isinstance(sub, Some) and isinstance(sub.filler, Named) and sub.filler.iri in (THING, LITERAL):
            table = "cls-svf2"
        rules: list[Rule] = []
        for alt, head in itertools.product(bodies, heads):
            body = (*alt, *head.extra)
            if not body or not head.atom.variables() <= {v for a in body for v in a.variables()}:
                skipped.append("unsafe")
                continue
            name = table or head.table or "cax-sco"
            parts = [name, anchor]
            term = self.term(head.atom)
            if term != anchor:
                parts.append(term)
            if name == "cls-uni" and alt:
                parts.append(self.term(alt[0]))
            if any(split_restriction(a.predicate) for a in alt):
                parts.append("restriction")
                body += _not_itself(alt, head.atom)
            rules.append(_canonical(Rule(":".join(parts), head.atom, body)))
        return rules, skipped

    def class_facts(self, sup: Expr) -> tuple[list[tuple[str, Const]], int]:
        """`C ⊑ sup` as class-level facts about C: (restriction predicate, filler or value) pairs, and how many
        existentials they cover (the ones `heads` reports as `some_values_superclass`)."""
        if isinstance(sup, And):
            facts: list[tuple[str, Const]] = []
            covered = 0
            for part in sup.parts:
                f, n = self.class_facts(part)
                facts += f
                covered += n
            return facts, covered
        if isinstance(sup, Some | All) and not sup.prop.inverse and isinstance(sup.filler, Named):
            if sup.filler.iri == LITERAL:
                return [], 0
            kind = "some" if isinstance(sup, Some) else "all"
            return [(restriction(kind, sup.prop.iri), Const(self.class_id(sup.filler.iri)))], int(kind == "some")
        if isinstance(sup, HasValue) and not sup.prop.inverse and not sup.value.literal:
            return [(restriction("value", sup.prop.iri), sup.value)], 0
        return [], 0

    def definition(self, sub: Expr, anchor: str) -> list[Rule]:
        """`∃p.D ⊑ C` (`∀p.D`, `p hasValue v`) at class level: a class with that restriction is a sub-class of C.

        With the up-the-filler rules of `restriction_rules` this is scm-svf1 / scm-avf1 / scm-hv and the sub-class
        step after them: `A ≡ ∃p.D1`, `B ≡ ∃p.D2`, `D1 ⊑ D2` give `A is_a B`.
        """
        facts, _ = self.class_facts(sub) if isinstance(sub, Some | All | HasValue) else ([], 0)
        rules = []
        table = {"some": "scm-svf1", "all": "scm-avf1", "value": "scm-hv"}
        for pred, filler in facts:
            kind = pred.partition(_MARK)[0]
            thing = kind == "some" and filler.value == self.term_id(THING)
            value: RuleTerm = _Y if thing else filler  # ∃p.Thing: any filler
            body = (Atom(pred, (_X, value)), Comparison(CompareOp.NE, _X, Const(anchor)))
            rid = f"{table[kind]}:{anchor}:{'owl:Thing' if thing else filler.value}"
            rules.append(Rule(rid, Atom("is_a", (_X, Const(anchor))), body))
        return rules


def _not_itself(alt: list[Atom], head: Atom) -> tuple[Comparison, ...]:
    """`C != K` for a class C whose restriction makes X a member of K: K's own definition would prove X a K
    because X is a K (a circular derivation, no new fact)."""
    cls = head.args[1] if head.predicate == INSTANCE_OF else None
    if not isinstance(cls, Const):
        return ()
    classes = {a.args[1] for a in alt if a.predicate == INSTANCE_OF and a.args[0] == head.args[0]}
    restricted = {a.args[0] for a in alt if split_restriction(a.predicate)}
    return tuple(Comparison(CompareOp.NE, c, cls) for c in sorted(classes & restricted, key=str))


@dataclass(frozen=True, slots=True)
class _Head:
    table: str | None  # the OWL 2 RL rule that produced this head (None: the head is the axiom's named class)
    atom: Atom
    extra: tuple[BodyLiteral, ...]  # body parts the head needs (the property edge of an allValuesFrom)


_BODY_TABLES: dict[type, str] = {And: "cls-int1", Or: "cls-uni", Some: "cls-svf1", HasValue: "cls-hv2"}


def unique_ids(rules: list[Rule]) -> list[Rule]:
    """Rules with repeats (same head and body) dropped and colliding ids numbered, independent of input order."""
    seen: dict[str, list[Rule]] = {}
    texts: set[tuple[Atom, tuple[object, ...]]] = set()
    for rule in sorted(set(rules), key=lambda r: (r.id, str(r))):
        if (rule.head, rule.body) in texts:  # `p inverseOf q` and `q inverseOf p` give the same two rules
            continue
        texts.add((rule.head, rule.body))
        seen.setdefault(rule.id, []).append(rule)
    out: list[Rule] = []
    for rid, group in seen.items():
        if len(group) == 1:
            out.append(group[0])
        else:
            out += [Rule(f"{rid}:{k}", r.head, r.body, r.kind, r.origin) for k, r in enumerate(group, 1)]
    return out


# -- property axioms ----------------------------------------------------------------------------------------

_X, _Y, _Z = Var("X"), Var("Y"), Var("Z")


def sub_property(p: str, q: str, p_id: str, q_id: str) -> Rule:
    """prp-spo1: p ⊑ q."""
    return Rule(f"prp-spo1:{p_id}:{q_id}", Atom(q, (_X, _Y)), (Atom(p, (_X, _Y)),))


def equivalent_property(p: str, q: str, p_id: str, q_id: str) -> list[Rule]:
    """prp-eqp1/2: p ≡ q."""
    return [
        Rule(f"prp-eqp1:{p_id}:{q_id}", Atom(q, (_X, _Y)), (Atom(p, (_X, _Y)),)),
        Rule(f"prp-eqp2:{p_id}:{q_id}", Atom(p, (_X, _Y)), (Atom(q, (_X, _Y)),)),
    ]


def inverse(p: str, q: str, p_id: str, q_id: str) -> list[Rule]:
    """prp-inv1/2: p inverseOf q."""
    return [
        Rule(f"prp-inv1:{p_id}:{q_id}", Atom(q, (_Y, _X)), (Atom(p, (_X, _Y)),)),
        Rule(f"prp-inv2:{p_id}:{q_id}", Atom(p, (_Y, _X)), (Atom(q, (_X, _Y)),)),
    ]


def characteristic(kind: str, p: str, p_id: str) -> Rule | None:
    """prp-trp / prp-symp / prp-asyp for a property_type value; None for the ones kept as declarations only."""
    if kind == "transitive":
        return Rule(f"prp-trp:{p_id}", Atom(p, (_X, _Z)), (Atom(p, (_X, _Y)), Atom(p, (_Y, _Z))))
    if kind == "symmetric":
        return Rule(f"prp-symp:{p_id}", Atom(p, (_Y, _X)), (Atom(p, (_X, _Y)),))
    if kind == "asymmetric":
        return Rule(f"prp-asyp:{p_id}", Atom(p, (_Y, _X), negated=True), (Atom(p, (_X, _Y)),))
    if kind == "irreflexive":
        return Rule(f"prp-irp:{p_id}", Atom(p, (_X, _X), negated=True), (Atom(p, (_X, _X)),))
    if kind == "inverse_functional":
        return inverse_functional(p, p_id)
    return None


def functional(p: str, p_id: str) -> Rule:
    """prp-fp: two values of a functional object property are one individual (no unique-name assumption)."""
    return Rule(f"prp-fp:{p_id}", Atom(SAME_AS, (_Y, _Z)), (Atom(p, (_X, _Y)), Atom(p, (_X, _Z)), _differ(_Y, _Z)))


def inverse_functional(p: str, p_id: str) -> Rule:
    """prp-ifp: two subjects of one value of an inverse-functional property are one individual."""
    return Rule(f"prp-ifp:{p_id}", Atom(SAME_AS, (_X, _Z)), (Atom(p, (_X, _Y)), Atom(p, (_Z, _Y)), _differ(_X, _Z)))


def has_key(cls: str, keys: Sequence[str], cls_id: str) -> Rule:
    """prp-key: two members of `cls` with the same values of every key property are one individual."""
    fresh = _Fresh()
    x, y = fresh(), fresh()
    values = [fresh() for _ in keys]
    body: list[BodyLiteral] = [Atom(INSTANCE_OF, (x, Const(cls))), Atom(INSTANCE_OF, (y, Const(cls)))]
    body += [Atom(k, (x, v)) for k, v in zip(keys, values, strict=True)]
    body += [Atom(k, (y, v)) for k, v in zip(keys, values, strict=True)]
    return Rule(f"prp-key:{cls_id}", Atom(SAME_AS, (x, y)), (*body, _differ(x, y)))


def _differ(a: Var, b: Var) -> Comparison:
    return Comparison(CompareOp.NE, a, b)


# Property characteristics kgbrain keeps as rules only (no Predicate flag): their OWL 2 RL rules are "false" ones.
RULE_CHARACTERISTICS = {
    OWL + "AsymmetricProperty": "asymmetric",
    OWL + "IrreflexiveProperty": "irreflexive",
    OWL + "InverseFunctionalProperty": "inverse_functional",
}


def negative_assertion(p: str, s: Const, o: Const, ids: tuple[str, str, str]) -> Rule:
    """prp-npa1 / prp-npa2: an owl:NegativePropertyAssertion is the denial `~p(s, o)`, a rule without body."""
    table = "prp-npa2" if o.literal else "prp-npa1"
    return Rule(f"{table}:{':'.join(ids)}", Atom(p, (s, o), negated=True), ())


def disjoint_properties(p: str, q: str, p_id: str, q_id: str, rule: str = "prp-pdw") -> list[Rule]:
    """prp-pdw (or prp-adp, for a pair of an owl:AllDisjointProperties): p and q never link the same pair (both
    ways, as conflicts through negative facts)."""
    return [
        Rule(f"{rule}:{p_id}:{q_id}", Atom(q, (_X, _Y), negated=True), (Atom(p, (_X, _Y)),)),
        Rule(f"{rule}:{q_id}:{p_id}", Atom(p, (_X, _Y), negated=True), (Atom(q, (_X, _Y)),)),
    ]


def chain(p: str, links: Sequence[Prop], p_id: str) -> Rule:
    """prp-spo2: p1 ∘ ... ∘ pn ⊑ p."""
    fresh = _Fresh()
    nodes = [fresh() for _ in range(len(links) + 1)]
    body = tuple(_edge(link, a, b) for link, a, b in zip(links, nodes, nodes[1:], strict=False))
    return Rule(f"prp-spo2:{p_id}", Atom(p, (nodes[0], nodes[-1])), body)


def domain_range(compiler: Compiler, which: str, p: str, p_id: str, cls: Expr) -> tuple[list[Rule], list[str]]:
    """prp-dom / prp-rng: the members of `cls` (a super-class expression) among p's subjects or objects."""
    fresh = _Fresh()
    x, y = fresh(), fresh()
    edge = Atom(p, (x, y))
    table = "prp-dom" if which == "domain" else "prp-rng"
    heads, skipped = compiler.heads(cls, x if which == "domain" else y, fresh)
    rules = []
    for h in heads:
        body = (edge, *h.extra)
        parts = [table, p_id]
        if isinstance(cls, Named):
            parts.append(compiler.term(h.atom))
        else:
            parts += [h.table or table, compiler.term(h.atom)]
        rules.append(_canonical(Rule(":".join(parts), h.atom, body)))
    return rules, skipped
