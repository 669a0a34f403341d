"""Rules as data: the abstract syntax every rule source produces and every rule executor consumes.

Shared by the layers the way `knowledge.py` is: `ingest/` builds these from `.dl` files and from OWL 2 RL
axioms of ontologies, `reasoning/` compiles them to Cypher (the definition) and runs them (Cypher or the
in-memory fast path), `output/` prints them. Plain frozen dataclasses, no behaviour beyond printing.

Semantics (DESIGN.md, "Rules and queries"):
- A binary atom `p(X, Y)` is the fact `X p Y` (any predicate, core or generic; a value when Y is a literal).
- A unary atom `c(X)` is class membership: `X instance_of c` or `X is_a c`, stored or derived.
- `negated=True` (`~p(X, Y)`) is classical negation: a stored or derived fact with polarity false.
- `naf=True` (`not p(X, Y)`) is negation as failure, body only, stratified.
- Only active facts (stored or derived) ever match an atom.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

# A concept constant written without quotes: starts with a lower-case letter, then letters, digits, `_`,
# and `:` between name parts (`pizza:margherita`). `true`/`false` are boolean literals, never concepts.
_BARE_NAME = re.compile(r"[^\W\d_](?:\w|:(?=[^\W\d_]))*")


def is_bare_concept(text: str) -> bool:
    """Whether a concept id can be written without quotes in the rule language."""
    return bool(_BARE_NAME.fullmatch(text)) and not text[0].isupper() and text not in ("true", "false", "not")


@dataclass(frozen=True, slots=True)
class Var:
    """A variable; names start with an upper-case letter or `_` in the rule language."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Const:
    """A constant: a concept id (`literal=False`) or a literal value (`literal=True`: str, int, float, bool)."""

    value: str | int | float | bool
    literal: bool = False

    def __str__(self) -> str:
        if self.literal and isinstance(self.value, str):
            return '"' + self.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        if not self.literal and isinstance(self.value, str) and not is_bare_concept(self.value):
            # Concept ids that are not bare lower-case names (`'Нейрон'`, `'http://x/y'`) go in single quotes.
            return "'" + self.value.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return str(self.value)


Term = Var | Const


@dataclass(frozen=True, slots=True)
class Atom:
    """`p(X, Y)` (a fact), `c(X)` (class membership); `~` is `negated`, `not` is `naf`."""

    predicate: str
    args: tuple[Term, ...]
    negated: bool = False
    naf: bool = False

    @property
    def unary(self) -> bool:
        return len(self.args) == 1

    def variables(self) -> set[str]:
        return {a.name for a in self.args if isinstance(a, Var)}

    def __str__(self) -> str:
        name = self.predicate if is_bare_concept(self.predicate) else str(Const(self.predicate))
        text = f"{'~' if self.negated else ''}{name}({', '.join(map(str, self.args))})"
        return f"not {text}" if self.naf else text


class CompareOp(str, Enum):
    """Comparisons allowed in rule bodies (on numbers, or on strings for = and !=)."""

    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "="
    NE = "!="


@dataclass(frozen=True, slots=True)
class Comparison:
    """`X < 10`, `X != Y`: both sides must be bound by positive atoms of the same body."""

    op: CompareOp
    left: Term
    right: Term

    def variables(self) -> set[str]:
        return {a.name for a in (self.left, self.right) if isinstance(a, Var)}

    def __str__(self) -> str:
        return f"{self.left} {self.op.value} {self.right}"


Literal = Atom | Comparison


class RuleKind(str, Enum):
    """Strict rules always fire; defeasible ones can be overridden; defeaters only block (Nute's defeasible logic)."""

    STRICT = "strict"  # head :- body.
    DEFEASIBLE = "defeasible"  # head :~ body.  (or `@defeasible`)
    DEFEATER = "defeater"  # head ~> body.   blocks the opposite conclusion, derives nothing


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule with a stable id. `origin` says where it came from: `family.dl:3:1` or `owl2rl:pizza.owl`."""

    id: str
    head: Atom
    body: tuple[Literal, ...]
    kind: RuleKind = RuleKind.STRICT
    origin: str = ""
    authority: str | None = None  # NORM / OPERATIVE / GUIDANCE / COMMENTARY (knowledge.Authority values)

    def __str__(self) -> str:
        arrow = {RuleKind.STRICT: ":-", RuleKind.DEFEASIBLE: ":~", RuleKind.DEFEATER: "~>"}[self.kind]
        body = ", ".join(map(str, self.body))
        tier = f" @authority {self.authority}" if self.authority else ""
        if not body and self.kind is RuleKind.STRICT:
            return f"[{self.id}]{tier} {self.head}."
        return f"[{self.id}]{tier} {self.head} {arrow} {body}."


@dataclass(frozen=True, slots=True)
class Superiority:
    """`r2 > r1`: where both fire with opposite heads, `stronger` wins."""

    stronger: str
    weaker: str

    def __str__(self) -> str:
        return f"{self.stronger} > {self.weaker}."


@dataclass(frozen=True, slots=True)
class Program:
    """Rules plus explicit superiority; authority tier and specificity give the default superiority."""

    rules: tuple[Rule, ...] = ()
    superiority: tuple[Superiority, ...] = ()

    def __str__(self) -> str:
        return "\n".join([*map(str, self.rules), *map(str, self.superiority)])


# Derived facts are ordinary fact edges (same relationship tables, so the mirror, verify and export see
# them) whose source is DERIVED_SOURCE_PREFIX + rule id; each derivation (rule id + premise fact ids) is
# recorded beside them so truth maintenance can withdraw exactly what loses all support.
DERIVED_SOURCE_PREFIX = "rule:"


@dataclass(frozen=True, slots=True)
class Derivation:
    """One way a fact was derived: the rule that fired and the fact ids of its (positive) premises.

    Unary heads derive `instance_of`. A fact may have several derivations; it stays while any remains.
    `object` is a concept id, or None when `value` (a literal) is the target.
    """

    rule: str
    subject: str
    predicate: str
    object: str | None
    polarity: bool
    premises: tuple[str, ...]
    value: str | int | float | bool | None = None
