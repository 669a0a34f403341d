"""Every built-in inference rule id, in one place (STYLE.md §6: the id a `# RULE` comment, a trace step, a
golden file and a test name share).

A rule id is `<mode>.<name>`: `dir` a stored fact, `ded` deduction, `cau` causal chains, `asc` associative,
`ana` analogy, `ctx` context shown beside a proof, `link` concept linking, `val`/`cnt` values and counts,
`norm` normative questions, `hyp` the loop's hypothesis templates. User rules are `rule:<id>` (ruleset.py).
tests/reasoning/test_rule_ids.py checks that every rule id written in kgbrain/ is listed here.
"""

from __future__ import annotations

# Stored facts and their context
DIR_FACT = "dir.fact"  # a stored fact states the claim (or its negation)
CTX_INACTIVE_FACT = "ctx.inactive-fact"  # an outdated/disputed/retracted fact, shown, never used

# Deduction (deductive.py)
DED_ISA = "ded.isa"
DED_ISA_TRANSITIVE = "ded.isa-transitive"
DED_TRANSITIVE = "ded.transitive"
DED_SYMMETRIC = "ded.symmetric"
DED_INVERSE = "ded.inverse"
DED_SUB_PROPERTY = "ded.sub-property"
DED_NEGATION = "ded.negation"
DED_DISJOINT = "ded.disjoint"
DED_PROPERTY_INHERITANCE = "ded.property-inheritance"
DED_SPECIFICITY_OVERRIDE = "ded.specificity-override"
DED_INHERITANCE_CONFLICT = "ded.inheritance-conflict"
DED_FUNCTIONAL_VALUE = "ded.functional-value"
DED_FUNCTIONAL_CONFLICT = "ded.functional-conflict"  # two active values of a functional predicate
DED_VALUE_INCOMPARABLE = "ded.value-incomparable"
DED_HAS_PART = "ded.has-part"  # y part_of x => x has_property y (reasoner.py)

# Causal chains (causal.py)
CAU_CHAIN = "cau.chain"
CAU_CONCLUSION = "cau.conclusion"
CAU_PREVENTS_FLIP = "cau.prevents-flip"

# Associative (associative.py, reasoner.py)
ASC_DEFINITION = "asc.definition"
ASC_CONCEPT_CHAIN = "asc.concept-chain"
ASC_NEIGHBOURHOOD = "asc.neighbourhood"
ASC_PATH = "asc.path"
ASC_DIRECT_RELATION = "asc.direct-relation"
ASC_WH_LOOKUP = "asc.wh-lookup"  # the stated facts with the asked predicate fill a wh-question's variable

# Analogy (analogical.py)
ANA_RELATIONAL_MATCH = "ana.relational-match"
ANA_PARALLEL_MATCH = "ana.parallel-match"
ANA_SUPPORTED = "ana.supported"
ANA_HYPOTHESIS = "ana.hypothesis"
ANA_LIKENESS = "ana.likeness"  # two concepts of one specific class are alike (modes/likeness.py)
ANA_APART = "ana.apart"  # two concepts placed under classes, none and no relation shared: not alike (likeness.py)

# Linking, values, counts, norms (reasoner.py)
LINK_UNKNOWN_CONCEPT = "link.unknown-concept"
LINK_AMBIGUOUS = "link.ambiguous"
VAL_LOOKUP = "val.lookup"  # a stated attribute value answers "what is the P of X"
VAL_CLASS_LEVEL = "val.class-level"  # `C ⊑ ∃p.D` answers "what P does a C have": every C has some D
CNT_SUBCLASSES = "cnt.subclasses"  # "how many kinds of X": its direct sub-classes
NORM_AUTHORITY = "norm.authority"  # a norm of a higher authority tier overrides a lower one (seed 003)

# The cognitive loop's hypothesis templates (hypotheses.py)
HYP_DIRECT = "hyp.direct"

ALL: frozenset[str] = frozenset(
    value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, str)
)
