"""Reasoning rules, claim checks and citation checks for a draft answer written elsewhere (seed 003).

`kgbrain check-answer` takes a draft (for example from a language model) and:
1. applies user rules from TOML: when a trigger pattern matches the question or the draft and a
   violation pattern matches the draft, unless a suppress pattern shows the draft already handles it, the
   rule fires; `critical` rules put their short alert first (a reader may stop after the first line) and
   their correction last, `warning` rules only append the correction;
2. checks the draft's claims against the knowledge base: each sentence naming two concepts is compared
   with the stored facts between them, and a sentence whose polarity the facts contradict is flagged,
   critical when the contradicting source is a NORM;
3. checks citations: a cited norm, order, article, standard or source name that no retrieved source backs
   is flagged (the seed's "positive citation check": phantom references are caught even when unknown).

Rules file:

    [[rule]]
    id = "tr_ts_019_certificate_vs_lifetime"
    title = "Expired certificate vs service life"
    severity = "critical"                 # or "warning"
    trigger_patterns = ["(?i)сертификат"]
    violation_patterns = ["(?i)нельзя\\\\s+(?:использовать|применять)"]
    suppress_if_present = ["(?i)до\\\\s+(?:окончания|конца)\\\\s+срока\\\\s+службы"]
    correction = "..."
    short_alert = "..."
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgbrain.errors import AmbiguousRelation, InputError
from kgbrain.knowledge import Authority, Fact, Status
from kgbrain.language import detect_language
from kgbrain.memory.evidence import EvidencePack
from kgbrain.memory.retrieval import Retriever
from kgbrain.patterns import check_size, wall_search
from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.nlu.sentences import parse_claim_sentence, parse_verb_sentence

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on 3.10
    import tomli as tomllib  # type: ignore[import-not-found]

SEVERITIES = ("warning", "critical")
PATTERN_TIMEOUT_S = 0.5  # one rule pattern on one text; a sane pattern takes microseconds
TIER_LABELS: dict[str, dict[str, str]] = {
    "ru": {"NORM": "[НОРМА]", "OPERATIVE": "[ОПЕРАТИВНО]", "GUIDANCE": "[МЕТОДИЧКА]", "COMMENTARY": "[КОММЕНТАРИЙ]"},
    "en": {"NORM": "[NORM]", "OPERATIVE": "[OPERATIVE]", "GUIDANCE": "[GUIDANCE]", "COMMENTARY": "[COMMENTARY]"},
}
TIER_RANK = {Authority.NORM: 4, Authority.OPERATIVE: 3, Authority.GUIDANCE: 2, Authority.COMMENTARY: 1}
STRONG_TRUST = 0.7  # a contradicting fact below this trust (and not a norm) is not enough to flag a claim
_NEGATION = re.compile(
    r"(?i)(?<![\w])(?:не|нельзя|нет|запрещ\w*|невозможно|not|never|cannot|can't|no|forbidden|prohibited)(?![\w])"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CITATION = re.compile(
    r"(?ix)"
    r"(?:приказ\w*|order)(?:\s+[а-яa-z]{2,}\b){0,2}\s*(?:№|no\.?|n)?\s*[\w-]*\d[\w-]*"
    r"|(?:ст\.|статья|статьи|статье|article|art\.)\s*\d+[\w.]*(?:\s+(?:тк|ук|коап|гк)\s*(?:рф|рк)?)?"
    r"|тр\s*тс\s*\d+(?:/\d+)?"
    r"|гост\s*(?:р\s*)?[\d.]+(?:-\d+)?"
    r"|(?:iso|osha|nfpa|iogp|ansi|niosh)\s*[\d.]+(?:[:-]\d+)?"
    r"|санпин\s*[\d.]+(?:-\d+)?"
    r"|\b[a-z][a-z0-9]*/[a-z0-9][\w.#/-]*"
)
_TRANSLIT = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
        "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
        "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y", "ь": "",
        "э": "e", "ю": "yu", "я": "ya",
    }
)  # fmt: skip
_CITATION_STOP = frozenset(
    {"prikaz", "prikaza", "prikazu", "prikazom", "order", "st", "statya", "stati", "article", "art", "no", "n"}
)


# Reasoner.check_many: (subject, predicate, object, polarity) names -> Checks, the decision verify makes.
Decide = Callable[[list[tuple[str, str, str, bool]]], list[Any]]


@dataclass(frozen=True, slots=True)
class Rule:
    """One seed-003 ReasoningRule."""

    rule_id: str
    title: str
    trigger_patterns: tuple[Any, ...]  # compiled `regex` patterns
    violation_patterns: tuple[Any, ...]
    correction: str
    suppress_if_present: tuple[Any, ...] = ()
    severity: str = "warning"
    short_alert: str = ""

    def fires(self, question: str, draft: str) -> bool:
        """Triggered by the question or draft, violated by the draft, and not suppressed.

        Raises:
            InputError: a pattern ran past PATTERN_TIMEOUT_S on this text (catastrophic backtracking).
        """
        context = f"{question}\n{draft}"
        if self.trigger_patterns and not any(self._search(p, context) for p in self.trigger_patterns):
            return False
        if not any(self._search(p, draft) for p in self.violation_patterns):
            return False
        return not any(self._search(p, draft) for p in self.suppress_if_present)

    def _search(self, pattern: Any, text: str) -> bool:
        # The `regex` engine takes a timeout: a user's `(a|aa)+$` cannot hold the process (stdlib `re` holds the
        # GIL while it backtracks, so one rule froze a whole server, its time limits included).
        try:
            return wall_search(pattern, text, PATTERN_TIMEOUT_S)
        except TimeoutError:
            raise InputError(
                f"rule {self.rule_id!r}: the pattern {pattern.pattern[:100]!r} ran past {PATTERN_TIMEOUT_S:g} s on "
                "this text (it backtracks without end); rewrite it without nested repetition"
            ) from None


def load_rules(path: str | Path) -> list[Rule]:
    """Read `[[rule]]` tables from a TOML file.

    Raises:
        InputError: the file is missing or malformed, or a rule has a bad field (named with the rule's id).
    """
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError(f"rules file {str(file)!r} does not exist") from exc
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"rules file {str(file)!r} is not valid TOML: {exc}") from exc
    rows = data.get("rule")
    if not isinstance(rows, list) or not rows:
        raise InputError(f"rules file {str(file)!r} has no [[rule]] tables")
    known = {"id", "title", "severity", "short_alert", "correction"}
    known |= {"trigger_patterns", "violation_patterns", "suppress_if_present"}
    rules = []
    for n, row in enumerate(rows, start=1):
        where = f"{file}: rule {row.get('id', n)!r}"
        extra = set(row) - known
        if extra:
            raise InputError(f"{where}: unknown field(s) {sorted(extra)}")
        for required in ("id", "violation_patterns", "correction"):
            if required not in row:
                raise InputError(f"{where}: field {required!r} is required")
        severity = row.get("severity", "warning")
        if severity not in SEVERITIES:
            raise InputError(f"{where}: severity {severity!r} must be one of {list(SEVERITIES)}")
        rules.append(
            Rule(
                rule_id=str(row["id"]),
                title=str(row.get("title", row["id"])),
                trigger_patterns=_patterns(row.get("trigger_patterns", []), f"{where} trigger_patterns"),
                violation_patterns=_patterns(row["violation_patterns"], f"{where} violation_patterns"),
                correction=str(row["correction"]),
                suppress_if_present=_patterns(row.get("suppress_if_present", []), f"{where} suppress_if_present"),
                severity=severity,
                short_alert=str(row.get("short_alert", "")),
            )
        )
    return rules


def _patterns(values: object, where: str) -> tuple[Any, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InputError(f"{where}: expected a list of regular expressions")
    import regex

    out = []
    for v in values:
        check_size(v, f"{where}: the pattern")  # `a{4294967294}` would take every byte of memory to compile
        try:
            out.append(regex.compile(v, flags=regex.VERSION0))  # VERSION0: the syntax of stdlib `re`
        except regex.error as exc:
            raise InputError(f"{where}: bad regular expression {v[:200]!r}: {exc}") from exc
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """One sentence of the draft compared with the knowledge base."""

    sentence: str
    verdict: str  # supported | contradicted | conflicting (an open conflict: the sources disagree)
    fact: str  # the deciding fact, rendered
    fact_id: str
    source: str
    authority: str | None
    severity: str  # info | warning | critical


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """One citation of the draft and the retrieved source that backs it (None: unbacked)."""

    citation: str
    backed_by: str | None


@dataclass(frozen=True, slots=True)
class AnswerReport:
    """What check-answer found and the corrected draft."""

    text: str
    language: str
    fired: tuple[Rule, ...]
    claims: tuple[ClaimCheck, ...]
    citations: tuple[CitationCheck, ...]
    notices: tuple[str, ...] = field(default=())

    @property
    def critical(self) -> bool:
        """Whether anything critical was found."""
        return any(r.severity == "critical" for r in self.fired) or any(c.severity == "critical" for c in self.claims)


NOTICES = {
    "ru": {
        "citations": "ℹ️ Часть ссылок в ответе не подтверждена источниками этого поиска: {x}. Это не значит, что они "
        "ложные, но перепроверьте их по официальным источникам.",
        "claim": "⚠️ {tier} {source}: {fact}.",
        "conflict": "⚠️ Источники расходятся: {fact}.",
    },
    "en": {
        "citations": "ℹ️ Some references in the answer are not backed by the sources retrieved for it: {x}. That does "
        "not make them false, but check them against the official sources.",
        "claim": "⚠️ {tier} {source}: {fact}.",
        "conflict": "⚠️ The sources disagree: {fact}.",
    },
}


def check_citations(draft: str, packs: Sequence[EvidencePack]) -> list[CitationCheck]:
    """Each citation in the draft and the retrieved source (name) that backs it, if any."""
    names = sorted({p.fact.source for p in packs if p.fact.source})
    keyed = [(n, set(_tokens(n))) for n in names]
    out = []
    for match in dict.fromkeys(m.group(0).strip() for m in _CITATION.finditer(draft)):
        tokens = [t for t in _tokens(match) if t not in _CITATION_STOP]
        numbers = [t for t in tokens if any(ch.isdigit() for ch in t)]
        backed = None
        for name, have in keyed:
            if match.lower() == name.lower() or (numbers and all(t in have for t in numbers) and set(tokens) & have):
                backed = name
                break
        out.append(CitationCheck(match, backed))
    return out


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().translate(_TRANSLIT))


def check_claims(
    draft: str,
    retriever: Retriever,
    packs: Sequence[EvidencePack],
    lang: str,
    decide: Decide | None = None,
    sources: Callable[[list[str]], Sequence[Any]] | None = None,
) -> list[ClaimCheck]:
    """Every claim of the draft, decided as `verify` decides it; other sentences naming two concepts are
    compared with the stored facts between them.

    A sentence that reads as a claim ("A neuron is a transistor", «Нейроны не имеют ДНК») goes through `decide`
    (Reasoner.check_many: the semantics of verify and ask); a REFUTED claim is contradicted, a SUPPORTED one
    supported, and an undecided one is left alone.
    """
    out = []
    for sentence in (s.strip() for s in _SENTENCE.split(draft)):
        if not sentence:
            continue
        try:
            found = _decided_claim(sentence, lang, decide, sources) or _compared_claim(sentence, retriever, packs, lang)
        except AmbiguousRelation:
            continue  # its relation phrase names two relations that decide it differently: verify says so
        if found is None and decide is not None:
            found = _claim_out_of_time(sentence, retriever, packs, decide, sources)
        if found is not None:
            out.append(found)
    return out


def _claim_out_of_time(
    sentence: str,
    retriever: Retriever,
    packs: Sequence[EvidencePack],
    decide: Decide,
    sources: Callable[[list[str]], Sequence[Any]] | None,
) -> ClaimCheck | None:
    """A sentence naming two concepts that only a fact out of time (as of the check's time) relates: the claim that
    fact states, decided as verify decides it then ("Advocaat coached Zenit" as of 2012, when another coach holds
    the functional `coach`: refuted); None when no such fact relates them or the decision is undecided."""
    concepts, _unknown, _words = retriever.link(sentence)
    ids = set(concepts)
    if len(ids) < 2 or any(p.usable and {p.fact.subject, p.fact.object} <= ids for p in packs):
        return None
    polarity = not _NEGATION.search(sentence)
    stated = dict.fromkeys(
        (p.fact.subject, p.fact.predicate, p.fact.object)
        for p in packs
        if p.fact.status is Status.OUT_OF_TIME and p.fact.object is not None and {p.fact.subject, p.fact.object} <= ids
    )
    for subject, predicate, obj in stated:
        check = decide([(subject, predicate, str(obj), polarity)])[0]
        found = _decided(sentence, check, sources) if check is not None else None
        if found is not None:
            return found
    return None


def _decided_claim(
    sentence: str, lang: str, decide: Decide | None, sources: Callable[[list[str]], Sequence[Any]] | None
) -> ClaimCheck | None:
    """The sentence as a claim decided by `decide` (verify's semantics); None when it is no claim or undecided."""
    triple = parse_claim_sentence(sentence, lang) or parse_verb_sentence(sentence, lang) if decide else None
    if triple is None or decide is None:
        return None
    try:
        check = decide([(triple.subject, triple.predicate, triple.object, triple.polarity)])[0]
    except AmbiguousRelation:
        raise
    except InputError:  # no verb of it names a stored relation: compared with the facts instead
        return None
    return _decided(sentence, check, sources) if check is not None else None


def _compared_claim(sentence: str, retriever: Retriever, packs: Sequence[EvidencePack], lang: str) -> ClaimCheck | None:
    """A sentence naming two concepts, against the stored facts between them: the stronger side decides."""
    concepts, _unknown, _words = retriever.link(sentence)
    if len(concepts) < 2:
        return None
    ids = set(concepts)
    facts = [p.fact for p in packs if p.usable and p.fact.object is not None and {p.fact.subject, p.fact.object} <= ids]
    if not facts:
        return None
    polarity = not _NEGATION.search(sentence)
    pro = [f for f in facts if f.polarity == polarity]
    con = [f for f in facts if f.polarity != polarity]
    best_con = max(con, key=_strength, default=None)
    best_pro = max(pro, key=_strength, default=None)
    if best_con is not None and (best_pro is None or _strength(best_con) > _strength(best_pro)):
        strong = best_con.authority is Authority.NORM or best_con.trust >= STRONG_TRUST
        if not strong:
            return None
        severity = "critical" if best_con.authority is Authority.NORM else "warning"
        return _claim(sentence, "contradicted", best_con, severity, retriever, lang)
    if best_pro is not None:
        return _claim(sentence, "supported", best_pro, "info", retriever, lang)
    return None


def _decided(sentence: str, check: Any, sources: Callable[[list[str]], Sequence[Any]] | None) -> ClaimCheck | None:
    verdict = {"supported": "supported", "refuted": "contradicted", "conflicting": "conflicting"}.get(
        str(check.outcome.value)
    )
    if verdict is None:
        return None
    backing = [st for st in check.trace.steps if st.facts]
    if verdict == "conflicting":
        return _conflicted(sentence, backing)
    step = backing[0] if backing else None
    source = step.sources[0] if step is not None and step.sources else ""
    authority = None
    if sources is not None:  # the strongest source behind the decision names it («NORM» outranks a commentary)
        named = list(dict.fromkeys(src for st in backing for src in st.sources))
        refs = {ref.name: ref for ref in sources(named)}
        ranked = sorted((n for n in named if n in refs), key=lambda n: -TIER_RANK.get(refs[n].authority, 0))
        if ranked:
            source, authority = ranked[0], refs[ranked[0]].authority
            step = next(st for st in backing if source in st.sources)
    severity = "info" if verdict == "supported" else "critical" if authority == "NORM" else "warning"
    fact = check.explanation or (step.conclusion if step is not None else "")
    return ClaimCheck(sentence, verdict, fact, step.facts[0] if step is not None else "", source, authority, severity)


def _conflicted(sentence: str, backing: Sequence[Any]) -> ClaimCheck:
    """A claim under an open conflict: every side with its sources, since no one of them decides it."""
    sides = [st for st in backing if st.rule != R.DED_FUNCTIONAL_CONFLICT] or list(backing)
    named = ", ".join(dict.fromkeys(src for st in sides for src in st.sources))
    fact = "; ".join(f"{st.conclusion} ({', '.join(st.sources)})" if st.sources else st.conclusion for st in sides)
    return ClaimCheck(sentence, "conflicting", fact, sides[0].facts[0] if sides else "", named, None, "warning")


def _strength(f: Fact) -> tuple[int, float]:
    return (TIER_RANK.get(f.authority, 0) if f.authority else 0, f.trust * f.confidence)


def _claim(sentence: str, verdict: str, f: Fact, severity: str, retriever: Retriever, lang: str) -> ClaimCheck:
    del retriever, lang
    statement = f"{f.subject} {'' if f.polarity else 'NOT '}{f.predicate} {f.target}"
    return ClaimCheck(
        sentence, verdict, statement, f.fact_id, f.source, f.authority.value if f.authority else None, severity
    )


def check_answer(
    draft: str,
    question: str,
    rules: Sequence[Rule],
    retriever: Retriever,
    *,
    language: str | None = None,
    decide: Decide | None = None,
    sources: Callable[[list[str]], Sequence[Any]] | None = None,
) -> AnswerReport:
    """Apply rules, claim checks and citation checks to a draft; criticals first, warnings appended.

    Raises:
        InputError: the draft is empty.
        StoreError: the store failed.
    """
    if not draft.strip():
        raise InputError("the draft answer is empty")
    lang = language or detect_language(question or draft)
    retrieval = retriever.retrieve(f"{question}\n{draft}", hops=1)
    packs = list(retrieval.by_fact.values())
    fired = tuple(r for r in rules if r.fires(question, draft))
    claims = tuple(check_claims(draft, retriever, packs, lang, decide, sources))
    citations = tuple(check_citations(draft, packs))
    head: list[str] = []
    tail: list[str] = []
    labels = TIER_LABELS[lang]
    for r in fired:
        if r.severity == "critical":
            head.append(r.short_alert or r.correction)
        tail.append(r.correction)
    for c in claims:
        if c.verdict == "conflicting":
            tail.append(NOTICES[lang]["conflict"].format(fact=c.fact))
        if c.verdict != "contradicted":
            continue
        line = (
            NOTICES[lang]["claim"]
            .format(tier=labels.get(c.authority or "", ""), source=c.source, fact=c.fact)
            .replace("  ", " ")
        )
        (head if c.severity == "critical" else tail).append(line)
    notices = []
    unbacked = [c.citation for c in citations if c.backed_by is None]
    if unbacked:
        notices.append(NOTICES[lang]["citations"].format(x=", ".join(unbacked)))
    text = "\n\n".join([*dict.fromkeys(head), draft.strip(), *dict.fromkeys(tail), *notices])
    return AnswerReport(text, lang, fired, claims, citations, tuple(notices))
