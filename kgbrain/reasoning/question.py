"""Rule-based question understanding in Russian and English.

A question is matched against ordered patterns ("Что такое X?", "Is X a Y?", "Почему X …?") that give
its intent and the text of its slots; the slots are linked to concepts afterwards. No ML: the patterns are
the seed's question forms plus their common variants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from kgbrain.language import detect_language


class Intent(str, Enum):
    """What a question asks for."""

    DEFINE = "define"  # Что такое X? / What is X?
    WHY = "why"  # Почему X (важен для Y)? / Why ...?
    IS_A = "is_a"  # Является ли X Y? / Is X a Y?
    HAS = "has"  # Есть ли у X Y? / Does X have Y?
    CAN = "can"  # Может ли X Y? / Can X Y?
    LIKE = "like"  # На что похож X? / What is X like?
    CAUSES = "causes"  # Что вызывает X? / What causes X?
    EFFECTS = "effects"  # К чему приводит X? / What does X cause?
    RELATION = "relation"  # Как связаны X и Y? / How is X related to Y?
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Question:
    """A parsed question: its language, intent and slot texts (not yet linked to concepts)."""

    text: str
    language: str  # "ru" or "en"
    intent: Intent
    subject: str = ""
    object: str = ""


_A = r"(?:an?\s+|the\s+)?"
# Ordered: the first pattern that matches wins; groups are (subject, object).
_PATTERNS: tuple[tuple[Intent, str], ...] = (
    # Russian
    (Intent.LIKE, r"^(?:на\s+что|на\s+кого|чему)\s+(?:похож[аеи]?|подобн[аоы]?)\s+(?P<s>.+)$"),
    (Intent.LIKE, r"^(?P<s>.+?)\s+(?:похож[аеи]?|подобн[аоы]?)\s+на\s+(?:что|кого)$"),
    (Intent.LIKE, r"^(?:с\s+чем\s+можно\s+сравнить|что\s+похоже\s+на)\s+(?P<s>.+)$"),
    (Intent.DEFINE, r"^(?:что\s+так(?:ое|ой|ая)|кто\s+так(?:ой|ая|ие)|что\s+значит|что\s+есть)\s+(?P<s>.+)$"),
    (Intent.DEFINE, r"^(?:расскажи(?:те)?\s+(?:мне\s+)?(?:о|об|про)|опиши(?:те)?)\s+(?P<s>.+)$"),
    (Intent.IS_A, r"^(?:является\s+ли|верно\s+ли,?\s+что)\s+(?P<s>.+?)\s+(?:—|-|это)?\s*(?P<o>[^—-]+?)$"),
    (Intent.HAS, r"^(?:есть\s+ли\s+у|имеет\s+ли)\s+(?P<s>.+?)\s+(?P<o>\S+(?:\s+\S+)?)$"),
    (Intent.HAS, r"^(?:содержит\s+ли|содержат\s+ли)\s+(?P<s>.+?)\s+(?P<o>\S+(?:\s+\S+)?)$"),
    (Intent.CAN, r"^(?:может\s+ли|могут\s+ли|способ[енна]+\s+ли)\s+(?P<s>.+?)\s+(?P<o>\S+(?:\s+\S+)?)$"),
    (Intent.CAUSES, r"^(?:что|кто)\s+(?:вызывает|вызывают|приводит\s+к|является\s+причиной)\s+(?P<s>.+)$"),
    (
        Intent.CAUSES,
        r"^(?:почему\s+(?:возникает|происходит|бывает)|из-за\s+чего\s+(?:возникает|происходит)?)\s*(?P<s>.+)$",
    ),
    (Intent.CAUSES, r"^(?:каковы|какие)\s+причины\s+(?P<s>.+)$"),
    (
        Intent.EFFECTS,
        r"^(?:к\s+чему\s+привод(?:ит|ят)|что\s+вызыва(?:ет|ют)|каковы\s+последствия|что\s+обеспечива(?:ет|ют))\s+(?P<s>.+)$",
    ),
    (Intent.RELATION, r"^как\s+связаны\s+(?P<s>.+?)\s+и\s+(?P<o>.+)$"),
    (Intent.RELATION, r"^(?:какая\s+)?связь\s+(?:между\s+)?(?P<s>.+?)\s+и\s+(?P<o>.+)$"),
    (Intent.WHY, r"^(?:почему|зачем|отчего)\s+(?P<s>.+)$"),
    (Intent.IS_A, r"^(?P<s>.+?)\s+(?:—|-|это)\s+(?:это\s+)?(?P<o>.+?)(?:\s+ли)?$"),
    # English
    (Intent.LIKE, r"^what\s+(?:is|are)\s+(?P<s>.+?)\s+(?:like|similar\s+to|analogous\s+to|comparable\s+to)$"),
    (Intent.LIKE, r"^what\s+(?:is|are)\s+(?:similar|analogous)\s+to\s+(?P<s>.+)$"),
    (Intent.LIKE, r"^(?P<s>.+?)\s+(?:is|are)\s+(?:like|similar\s+to)\s+what$"),
    (Intent.CAUSES, r"^what\s+(?:causes|leads\s+to|results\s+in|triggers)\s+(?P<s>.+)$"),
    (Intent.CAUSES, r"^what\s+are\s+the\s+causes\s+of\s+(?P<s>.+)$"),
    (Intent.EFFECTS, r"^what\s+(?:does|do)\s+(?P<s>.+?)\s+(?:cause|lead\s+to|enable|result\s+in)$"),
    (Intent.EFFECTS, r"^what\s+are\s+the\s+(?:effects|consequences)\s+of\s+(?P<s>.+)$"),
    (Intent.RELATION, r"^how\s+(?:is|are)\s+(?P<s>.+?)\s+(?:related|connected|linked)\s+to\s+(?P<o>.+)$"),
    (Intent.RELATION, r"^how\s+are\s+(?P<s>.+?)\s+and\s+(?P<o>.+?)\s+(?:related|connected|linked)$"),
    (Intent.IS_A, rf"^(?:is|are)\s+{_A}(?P<s>.+?)\s+{_A}(?:kind\s+of\s+|type\s+of\s+)?(?P<o>\S+(?:\s+\S+)?)$"),
    (Intent.HAS, rf"^(?:does|do)\s+{_A}(?P<s>.+?)\s+(?:have|has|contain|possess)\s+{_A}(?P<o>.+)$"),
    (Intent.CAN, rf"^(?:can|could)\s+{_A}(?P<s>.+?)\s+(?P<o>.+)$"),
    (Intent.DEFINE, rf"^(?:what|who)\s+(?:is|are)\s+{_A}(?P<s>.+)$"),
    (Intent.DEFINE, rf"^(?:define|describe|tell\s+me\s+about|explain)\s+{_A}(?P<s>.+)$"),
    (Intent.WHY, r"^why\s+(?P<s>.+)$"),
)
_COMPILED = tuple((intent, re.compile(p, re.IGNORECASE)) for intent, p in _PATTERNS)
_TRAILING = re.compile(r"[\s?!.,;:]+$")


def parse_question(text: str) -> Question:
    """Find the intent and slots of a question (UNKNOWN with the whole text as subject when nothing matches)."""
    lang = detect_language(text)
    clean = _TRAILING.sub("", " ".join(text.split()))
    for intent, pattern in _COMPILED:
        m = pattern.match(clean)
        if m:
            groups = m.groupdict()
            return Question(text, lang, intent, (groups.get("s") or "").strip(), (groups.get("o") or "").strip())
    return Question(text, lang, Intent.UNKNOWN, clean)
