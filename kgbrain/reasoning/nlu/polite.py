"""Polite wrappers around a question: "Could you tell me when X was founded?", "I'd like to know the weight of X",
«Подскажите, пожалуйста, когда основан X?», «Не подскажете ли, …», "…, please".

A wrapper asks nothing itself: `unwrap` gives the question inside, worded as a question. An English embedded
question keeps statement order ("when the museum was founded"), so its auxiliary goes back before the subject
("When was the museum founded?"); "if/whether S" asks whether S is true ("Is it true that S?"); a bare noun
phrase asks its value or definition ("What is the weight of X?"). Russian keeps the order of a direct question,
so the wrapper is only dropped; a bare noun phrase gets «Каково …».
"""

from __future__ import annotations

import re

_EN_WRAPPERS = re.compile(
    r"^(?:please|kindly|excuse\s+me|hi|hello)\b[,!]?\s*"
    r"|^(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?|please\s+)?"
    r"(?:(?:show|explain)(?=(?:\s+(?:to\s+)?(?:me|us))?[,:]?\s+(?:what|who|when|where|which|why|how|if|whether)\b)|tell|say)(?!\s+(?:(?:to\s+)?(?:me|us)\s+)?about\b)(?:\s+(?:to\s+)?(?:me|us))?\b[,:]?\s*(?=\S)"
    r"|^(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?)?let\s+(?:me|us)\s+know\b[,:]?\s*"
    r"|^(?:i|we)(?:['’]d|\s+would)\s+(?:like|love)\s+to\s+(?:know|find\s+out|ask)\b[,:]?\s*"
    r"|^(?:i|we)\s+(?:want|wish|need)\s+to\s+(?:know|find\s+out|ask)\b[,:]?\s*"
    r"|^(?:i\s+wonder(?:ed)?|i\s+was\s+wondering|(?:do|does)\s+(?:you|anyone)\s+know)\b[,:]?\s*"
    r"|^(?:could|can|would)\s+you\s+(?:please\s+)?(?=(?:list|name|describe|define|compare)\b)",
    re.IGNORECASE,
)
_EN_TRAILING = re.compile(r"[,\s]+(?:please|thanks|thank\s+you)\s*(?=[.?!]*$)", re.IGNORECASE)
_RU_LEAD = (
    r"(?:не\s+)?(?:подскаж|скаж|расскаж|объясн|уточн)[а-яё]*(?:\s+ли)?"
    r"|(?:не\s+)?(?:могли|можете|могла|мог)\s+(?:бы\s+)?(?:ли\s+)?(?:вы\s+|ты\s+)?(?:мне\s+)?"
    r"(?:подсказать|сказать|рассказать|объяснить|уточнить)"
    r"|(?:я\s+)?(?:хочу|хотел[аи]?\s+бы|хотелось\s+бы|хочется)\s+(?:узнать|спросить|уточнить)"
    r"|(?:вы\s+|ты\s+)?(?:не\s+)?знаете(?:\s+ли)?|(?:ты\s+)?(?:не\s+)?знаешь(?:\s+ли)?|интересно"
)
_RU_TRAILING = re.compile(r"[,\s]+пожалуйста\s*(?=[.?!]*$)", re.IGNORECASE)

_WH = ("what", "who", "whom", "whose", "which", "when", "where", "why", "how")
_AUX = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "can",
        "could",
        "does",
        "do",
        "did",
        "has",
        "have",
        "will",
        "would",
        "should",
        "must",
        "may",
    ]
)
_DETERMINERS = frozenset(
    ["the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "its", "his", "her", "their"]
)
# A wh-word followed by a noun or an adverb that belongs to it: "what year", "how much", "which museums".
_WH_WITH_WORD = frozenset({"what", "which", "whose", "how"})


def _ru_question_words() -> str:
    words = "что кто когда где куда откуда зачем почему сколько скольки чем чего чему как\\S* как[а-яё]+ чей чья чьи"
    words += " можно нужно надо разрешено запрещено есть ли в\\s+каком во\\s+сколько до\\s+скольки с\\s+какого"
    return "|".join(words.split())


_RU_QUESTION_WORDS = _ru_question_words()
_RU_WRAPPERS = re.compile(
    r"^(?:пожалуйста|будьте\s+добры|будь\s+добр|извините|простите|здравствуйте)\b[,!]?\s*"
    rf"|^(?:{_RU_LEAD})(?:\s+(?:мне|нам|пожалуйста))*(?:\s*[,:]\s*|\s+(?=(?:{_RU_QUESTION_WORDS})\b))",
    re.IGNORECASE,
)


def unwrap(text: str) -> str:
    """The question a polite wrapper holds, worded as a question; `text` itself when it has no wrapper."""
    clean = " ".join(text.split())
    russian = bool(re.search(r"[а-яё]", clean, re.IGNORECASE))
    lead, trailing = (_RU_WRAPPERS, _RU_TRAILING) if russian else (_EN_WRAPPERS, _EN_TRAILING)
    inner = trailing.sub("", clean)
    while True:
        stripped = lead.sub("", inner, count=1)
        if stripped == inner or not stripped.strip(" ,.?!"):
            break
        inner = stripped
    if inner == clean:
        return text
    inner = inner.rstrip(" .?!")
    asked = inner if russian else _en_direct(inner)
    if not russian and asked.split()[0].lower() not in (*_WH, *_AUX):
        return text  # "Tell me a joke about cats": a request, not a question
    return f"{asked[:1].upper()}{asked[1:]}?"


def _en_direct(clause: str) -> str:
    """An English embedded question as a direct one ("when the museum was founded" -> "When was the museum
    founded"); "if/whether S" -> "Is it true that S"; a question already direct is kept."""
    tokens = clause.split()
    first = tokens[0].lower()
    if first in ("if", "whether"):
        return "Is it true that " + " ".join(tokens[1:])
    if first not in _WH:
        if first in _AUX:
            return clause  # "Is the museum open"
        if first != "the":
            return clause  # "Tell me a joke" asks for no stored value
        return "What is " + clause  # "the weight of the bronze anchor"
    head = 1
    if first in _WH_WITH_WORD and len(tokens) > 2 and tokens[1].lower() not in _AUX | _DETERMINERS:
        head = 2  # "what year the museum was founded", "how much the anchor weighs"
        if tokens[-1].lower() in _AUX and not any(t.lower() in _AUX for t in tokens[2:-1]):
            head = 1  # "what demurrage is": the word after "what" is the subject, its verb comes last
    rest = tokens[head:]
    at = next((i for i, t in enumerate(rest) if t.lower() in _AUX), None)
    if at is None:
        return _with_do(tokens[:head], rest) or clause
    if at == 0:
        return clause  # "what is the weight", "which museums are open"
    moved = [*tokens[:head], rest[at], *rest[:at], *rest[at + 1 :]]
    return " ".join(moved)


def _with_do(head: list[str], rest: list[str]) -> str | None:
    """ "how long the tour lasts" -> "how long does the tour last": a present verb after the subject takes "does";
    None when no word after the subject reads as one ("who named the bell" is direct already)."""
    for i in range(1, len(rest)):
        word = rest[i]
        if word.lower().endswith("s") and not word.lower().endswith("ss") and len(word) > 3:
            verb = word[:-2] if word.lower().endswith(("ches", "shes", "sses", "xes")) else word[:-1]
            return " ".join([*head, "does", *rest[:i], verb, *rest[i + 1 :]])
    return None


def as_yes_no(statement: str, russian: bool) -> str:
    """A statement asked as a yes/no question: "the museum was founded in 1920" -> "Was the museum founded in
    1920?", "the anchor weighs 850 kg" -> "Does the anchor weigh 850 kg?"; Russian asks with the statement's own
    order («Музей основан в 1920 году?»)."""
    clause = statement.strip().rstrip(" .?!")
    if russian:
        return f"{clause[:1].upper()}{clause[1:]}?"
    tokens = clause.split()
    at = next((i for i, t in enumerate(tokens) if t.lower() in _AUX), None)
    if at is not None and at > 0:
        asked = [tokens[at], *tokens[:at], *tokens[at + 1 :]]
    else:
        asked = (_with_do([], tokens) or clause).split()
    text = " ".join(asked)
    return f"{text[:1].upper()}{text[1:]}?"
