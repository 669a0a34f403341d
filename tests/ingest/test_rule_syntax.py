"""The .dl rule language: parsing, printing back, and every check a rule file must pass."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgbrain.errors import InputError
from kgbrain.ingest.rule_syntax import check_program, parse_program, parse_rule, strata
from kgbrain.ruleset import Atom, CompareOp, Comparison, Const, Program, Rule, RuleKind, Superiority, Var

FAMILY = """\
% a comment
[r1] grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
[r2] flies(X) :~ bird(X), not abnormal(X).   // another comment
[r3] ~flies(X) ~> penguin(X).
adult(X) :- age(X, A), A >= 18, X != bob, 'Нейрон'(X).
@authority NORM
[r5] bird(tweety).
[r6] @authority GUIDANCE safe(X) :- checked(X, "ok"), weight(X, 1.5e3).
r3 > r2.
"""


def test_a_file_parses_into_rules_with_origins_kinds_and_authority() -> None:
    program = parse_program(FAMILY, "family.dl")
    ids = [r.id for r in program.rules]
    assert ids == ["r1", "r2", "r3", "family:5", "r5", "r6"]
    r1, r2, r3, adult, r5, r6 = program.rules
    assert r1.origin == "family.dl:2:1"
    assert r1.body == (Atom("parent", (Var("X"), Var("Y"))), Atom("parent", (Var("Y"), Var("Z"))))
    assert r2.kind is RuleKind.DEFEASIBLE
    assert r2.body[1] == Atom("abnormal", (Var("X"),), naf=True)
    assert r3.kind is RuleKind.DEFEATER
    assert r3.head.negated
    assert adult.body[1] == Comparison(CompareOp.GE, Var("A"), Const(18, literal=True))
    assert adult.body[2] == Comparison(CompareOp.NE, Var("X"), Const("bob"))
    assert adult.body[3].predicate == "Нейрон"  # type: ignore[union-attr]
    assert adult.authority is None
    assert (r5.authority, r5.body, r5.head.args) == ("NORM", (), (Const("tweety"),))
    assert r6.authority == "GUIDANCE"
    assert r6.body[0] == Atom("checked", (Var("X"), Const("ok", literal=True)))
    assert r6.body[1] == Atom("weight", (Var("X"), Const(1500.0, literal=True)))
    assert program.superiority == (Superiority("r3", "r2"),)


def test_every_parsed_rule_prints_back_to_itself() -> None:
    for rule in parse_program(FAMILY, "family.dl").rules:
        assert parse_rule(str(rule), rule.origin) == rule


def test_an_anonymous_variable_inside_not_is_local_to_it() -> None:
    rule = parse_rule("[lone] lonely(X) :- parent(X, Y), not parent(Y, _).")
    assert rule.body[1] == Atom("parent", (Var("Y"), Var("_1")), naf=True)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("p(X) :- q(Y).", "b.dl:1:3: unsafe variable X in the head of rule 'b:1': no positive body atom binds it"),
        ("p(X) :- q(X), not r(X, Y).", "b.dl:1:24: unsafe variable Y in `not` atom `not r(X, Y)` of rule 'b:1'"),
        ("p(X) :- q(X), Y > 3.", "b.dl:1:15: unsafe variable Y in comparison `Y > 3` of rule 'b:1'"),
        ("p(X) :- q(X, Y), q(X).", "b.dl:1:1: arity clash: 'q' has 1 argument(s) in rule 'b:1' but 2 in rule 'b:1'"),
        ("p(X) :- q(X, Y, Z).", "b.dl:1:9: 'q' has 3 arguments; atoms take one or two"),
        ("p(X) :- q(X), not p(X).", "b.dl:1:1: the program cannot be stratified: negation cycle p -> not p"),
        (
            "p(X) :- q(X), not r(X).\nr(X) :- q(X), s(X).\ns(X) :- p(X).",
            "b.dl:1:1: the program cannot be stratified: negation cycle p -> not r -> s -> p",
        ),
        ("[a] p(x).\n[a] q(x).", "b.dl:2:1: duplicate rule id 'a' (first at b.dl:1:1)"),
        ("p(X) :- q(X)", "b.dl:1:13: unexpected end of file; expected `,` or `.`"),
        ("p(X) :- q(X) r(X).", "b.dl:1:14: unexpected 'r'; expected `,` or `.`"),
        ("P(x).", "b.dl:1:1: unexpected 'P'; expected the head such as `p(X, Y)`"),
        ("a > b.", "b.dl:1:1: superiority names unknown rule 'a'"),
        (
            "@authority BOSS\n",
            "b.dl:1:12: unknown authority 'BOSS'; expected one of COMMENTARY, GUIDANCE, NORM, OPERATIVE",
        ),
        ("p(X) :- q(X) & r(X).", "b.dl:1:14: unexpected '&'; expected `,` or `.`"),
    ],
)
def test_bad_rules_name_file_line_and_column(text: str, error: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_program(text, "b.dl")
    assert str(exc.value) == error


def test_strata_put_negated_predicates_first() -> None:
    program = parse_program("a(X) :- b(X), not c(X).\nc(X) :- d(X).\nb(X) :- d(X).\ne(X) :- a(X), not b(X).", "s.dl")
    levels = {r.head.predicate: i for i, group in enumerate(strata(program)) for r in group}
    assert levels["c"] < levels["a"] <= levels["e"]
    assert levels["b"] < levels["e"]


# -- properties ---------------------------------------------------------------------------------

_names = st.sampled_from(["p", "q", "parent", "bird", "is_a", "instance_of", "pizza:Margherita", "Нейрон", "a b"])
_vars = st.sampled_from(["X", "Y", "Z", "Var_2"]).map(Var)
_consts = st.one_of(
    st.sampled_from(["tweety", "bob", "Bob", "нейрон", "it's", "true", "not", 'q"x']).map(Const),
    st.text(max_size=5).map(lambda s: Const(s, literal=True)),
    st.integers(-1000, 1000).map(lambda n: Const(n, literal=True)),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: Const(x, literal=True)),
    st.booleans().map(lambda b: Const(b, literal=True)),
)


@st.composite
def _rules(draw: st.DrawFn) -> Rule:
    body: list[Atom | Comparison] = []
    for _ in range(draw(st.integers(1, 3))):
        args = tuple(draw(st.lists(_vars, min_size=1, max_size=2)))
        body.append(Atom(draw(_names), args, negated=draw(st.booleans())))
    bound = sorted({v for a in body for v in a.variables()})  # type: ignore[union-attr]
    bound_vars = st.sampled_from(bound).map(Var)
    if draw(st.booleans()):
        args = tuple(draw(st.lists(bound_vars, min_size=1, max_size=2)))
        body.append(Atom(draw(_names), args, negated=draw(st.booleans()), naf=True))
    if draw(st.booleans()):
        body.append(Comparison(draw(st.sampled_from(list(CompareOp))), draw(bound_vars), draw(_consts)))
    head_args = tuple(draw(st.lists(st.one_of(bound_vars, _consts), min_size=1, max_size=2)))
    head = Atom(draw(_names), head_args, negated=draw(st.booleans()))
    kind = draw(st.sampled_from(list(RuleKind)))
    rule_id = draw(st.from_regex(r"[a-z][a-z0-9:._-]{0,8}", fullmatch=True))
    authority = draw(st.sampled_from([None, "NORM", "COMMENTARY"]))
    return Rule(rule_id, head, tuple(body), kind, "x.dl:1:1", authority)


@given(_rules())
def test_parse_of_str_is_the_rule(rule: Rule) -> None:
    try:
        check_program(Program((rule,)))
    except InputError as exc:  # arity clash or a `not` cycle: the text is refused with the same error
        with pytest.raises(InputError, match=re.escape(str(exc))):
            parse_rule(str(rule), rule.origin)
        return
    assert parse_rule(str(rule), rule.origin) == rule


@given(_rules())
def test_body_less_rules_print_and_parse_back(rule: Rule) -> None:
    ground = Rule(rule.id, Atom(rule.head.predicate, (Const("a"),) * len(rule.head.args)), (), RuleKind.STRICT, "")
    assert parse_rule(str(ground)) == ground
