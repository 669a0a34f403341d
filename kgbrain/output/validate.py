"""The response validator: checks an answer before it leaves (seed 000 ResponseValidator, seed 004).

Checks, each an issue type with a severity and a correction:
- `incomplete`: the answer is empty, or does not mention what the question asked about;
- `inconsistent`: it asserts something the knowledge base holds evidence against -> caveat added;
- `mismatch`: its tone does not match its confidence (sure-sounding below 0.75 -> hedging added;
  hedged above 0.85 -> hedging removed);
- `unsafe`: private data (e-mail, phone, card, passport/SNILS numbers, IP addresses) -> redacted;
- `language`: written in another language than the question's (reported; the caller re-renders);
- `discipline` (seed 004): it opens with a greeting or self-introduction instead of the content, or
  claims an action (saved, updated, deleted) that was not performed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from kgbrain.language import detect_language, stems
from kgbrain.reasoning.uncertainty import HEDGING_BY_CONFIDENCE, HIGH_CONFIDENCE, MEDIUM_HEDGE, hedging_phrases

HEDGE_FROM = 0.75  # seed 000: no hedging phrase from this confidence up

_PRIVATE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")),
    ("card", re.compile(r"\b(?:\d[ -]?){13,19}\b")),
    ("phone", re.compile(r"(?<![\w/])(?:\+7|\+\d{1,3}|8)[\s(-]*\d{3}[\s)-]*\d{3}[\s-]?\d{2}[\s-]?\d{2}\b")),
    ("snils", re.compile(r"\b\d{3}-\d{3}-\d{3}[ -]\d{2}\b")),
    ("passport", re.compile(r"(?i)(?:паспорт\w*|passport)\s*(?:№|no\.?|n)?\s*\d{2}\s?\d{2}\s?\d{6}\b")),
    ("ip", re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")),
)
REDACTED = {"ru": "[скрыто]", "en": "[redacted]"}
_GREETING = re.compile(
    r"^\s*(?:здравствуй(?:те)?|привет|добрый\s+(?:день|вечер)|hello|hi|hey|greetings|"
    r"я\s*[—-]\s*kgbrain|меня\s+зовут|as\s+an\s+ai|i\s+am\s+kgbrain)\b[^.!?]*[.!?,]?\s*",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"(?i)\b(?:я\s+)?(?:сохранил[аи]?|запомнил[аи]?|обновил[аи]?|удалил[аи]?|исправил[аи]?|записал[аи]?)\b"
    r"|\b(?:i\s+(?:have\s+)?(?:saved|stored|updated|deleted|corrected|recorded)|(?:has|have)\s+been\s+(?:saved|stored|updated|deleted))\b"
)
_SOURCES_TAIL = re.compile(r"(?:Источники|Sources):.*$", re.DOTALL)
# An answer saying its sources disagree already states its uncertainty: no hedge is put before it.
_LOW_MARKERS: tuple[str, ...] = (
    "я не уверен",
    "не уверен",
    "возможно",
    "вероятно",
    "i'm not sure",
    "perhaps",
    "probably",
    "presumably",
    "источники расходятся",
    "the sources disagree",
)


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """Seed 000 ValidationIssue."""

    issue_type: str  # incomplete | inconsistent | mismatch | unsafe | language | discipline
    severity: str  # critical | warning | info
    description: str
    correction: str


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Seed 000 ValidationResult."""

    is_valid: bool
    issues: tuple[ValidationIssue, ...]
    corrected_response: str
    applied_corrections: tuple[str, ...] = field(default=())


def all_hedges(lang: str) -> tuple[str, ...]:
    """Every hedging phrase of a language, lower-cased without trailing punctuation."""
    phrases = {p for _lo, _hi, ps in HEDGING_BY_CONFIDENCE[lang] for p in ps} | set(MEDIUM_HEDGE[lang])
    return tuple(sorted({p.lower().rstrip(",:") for p in phrases}, key=len, reverse=True))


class ResponseValidator:
    """Runs the checks and applies the corrections that can be applied mechanically."""

    def validate(
        self,
        response: str,
        *,
        question_language: str,
        confidence: float,
        topics: Sequence[str] = (),
        contradicted: Sequence[str] = (),
        performed: Sequence[str] = (),
        requires_content: bool = True,
    ) -> ValidationResult:
        """Check `response` and correct what can be corrected.

        Args:
            response: the answer text.
            question_language: 'ru' or 'en'.
            confidence: the answer's confidence.
            topics: names of what the question asks about (concept labels); the answer must mention one.
            contradicted: stored statements that speak against the answer (for the caveat).
            performed: actions really performed in this cycle (e.g. "save_fact"); others may not be claimed.
            requires_content: False for clarifying questions and refusals (no topic or tone checks).
        """
        lang = "ru" if question_language == "ru" else "en"
        text = response.strip()
        issues: list[ValidationIssue] = []
        applied: list[str] = []

        if not text:
            issues.append(ValidationIssue("incomplete", "critical", "the answer is empty", "reasoning must run again"))
            return ValidationResult(False, tuple(issues), text, ())
        if requires_content and topics and not (stems(_body(text)) & stems(" ".join(topics))):
            issues.append(
                ValidationIssue("incomplete", "warning", f"the answer mentions none of {list(topics)}", "none")
            )
        text = _no_greeting(text, issues, applied)
        if not performed:
            text = _no_unperformed_claim(text, lang, issues, applied)
        if contradicted:
            text = _with_caveat(text, contradicted, lang, issues, applied)
        if requires_content:
            text = _tone_matching(text, confidence, lang, issues, applied)
        text = _redacted(text, lang, issues, applied)
        _check_language(text, lang, issues)
        valid = not any(i.severity == "critical" and i.issue_type in ("incomplete", "language") for i in issues)
        return ValidationResult(valid, tuple(issues), text, tuple(applied))


# The checks, in the order they run: each returns the corrected text and records what it found and changed.


def _no_greeting(text: str, issues: list[ValidationIssue], applied: list[str]) -> str:
    """Seed 004: the answer starts with its content, not a greeting."""
    greeting = _GREETING.match(text)
    if not greeting:
        return text
    issues.append(ValidationIssue("discipline", "warning", "the answer opens with a greeting", "removed"))
    applied.append("greeting removed")
    return _cap(text[greeting.end() :].lstrip())


def _no_unperformed_claim(text: str, lang: str, issues: list[ValidationIssue], applied: list[str]) -> str:
    """An action claimed done ("I saved ...") that was not performed is reworded as a proposal."""
    done = _DONE.search(text)
    if not done:
        return text
    claim = done.group(0)
    issues.append(
        ValidationIssue(
            "discipline",
            "critical",
            f"claims an action that was not performed: {claim!r}",
            "reworded as a proposal",
        )
    )
    applied.append("unperformed action reworded as a proposal")
    return _DONE.sub("предлагаю сохранить" if lang == "ru" else "I propose to save", text, count=1)


def _with_caveat(
    text: str, contradicted: Sequence[str], lang: str, issues: list[ValidationIssue], applied: list[str]
) -> str:
    """Stored statements against the answer are named in a caveat (the first two)."""
    caveat = (
        f"Есть сведения против этого: {'; '.join(contradicted[:2])}."
        if lang == "ru"
        else f"There is evidence against this: {'; '.join(contradicted[:2])}."
    )
    if caveat not in text:
        text = f"{text} {caveat}"
    issues.append(ValidationIssue("inconsistent", "warning", "stored facts speak against the answer", "caveat added"))
    applied.append("caveat added")
    return text


def _tone_matching(text: str, confidence: float, lang: str, issues: list[ValidationIssue], applied: list[str]) -> str:
    """A weak answer is hedged, a confident one is not."""
    lowered = text.lower()
    hedged = any(lowered.startswith(h) for h in all_hedges(lang)) or any(m in lowered for m in _LOW_MARKERS)
    if confidence < HEDGE_FROM and not hedged:
        phrase = (hedging_phrases(confidence, lang) or MEDIUM_HEDGE[lang])[0]
        issues.append(
            ValidationIssue(
                "mismatch",
                "warning",
                f"confidence {confidence:.2f} but a confident tone",
                f"prefixed {phrase!r}",
            )
        )
        applied.append("hedging added")
        return f"{phrase} {text[:1].lower()}{text[1:]}"
    if confidence > HIGH_CONFIDENCE:
        for h in all_hedges(lang):
            if lowered.startswith(h):
                issues.append(
                    ValidationIssue("mismatch", "info", f"confidence {confidence:.2f} but hedged", "hedging removed")
                )
                applied.append("hedging removed")
                return _cap(text[len(h) :].lstrip(" ,:"))
    return text


def _redacted(text: str, lang: str, issues: list[ValidationIssue], applied: list[str]) -> str:
    """Private data (e-mail addresses, phone numbers, ...) never leaves in an answer."""
    for kind, pattern in _PRIVATE:
        if pattern.search(_body(text)):
            text = pattern.sub(REDACTED[lang], text)
            issues.append(ValidationIssue("unsafe", "warning", f"private data ({kind}) in the answer", "redacted"))
            applied.append(f"{kind} redacted")
    return text


def _check_language(text: str, lang: str, issues: list[ValidationIssue]) -> None:
    """The answer is written in the question's language (a critical issue otherwise)."""
    written = detect_language(_body(text))
    if written != lang and re.search(r"[A-Za-zА-Яа-яЁё]{3,}", _body(text)):
        issues.append(
            ValidationIssue(
                "language",
                "critical",
                f"written in {written!r}, asked in {lang!r}",
                "re-render in the question's language",
            )
        )


def _body(text: str) -> str:
    """The text without its sources line (source names are often Latin in a Russian answer)."""
    return _SOURCES_TAIL.sub("", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
