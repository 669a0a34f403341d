"""The words of the loop's clarifying questions, in Russian and English.

The cognitive loop says what to ask as data (kgbrain.reasoning.cognition.clarify.Clarification); this module
alone turns it into a sentence, so every answer's text is written in output/.
"""

from __future__ import annotations

from kgbrain.reasoning.cognition.clarify import Clarification, ClarificationKind


def clarifying_question(c: Clarification, lang: str) -> str:
    """`c` as one short question in `lang` ("ru", anything else is English)."""
    ru = lang == "ru"
    if c.kind is ClarificationKind.WHICH_SOURCE:
        pro, con = ", ".join(c.names), ", ".join(c.against)
        if ru:
            return f"Источники расходятся — какому доверять: {pro} или {con}?"
        return f"The sources disagree — which should I trust: {pro} or {con}?"
    if c.kind is ClarificationKind.DID_YOU_MEAN:
        names = ", ".join((f"«{s}»" if ru else f"'{s}'") for s in c.names)
        return f"Вы имели в виду {names}?" if ru else f"Did you mean {names}?"
    if c.kind is ClarificationKind.WHICH_CONCEPT:
        return "О каком понятии идёт речь?" if ru else "Which concept do you mean?"
    name = c.names[0] if c.names else ""
    return f"Что такое «{name}»?" if ru else f"What is '{name}'?"
