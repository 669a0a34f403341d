"""Rule-based question understanding in Russian and English: one typed question for every later stage.

`parse_question` matches ordered patterns ("Что такое X?", "Is X a Y?", "What is the P of X?", «Можно ли …»)
that give the intent and the slot texts; `Reasoner.understand` then links the slots to concepts once and
refines the intent from what they name (a property is not a class: "Is Max sour?" asks `has_property`).
The loop, the reasoner and the responder all receive that `Question`; none of them parses the text again.
No ML: the patterns are the seed's question forms plus their common variants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum

from kgbrain.language import detect_language
from kgbrain.lazy_re import LazyPattern
from kgbrain.reasoning.nlu.lexicon import CAUSAL_VERBS
from kgbrain.reasoning.nlu.polite import as_yes_no
from kgbrain.reasoning.nlu.polite import unwrap as unwrap_polite
from kgbrain.reasoning.nlu.sentences import ATTRIBUTE_PHRASE, VALUE_TEXT, parse_claim_sentence


class Intent(str, Enum):
    """What a question asks for."""

    DEFINE = "define"  # Что такое X? / What is X?
    WHY = "why"  # Почему X (важен для Y)? / Why ...? (a causal chain)
    IS_A = "is_a"  # Является ли X Y? / Is X a Y?
    HAS_PROPERTY = "has_property"  # Кислый ли Макс? / Is Max sour?
    HAS = "has"  # Есть ли у X Y? / Does X have Y?
    PART_OF = "part_of"  # Является ли X частью Y? / Is X part of Y?
    CAN = "can"  # Может ли X Y? / Can X Y?
    CAUSAL = "causal"  # Вызывает ли X Y? / Does X cause (lead to, prevent, enable) Y?
    DOES = "does"  # Потребляет ли X Y? / Does X consume Y? (a stated relation named by its verb; «Делится ли X?»: can)
    VALUE = "value"  # Каков P у X? / What is the P of X?
    VALUE_CHECK = "value_check"  # Равен ли P X V? / Is the P of X V? (yes or no about a stated value)
    COUNT = "count"  # Сколько …? / How many …?
    WH = "wh"  # Кто назвал X? / Who named X? / Which cells divide?
    LIKE = "like"  # На что похож X? / What is X like?
    ANALOGY = "analogy"  # Похож ли X на Y? / Is X like Y?
    CAUSES = "causes"  # Что вызывает X? / What causes X?
    EFFECTS = "effects"  # К чему приводит X? / What does X cause?
    RELATION = "relation"  # Как связаны X и Y? / How is X related to Y?
    COMPARE = "compare"  # Чем X отличается от Y? / What is the difference between X and Y? What do X and Y share?
    PERMISSION = "permission"  # Можно ли …? / Is it allowed to …?
    OBLIGATION = "obligation"  # Нужно ли …? / Must …?
    UNKNOWN = "unknown"


# The intents answered yes or no: the reasoner's decision is the answer.
YES_NO = frozenset(
    {Intent.IS_A, Intent.HAS_PROPERTY, Intent.HAS, Intent.PART_OF, Intent.CAN, Intent.CAUSAL, Intent.DOES}
)
NORMATIVE = frozenset({Intent.PERMISSION, Intent.OBLIGATION})


@dataclass(frozen=True, slots=True)
class Question:
    """A question, parsed once: language, intent, slot texts and (after linking) the concepts they name.

    `subject`/`object` are the slot texts as written; `verb` is the wh-question's or norm's verb ("named",
    «выдавать»); `concepts` are the linked concept ids in slot order and `unresolved` the slot texts that name
    no concept; `variables` name what a wh/value/count question asks for (`?x`).
    """

    text: str
    language: str  # "ru" or "en"
    intent: Intent
    subject: str = ""
    object: str = ""
    verb: str = ""
    polarity: bool = True  # False: asked negatively ("Isn't X a Y?"); the slots hold the positive statement
    variables: tuple[str, ...] = ()
    concepts: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = ()
    linked: bool = False  # set by Reasoner.understand
    among: str = ""  # a wh-question's class: "Which grape varieties grow in Mosel?" answers grape varieties only
    tied: tuple[str, ...] = ()  # predicates its relation phrase names equally well (a clarification if they differ)

    def with_links(self, intent: Intent, concepts: tuple[str, ...], unresolved: tuple[str, ...]) -> Question:
        """This question with its intent refined and its slots linked."""
        return replace(self, intent=intent, concepts=concepts, unresolved=unresolved, linked=True)


def causal_predicate(verb: str) -> str:
    """The causal predicate a verb asks about ("prevent" -> prevents); `causes` when none matches."""
    v = verb.lower()
    return next((p for prefix, p in CAUSAL_VERBS if v.startswith(prefix)), "causes")


_A = r"(?:an?\s+|the\s+)?"
_RU_VERB = r"(?P<v>\S+(?:ся|сь|ть|ет|ют|ит|ят|ат|ут))"
# Ordered: the first pattern that matches wins; groups are s (subject), o (object), v (verb).
_V = rf"(?P<o>{VALUE_TEXT})"
_PATTERNS: tuple[tuple[Intent, str], ...] = (
    # Russian
    (Intent.VALUE_CHECK, r"^(?:равен|равн[аоы]|составля(?:ет|ют))\s+ли\s+(?P<s>.+?)\s+" + _V + "$"),
    (Intent.VALUE_CHECK, r"^(?P<s>.+?)\s+(?:равен|равн[аоы]|составля(?:ет|ют)|—|–|-{1,2})\s+" + _V + r"(?:\s+ли)?$"),
    (Intent.LIKE, r"^(?:на\s+что|на\s+кого|чему)\s+(?:похож[аеи]?|подобн[аоы]?)\s+(?P<s>.+)$"),
    (Intent.LIKE, r"^(?P<s>.+?)\s+(?:похож[аеи]?|подобн[аоы]?)\s+на\s+(?:что|кого)$"),
    (Intent.LIKE, r"^(?:с\s+чем\s+можно\s+сравнить|что\s+похоже\s+на)\s+(?P<s>.+)$"),
    (Intent.ANALOGY, r"^(?:похож[аеи]?|подобн[аоы]?)\s+ли\s+(?P<s>.+?)\s+на\s+(?P<o>.+)$"),
    (Intent.DEFINE, r"^(?:что\s+так(?:ое|ой|ая)|кто\s+так(?:ой|ая|ие)|что\s+значит|что\s+есть)\s+(?P<s>.+)$"),
    (Intent.DEFINE, r"^(?:расскажи(?:те)?\s+(?:мне\s+)?(?:о|об|про)|опиши(?:те)?)\s+(?P<s>.+)$"),
    (Intent.PERMISSION, r"^(?:можно\s+ли|разрешено\s+ли|допускается\s+ли|допустимо\s+ли)\s+(?P<v>\S+)\s+(?P<s>.+)$"),
    (
        Intent.OBLIGATION,
        r"^(?:нужно\s+ли|надо\s+ли|необходимо\s+ли|следует\s+ли|требуется\s+ли)\s+(?P<v>\S+)\s+(?P<s>.+)$",
    ),
    (Intent.OBLIGATION, r"^(?:обязан[аы]?|должн[аоы]?|должен)\s+ли\s+(?P<s>.+?)\s+(?P<v>\S+ть)\s+(?P<o>.+)$"),
    (Intent.PART_OF, r"^(?:является\s+ли|входит\s+ли|входят\s+ли)\s+(?P<s>.+?)\s+(?:частью|в\s+состав)\s+(?P<o>.+)$"),
    (Intent.IS_A, r"^(?:явля(?:ет|ют)ся\s+ли|верно\s+ли,?\s+что)\s+(?P<s>.+?)\s+(?:—|-|это)?\s*(?P<o>[^—-]+?)$"),
    (
        Intent.CAUSAL,
        r"^(?P<v>вызыва(?:ет|ют)|предотвраща(?:ет|ют)|обеспечива(?:ет|ют)|препятству(?:ет|ют))\s+ли\s+"
        r"(?P<s>.+?)\s+(?P<o>[^\s].*)$",
    ),
    (Intent.CAUSAL, r"^(?P<v>привод(?:ит|ят)|вед(?:ёт|ет|ут))\s+ли\s+(?P<s>.+?)\s+к\s+(?P<o>.+)$"),
    (Intent.HAS, r"^(?:есть\s+ли\s+у|имеет\s+ли)\s+(?P<s>.+?)\s+(?P<o>\S+(?:\s+\S+)?)$"),
    # «Есть ли жало у рабочей пчелы?»: the thing had before its holder
    (Intent.HAS, r"^есть\s+ли\s+(?P<o>.+?)\s+у\s+(?P<s>.+)$"),
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
        r"^(?:к\s+чему\s+привод(?:ит|ят)|каковы\s+последствия|что\s+обеспечива(?:ет|ют))\s+(?P<s>.+)$",
    ),
    (Intent.RELATION, r"^как\s+связаны\s+(?P<s>.+?)\s+и\s+(?P<o>.+)$"),
    (Intent.COMPARE, r"^чем\s+(?P<s>.+?)\s+отлича(?:ет|ют)ся\s+от\s+(?P<o>.+)$"),
    (Intent.COMPARE, r"^чем\s+отлича(?:ет|ют)ся\s+(?P<s>.+?)\s+(?:и|от)\s+(?P<o>.+)$"),
    (
        Intent.COMPARE,
        r"^(?:в\s+ч[её]м|какая|какие|каковы)\s+(?:разница|различи[ея]|отличи[ея])\s+(?:между\s+)?"
        r"(?P<s>.+?)\s+и\s+(?P<o>.+)$",
    ),
    (Intent.COMPARE, r"^(?:что\s+общего|что\s+объединяет|сходства?)\s+(?:у|между|в)?\s*(?P<s>.+?)\s+и\s+(?P<o>.+)$"),
    (Intent.COMPARE, r"^сравн(?:и|ите)\s+(?P<s>.+?)\s+(?:и|с|со)\s+(?P<o>.+)$"),
    (Intent.RELATION, r"^(?:какая\s+)?связь\s+(?:между\s+)?(?P<s>.+?)\s+и\s+(?P<o>.+)$"),
    (Intent.COUNT, r"^сколько\s+(?P<s>.+)$"),
    (Intent.COUNT, r"^какие\s+(?P<s>(?:виды|типы|разновидности)\s+.+?)\s+(?:бывают|существуют|есть|известны)$"),
    (
        Intent.COUNT,  # «Перечисли виды X», «Назовите три типа X»
        r"^(?:перечисл(?:и|ите)|назов(?:и|ите))\s+(?:все\s+|\S+\s+)?"
        r"(?P<s>(?:вид(?:ы|а|ов)?|тип(?:ы|а|ов)?|разновидност(?:и|ей))\s+.+)$",
    ),
    (Intent.WH, r"^где\s+(?P<v>находится|находятся|расположен[аоы]?)\s+(?P<o>.+)$"),
    (Intent.WH, r"^из\s+чего\s+(?P<v>сделан[аоы]?|состо(?:ит|ят))\s+(?P<o>.+)$"),
    (Intent.WH, r"^(?:как(?:ие|ой|ая|ое))\s+(?P<s>.+?)\s+" + _RU_VERB + r"$"),
    (Intent.VALUE, r"^(?:каков[аоы]?|как(?:ой|ая|ое|ие)|чему\s+равн(?:ы|а|о|ен))\s+(?P<s>.+)$"),
    (Intent.WH, r"^(?P<p>от|в|к|с|на|из|для)\s+(?:чего|чему|ч[её]м|что|кого|ком|кем)\s+(?P<v>\S+)\s+(?P<o>.+)$"),
    (Intent.WH, r"^(?:кто|что)\s+(?P<v>\S+)\s+(?P<o>.+)$"),
    (Intent.WHY, r"^(?:почему|зачем|отчего)\s+(?P<s>.+)$"),
    # «Как заморозки приводят к потере урожая?»: the causal chain between the two, as «почему» asks it
    (
        Intent.WHY,
        r"^(?:как|каким\s+образом)\s+(?P<s>.+?)\s+(?:привод(?:ит|ят)|вед(?:ёт|ет|ут)|вызыва(?:ет|ют))\s+(?:к\s+)?(?P<o>.+)$",
    ),
    (Intent.IS_A, r"^(?:относ(?:ит|ят)ся\s+ли)\s+(?P<s>.+?)\s+к\s+(?P<o>.+)$"),
    (Intent.IS_A, r"^(?P<s>.+?)\s+(?:относ(?:ит|ят)ся)\s+к\s+(?P<o>.+?)(?:\s+ли)?$"),
    (Intent.DOES, r"^(?P<v>\S+(?:[еёо]т|[иую]т|[ая]т|[её]тся|ится|[ую]тся|[ая]тся))\s+ли\s+(?P<s>.+)$"),
    (Intent.IS_A, r"^(?P<o>\S+)\s+ли\s+(?P<s>.+)$"),
    (Intent.IS_A, r"^(?P<s>.+?)\s+(?:—|-|это)\s+(?:это\s+)?(?P<o>.+?)(?:\s+ли)?$"),
    # English
    (Intent.VALUE_CHECK, r"^(?:is|are)\s+the\s+(?P<s>.+?\s+of\s+.+?)\s+(?:equal\s+to\s+)?" + _V + "$"),
    (Intent.VALUE_CHECK, r"^(?:is|are)\s+(?P<s>.+?'s?\s+.+?)\s+(?:equal\s+to\s+)?" + _V + "$"),
    (Intent.LIKE, r"^what\s+(?:is|are)\s+(?P<s>.+?)\s+(?:like|similar\s+to|analogous\s+to|comparable\s+to)$"),
    (Intent.LIKE, r"^what\s+(?:is|are)\s+(?:similar|analogous)\s+to\s+(?P<s>.+)$"),
    (Intent.LIKE, r"^(?P<s>.+?)\s+(?:is|are)\s+(?:like|similar\s+to)\s+what$"),
    (Intent.CAUSES, r"^what\s+(?:causes|leads\s+to|results\s+in)\s+(?P<s>.+)$"),
    (Intent.CAUSES, r"^what\s+are\s+the\s+causes\s+of\s+(?P<s>.+)$"),
    (Intent.EFFECTS, r"^what\s+(?:does|do)\s+(?P<s>.+?)\s+(?:cause|lead\s+to|enable|result\s+in)$"),
    (Intent.EFFECTS, r"^what\s+are\s+the\s+(?:effects|consequences)\s+of\s+(?P<s>.+)$"),
    (Intent.RELATION, r"^how\s+(?:is|are)\s+(?P<s>.+?)\s+(?:related|connected|linked)\s+to\s+(?P<o>.+)$"),
    (Intent.RELATION, r"^how\s+are\s+(?P<s>.+?)\s+and\s+(?P<o>.+?)\s+(?:related|connected|linked)$"),
    (
        Intent.COMPARE,
        rf"^what(?:'s|\s+is|\s+are)\s+the\s+(?:main\s+)?(?:differences?|similarit(?:y|ies))\s+between\s+{_A}(?P<s>.+?)"
        rf"\s+and\s+{_A}(?P<o>.+)$",
    ),
    (Intent.COMPARE, rf"^how\s+(?:does|do|is|are)\s+{_A}(?P<s>.+?)\s+(?:differ|different)\s+from\s+{_A}(?P<o>.+)$"),
    (Intent.COMPARE, rf"^how\s+do\s+{_A}(?P<s>.+?)\s+and\s+{_A}(?P<o>.+?)\s+differ$"),
    (Intent.COMPARE, rf"^what\s+do\s+{_A}(?P<s>.+?)\s+and\s+{_A}(?P<o>.+?)\s+have\s+in\s+common$"),
    (Intent.COMPARE, rf"^compare\s+{_A}(?P<s>.+?)\s+(?:and|with|to)\s+{_A}(?P<o>.+)$"),
    (
        Intent.PERMISSION,
        r"^(?:is\s+it\s+(?:allowed|permitted|ok|okay|legal|acceptable)\s+to|may\s+(?:i|we|one|you)|"
        r"can\s+(?:i|we|one|you))\s+(?P<v>\S+)\s+(?P<s>.+)$",
    ),
    (Intent.PERMISSION, rf"^(?:may|can)\s+{_A}(?P<s>.+?)\s+be\s+(?P<v>\S+)(?P<o>.*)$"),
    (Intent.OBLIGATION, rf"^(?:must|should)\s+{_A}(?P<s>.+?)\s+be\s+(?P<v>\S+)(?P<o>.*)$"),
    (
        Intent.OBLIGATION,
        r"^(?:is\s+it\s+(?:required|necessary|mandatory|obligatory)\s+to|must\s+(?:i|we|one|you))\s+"
        r"(?P<v>\S+)\s+(?P<s>.+)$",
    ),
    # "Is a motor neuron located in the spinal cord?": the participle and its preposition name the predicate
    (Intent.DOES, rf"^(?:is|are|was|were)\s+{_A}(?P<s>.+?\s+(?:located|found|situated)\s+(?:in|at|on)\s+.+)$"),
    # "Was the synapse named by Sherrington?": the passive verb names the predicate (named -> named_by)
    (Intent.DOES, rf"^(?:is|are|was|were)\s+{_A}(?P<s>.+?\s+by\s+.+?)$"),
    (Intent.PART_OF, rf"^(?:is|are)\s+{_A}(?P<s>.+?)\s+(?:a\s+)?part\s+of\s+{_A}(?P<o>.+)$"),
    (Intent.ANALOGY, rf"^(?:is|are)\s+{_A}(?P<s>.+?)\s+(?:like|similar\s+to|analogous\s+to)\s+{_A}(?P<o>.+)$"),
    (Intent.COUNT, r"^how\s+many\s+(?P<s>.+)$"),
    (Intent.COUNT, r"^what\s+(?P<s>(?:kinds|types|sorts)\s+of\s+.+?)\s+(?:are\s+there|exist|do\s+you\s+know)$"),
    (
        Intent.COUNT,  # "List the kinds of X", "Name three types of X": "How many kinds of X?" lists them
        r"^(?:list|name|enumerate)\s+(?:the\s+|all\s+(?:the\s+)?|\w+\s+)?(?P<s>(?:kinds|types|sorts)\s+of\s+.+)$",
    ),
    (Intent.WH, rf"^where\s+(?:is|are)\s+{_A}(?P<o>.+?)\s+(?P<v>located|found|situated)$"),
    (Intent.WH, rf"^what\s+(?:is|are)\s+{_A}(?P<o>.+?)\s+(?P<v>made)\s+of$"),
    (Intent.VALUE, r"^what\s+(?:is|are)\s+the\s+(?P<s>.+?\s+of\s+.+)$"),
    (Intent.VALUE, r"^what\s+(?:is|are)\s+(?P<s>.+?'s?\s+.+)$"),
    (Intent.IS_A, rf"^(?:is|are)\s+{_A}(?P<s>.+?)\s+{_A}(?:kind\s+of\s+|type\s+of\s+)?(?P<o>\S+(?:\s+\S+)?)$"),
    (Intent.HAS, rf"^(?:does|do)\s+{_A}(?P<s>.+?)\s+(?:have|has|contain|possess)\s+{_A}(?P<o>.+)$"),
    (
        Intent.CAUSAL,
        rf"^(?:does|do|can|could)\s+{_A}(?P<s>.+?)\s+(?P<v>cause|lead\s+to|result\s+in|prevent|enable|trigger)"
        rf"\s+{_A}(?P<o>.+)$",
    ),
    (Intent.CAN, rf"^(?:can|could)\s+{_A}(?P<s>.+?)\s+(?P<o>.+)$"),
    (Intent.DOES, rf"^(?:does|do|did)\s+{_A}(?P<s>.+)$"),
    (Intent.WH, rf"^(?:what|who)\s+(?:is|are)\s+(?P<v>located|found|situated)\s+(?:in|at|on)\s+{_A}(?P<o>.+)$"),
    (Intent.DEFINE, rf"^(?:what|who)\s+(?:is|are)\s+{_A}(?P<s>.+)$"),
    (Intent.DEFINE, rf"^(?:define|describe|tell\s+me\s+about|explain)\s+{_A}(?P<s>.+)$"),
    (Intent.WH, r"^which\s+(?P<s>.+?)\s+(?P<v>\S+)$"),
    (
        Intent.WH,  # "What does a helmet protect against?": the preposition goes with the verb
        rf"^(?:who|what)\s+(?:does|do|did)\s+{_A}(?P<o>.+?)\s+(?P<v>\S+)\s+(?P<p>against|in|to|from|with|on|of|for)$",
    ),
    (Intent.WH, rf"^(?:who|what)\s+(?:does|do|did)\s+{_A}(?P<o>.+?)\s+(?P<v>\S+)$"),  # What does a neuron transmit?
    (Intent.WH, rf"^(?:who|what)\s+(?P<v>\S+)\s+{_A}(?P<o>.+)$"),
    (
        Intent.WHY,  # "How does oxygen exposure lead to browning?": the causal chain between the two
        rf"^(?:how|in\s+what\s+way)\s+(?:does|do|did|can|could)\s+{_A}(?P<s>.+?)\s+"
        rf"(?:lead\s+to|cause|result\s+in|trigger|produce|bring\s+about)\s+{_A}(?P<o>.+)$",
    ),
    (Intent.WHY, r"^why\s+(?P<s>.+)$"),
)
_COMPILED = tuple((intent, LazyPattern(p, re.IGNORECASE)) for intent, p in _PATTERNS)
_TRAILING = re.compile(r"[\s?!.,;:]+$")


# Negatively phrased yes/no questions ("Isn't X a Y?", "Is X not a Y?", «Разве X не Y?», «Не является ли X
# Y?») ask about the positive statement, and the answer states that statement in full ("Yes, X is a Y." / "No,
# X is not a Y."), as English answers do. Each rewrite gives the positive form; it is kept only when that form
# is a yes/no question, so "Which cells do not divide?" or «Почему нейрон не делится?» keep their negation.
# "Can X not Y?" is left alone: it asks whether X may fail to Y, not whether X can Y.
_WH_RU = r"(?:кто|что|чем|чего|как\S*|како\S*|каки\S*|почему|зачем|отчего|где|куда|когда|сколько|чей|чья|чьи)"
_NEGATED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"^(is|are|was|were|does|do|did|has|have|could)n[’']t\s+(.+)$", r"\1 \2"),
        (r"^can(?:[’']t|not)\s+(.+)$", r"can \1"),
        (r"^(is|are|does|do|has|have)\s+not\s+(.+)$", r"\1 \2"),
        (r"^(is|are|does|do|has|have)\s+(.+?)\s+not\s+(.+)$", r"\1 \2 \3"),
        (r"^не\s+(\S+\s+ли\s+.+)$", r"\1"),
        (
            r"^(?:разве|неужели)\s+(?:не\s+)?(.+?)\s+не\s+(является|являются|может|могут|имеет|имеют|содержит|содержат"
            r"|вызывает|вызывают|предотвращает|предотвращают|обеспечивает|обеспечивают|приводит|приводят|ведёт|ведет"
            r"|ведут|входит|входят)\s+(.+)$",
            r"\2 ли \1 \3",
        ),
        (r"^(?:разве|неужели)\s+(?:не\s+)?(.+?)\s+(?:—\s+|-\s+)?не\s+(.+)$", r"\1 — \2"),
        (rf"^(?!{_WH_RU}\s)(.+?)\s+(?:—|-)\s+не\s+(.+?)(?:\s+ли)?$", r"\1 — \2"),
    )
)


_IS_IT_TRUE = re.compile(
    r"^(?:is\s+it\s+(?:true|the\s+case|correct)|(?:верно|правда|правильно|действительно)\s+ли),?\s+(?:that|что)\s+"
    r"(?P<s>.+)$",
    re.IGNORECASE,
)
_CLAIM_INTENTS = {"is_a": Intent.IS_A, "can": Intent.CAN, "has_property": Intent.HAS, "part_of": Intent.PART_OF}
# "Are all neurons cells?" / «Все ли нейроны — клетки?» ask what "Are neurons cells?" asks.
_QUANTIFIER = re.compile(
    r"^((?:is|are|do|does|can)\s+|(?:является|являются|могут|может)\s+ли\s+)?"
    r"(?:all|every|each|any|все|всякий|всякая|каждый|каждая|любой|любая)\s+(?:ли\s+)?",
    re.IGNORECASE,
)

# "Which cells do not divide?" / «Какие клетки не делятся?»: the negation ends the class slot; the question asks
# for the members the statement is refuted for, so it must not be read as "Which cells divide?".
_WH_NEGATION = re.compile(
    r"^(?P<s>.+?)\s+(?:(?:do|does|did|can|could)\s+not|(?:do|does|did|could)n[’']t|can[’']t|cannot"
    r"|не(?:\s+(?:могут|может|способн[аоы]?))?)$",
    re.IGNORECASE,
)


# "What's a smoker?", "Where're they from?": a wh-word or pronoun contracted with a copula or auxiliary is the two
# words; after a noun "'s" is a possessive ("a neuron's potential") and stays. Negations ("isn't") have their own
# patterns (_NEGATED).
_CONTRACTIONS = {"s": "is", "re": "are", "ve": "have", "ll": "will"}
_CONTRACTED = re.compile(
    r"\b(?P<w>what|who|where|when|why|how|which|that|there|it|here|they|we|you)['’](?P<c>s|re|ve|ll)\b",
    re.IGNORECASE,
)

# "Whats a barge?", "wheres", "hows": the contraction typed without its apostrophe.
_APOSTROPHE_DROPPED = re.compile(r"\b(?P<w>what|where|how|who)s\b", re.IGNORECASE)


def parse_question(text: str) -> Question:
    """Find the intent and slots of a question (UNKNOWN with the whole text as subject when nothing matches).

    A negatively phrased yes/no question parses as its positive form with `polarity` False; a wh-question about
    the members of a class that do not do something has `polarity` False and the negation out of its slots.
    """
    text = _CONTRACTED.sub(lambda m: f"{m['w']} {_CONTRACTIONS[m['c'].lower()]}", text)
    text = unwrap_polite(_APOSTROPHE_DROPPED.sub(r"\g<w> is", text))
    q = _parse_form(text)
    if q.intent in (Intent.UNKNOWN, Intent.DEFINE):
        asked = _unwrapped(text)
        if asked is not None:  # "Tell me what a barge is." asks "What is a barge?"
            return _parse_form(asked)
    return q


def _parse_form(text: str) -> Question:
    lang = detect_language(text)
    clean = _QUANTIFIER.sub(r"\1", _TRAILING.sub("", " ".join(text.split())))
    stated = _stated(text, lang, clean)
    if stated is not None:
        return stated
    true_that = _IS_IT_TRUE.match(clean)
    if true_that is not None:  # "Is it true that the anchor weighs 850 kg?" asks "Does the anchor weigh 850 kg?"
        return _parse_form(as_yes_no(true_that["s"], lang == "ru"))
    for pattern, positive in _NEGATED:
        if pattern.match(clean):
            q = _parse(text, lang, pattern.sub(positive, clean, count=1))
            if q.intent in YES_NO or q.intent in (Intent.ANALOGY, Intent.VALUE_CHECK):
                return replace(q, polarity=False)
    q = _parse(text, lang, clean)
    if lang == "ru" and q.intent is Intent.UNKNOWN:
        q = _ru_without_li(text, clean) or q
    negated = _WH_NEGATION.match(q.subject) if q.intent is Intent.WH else None
    if negated:
        return replace(q, subject=negated.group("s"), polarity=False)
    return q


# A request that wraps a question ("Tell me what a barge is", «Объясни, что такое шлюз», "Name the ports on the
# Volga", «Перечисли порты на Волге»): the question inside is what is asked.
_TELL = re.compile(
    r"^(?:please,?\s+)?(?:tell\s+me|explain(?:\s+to\s+me)?|describe|say)\s*,?\s+"
    r"(?P<wh>what|who|why|how|where|when|which)\s+(?P<rest>.+?)[.!?]*$",
    re.IGNORECASE,
)
_NAME = re.compile(r"^(?:please,?\s+)?(?:name|list)\s+(?:all\s+)?(?:the\s+)?(?P<rest>.+?)[.!?]*$", re.IGNORECASE)
_RU_TELL = re.compile(
    r"^(?:пожалуйста,?\s+)?(?:объясни|расскажи|скажи|поясни|подскажи)(?:те)?\s*,?\s+"
    r"(?P<rest>(?:что|кто|почему|как|где|когда|как[а-яё]+|зачем|сколько)\s.+?)[.!?]*$",
    re.IGNORECASE,
)
_RU_NAME = re.compile(r"^(?:пожалуйста,?\s+)?(?:назови|перечисли)(?:те)?\s*,?\s+(?P<rest>.+?)[.!?]*$", re.IGNORECASE)


def _unwrapped(text: str) -> str | None:
    """The question a request wraps, worded as a question; None when `text` is no such request."""
    clean = " ".join(text.split())
    m = _TELL.match(clean)
    if m is not None:
        rest = m["rest"]
        copula = re.match(r"^(?P<x>.+?)\s+(?P<v>is|are|was|were)$", rest, re.IGNORECASE)
        if copula is not None:  # an embedded question keeps statement order: "what a barge is"
            return f"{m['wh'].capitalize()} {copula['v']} {copula['x']}?"
        return f"{m['wh'].capitalize()} {rest}?"
    m = _NAME.match(clean)
    if m is not None:
        rest = m["rest"].split()
        if len(rest) > 1 and rest[1].lower().endswith("ed"):  # "the ports located on …": which ports are located
            rest.insert(1, "are")
        return f"Which {' '.join(rest)}?"
    m = _RU_TELL.match(clean)
    if m is not None:
        return f"{m['rest'][:1].upper()}{m['rest'][1:]}?"
    m = _RU_NAME.match(clean)
    if m is not None:
        return f"Какие {m['rest']}?"
    return None


_RU_COPULA = re.compile(r"^(?P<s>.+?)\s+(?P<v>явля(?:ет|ют)ся|вход(?:ит|ят))\s+(?P<o>.+)$", re.IGNORECASE)


def _ru_without_li(text: str, clean: str) -> Question | None:
    """«Сидр является вином?»: a Russian yes/no question needs no «ли»; read as «Является ли сидр вином?»."""
    m = _RU_COPULA.match(clean)
    if m is None or not text.rstrip().endswith("?"):
        return None
    q = _parse(text, "ru", f"{m['v']} ли {m['s']} {m['o']}")
    return q if q.intent in YES_NO else None


def _stated(text: str, lang: str, clean: str) -> Question | None:
    """ "Is it true that neurons can divide?": the statement is read as `verify` reads a claim sentence."""
    m = _IS_IT_TRUE.match(clean)
    triple = parse_claim_sentence(m.group("s"), lang) if m else None
    if triple is None:
        return None
    if triple.predicate in _CLAIM_INTENTS:
        intent, verb = _CLAIM_INTENTS[triple.predicate], ""
    elif triple.predicate == ATTRIBUTE_PHRASE:
        intent, verb = Intent.VALUE_CHECK, ""
    elif triple.predicate in {p for _, p in CAUSAL_VERBS}:
        intent, verb = Intent.CAUSAL, triple.predicate
    else:
        return None
    return Question(text, lang, intent, triple.subject, triple.object, verb, polarity=triple.polarity)


def _parse(text: str, lang: str, clean: str) -> Question:
    for intent, pattern in _COMPILED:
        m = pattern.match(clean)
        if m:
            g = {k: (v or "").strip() for k, v in m.groupdict().items()}
            verb = f"{g.get('v', '')} {g['p'].lower()}" if g.get("p") else g.get("v", "")  # «защищает от»
            variables = ("?x",) if intent in (Intent.WH, Intent.VALUE, Intent.COUNT) else ()
            return Question(text, lang, intent, g.get("s", ""), g.get("o", ""), verb, variables=variables)
    return Question(text, lang, Intent.UNKNOWN, clean)
