"""The blind sets' grader (tests/qa/blind_d1, blind_d2): right / wrong / confident-wrong for one answer.

A copy of the grading half of the `score.py` the blind writers shipped with each set (the same rules: the answer's
stance from its text first, then from `outcome` and `data.kind`; content checks on the normalised text), so the
regression test grades exactly as the sets were scored. Only the asking (CLI / HTTP) is left out.
"""

from __future__ import annotations

import re
from typing import Any

WORDNUM = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "ноль": 0, "один": 1, "одна": 1, "одно": 1, "два": 2, "две": 2,
    "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
    "одиннадцать": 11, "двенадцать": 12,
}  # fmt: skip
HEDGE = (
    r"(?:(?:probably|likely|most likely|perhaps|possibly|apparently|вероятно|скорее всего|возможно|похоже|"
    r"по-видимому|видимо)[,:]?\s+)?"
)
YES_RE = re.compile(r"^\W*" + HEDGE + r"(?:yes|да)\b")
NO_RE = re.compile(r"^\W*" + HEDGE + r"(?:no|нет|not really|not quite|не совсем|скорее нет|вряд ли)\b")
UNKNOWN_RE = re.compile(
    r"(i don'?t know|i do not know|не знаю|не известно|неизвестно|no information|нет сведений|нет данных|"
    r"not enough (?:information|evidence)|недостаточно (?:данных|сведений|информации)|^i know .{0,80} but not|"
    r"^я знаю .{0,80} но не|cannot tell|can'?t tell|не могу (?:сказать|ответить))"
)
UNKNOWN_START_RE = re.compile(r"^\W*(i don'?t know|i do not know|не знаю|i know .{0,80} but not|я знаю .{0,80} но не)")
CLARIFY_RE = re.compile(r"(did you mean|which (?:one|of)|do you mean|вы имели в виду|уточните|какой из|какое из)")
CONFLICT_RE = re.compile(
    r"(conflict|contradict|disputed|dispute|sources disagree|disagree|contested|inconsistent|противореч|конфликт|"
    r"расход|спорн|оспарива|разноглас|не сходятся|не согласу)"
)
UNKNOWN_KINDS = {
    "unknown_concept", "no_norm", "unknown", "not_understood", "unknown_intent", "no_answer", "not_enough_info",
    "undecided",
}  # fmt: skip
NUM_RE = re.compile(r"(?<![\w.])-?\d{1,3}(?: \d{3})+(?:[.,]\d+)?(?!\d)|(?<![\w.])-?\d+(?:[.,]\d+)?(?!\d)")
_MULTIPLIER = re.compile(r"\s*(млрд|миллиард\w*|billion|млн|миллион\w*|million|тыс\.?|тысяч\w*|thousand)")


def norm(s: str | None) -> str:
    s = (s or "").lower().replace("ё", "е").replace("\u00a0", " ").replace("\u202f", " ").replace("\u2009", " ")
    s = s.replace("−", "-").replace("–", "-")
    return re.sub(r"[ \t]+", " ", s)


def numbers(text: str) -> list[tuple[float, str]]:
    """(value, rest of text after the number) for every number in the normalised text, words included."""
    out = []
    for m in NUM_RE.finditer(text):
        v = float(m.group(0).replace(" ", "").replace(",", "."))
        rest = text[m.end() :]
        mult = _MULTIPLIER.match(rest)
        if mult:
            w = mult.group(1)
            v *= (
                1e9
                if w.startswith(("млрд", "миллиард", "billion"))
                else 1e6
                if w.startswith(("млн", "миллион", "million"))
                else 1e3
            )
            rest = rest[mult.end() :]
        out.append((v, rest))
    for m in re.finditer(r"\b(\w+)\b", text):
        if m.group(1) in WORDNUM:
            out.append((float(WORDNUM[m.group(1)]), text[m.end() :]))
    return out


def num_ok(alt: dict[str, Any], nums: list[tuple[float, str]]) -> bool:
    v = float(alt["v"])
    units = [norm(u) for u in alt.get("u", [])]
    for got, rest in nums:
        if abs(got - v) <= max(1e-9, abs(v) * 0.01) and (not units or any(rest.lstrip().startswith(u) for u in units)):
            return True
    return False


def content(expect: dict[str, Any], text: str) -> tuple[bool, list[str]]:
    """(passed, reasons): the content checks of `expect` against the normalised answer text."""
    why = []
    if expect.get("any") and not any(norm(a) in text for a in expect["any"]):
        why.append(f"none of {expect['any']}")
    if expect.get("re_any") and not any(re.search(r, text) for r in expect["re_any"]):
        why.append(f"no match for {expect['re_any']}")
    why += [f"no match for {r}" for r in expect.get("re_all", []) if not re.search(r, text)]
    why += [f"none of {g}" for g in expect.get("all", []) if not any(norm(a) in text for a in g)]
    if expect.get("nums"):
        nums = numbers(text)
        why += [f"no number {g}" for g in expect["nums"] if not any(num_ok(alt, nums) for alt in g)]
    return not why, why


def stance(ans: dict[str, Any]) -> str:
    text = norm(ans.get("answer", ""))
    head = text[:160]
    data = ans.get("data") or {}
    outcome = (ans.get("outcome") or "").lower()
    kind = (data.get("kind") or "").lower() if isinstance(data, dict) else ""
    if kind in UNKNOWN_KINDS or UNKNOWN_START_RE.search(head):
        return "unknown"
    if YES_RE.search(head):
        return "yes"
    if NO_RE.search(head):
        return "no"
    if UNKNOWN_RE.search(head) or outcome in ("not_enough_info", "unknown"):
        return "unknown"
    if ans.get("action") == "ask_clarification" or CLARIFY_RE.search(head) or kind == "clarification":
        return "clarify"
    if outcome == "conflicting" or CONFLICT_RE.search(text):
        return "conflict"
    return {"supported": "yes", "refuted": "no"}.get(outcome, "answer")


def grade(q: dict[str, Any], ans: dict[str, Any]) -> tuple[str, str]:
    """(grade, reason) of the answer `ans` (the `ask --json` body) to the question row `q`."""
    e = q["expect"]
    text = norm(ans.get("answer", ""))
    st = stance(ans)
    conf = ans.get("confidence") or 0.0
    outcome = (ans.get("outcome") or "").lower()
    ok, why = content(e, text)
    bad = [s for s in e.get("none", []) if norm(s) in text]
    v = e.get("verdict")
    if v in ("yes", "no"):
        if st == v:
            if bad:
                return "confident-wrong", f"forbidden {bad}"
            return ("right", "") if ok else ("wrong", "; ".join(why))
        return ("confident-wrong" if st in ("yes", "no") else "wrong"), f"stance {st}, expected {v}"
    if v == "unknown":
        if st == "unknown":
            return "right", ""
        if st in ("yes", "no") or (st in ("answer", "conflict") and conf >= 0.5):
            return "confident-wrong", f"stance {st} (confidence {conf}) where the knowledge is absent"
        return "wrong", f"stance {st}, expected I don't know"
    if v == "conflict":
        if outcome == "conflicting" or st == "conflict":
            return "right", ""
        if st in ("yes", "no") and CONFLICT_RE.search(text):
            return "wrong", f"said {st} but mentions the conflict"
        if st in ("yes", "no", "answer"):
            return "confident-wrong", f"stance {st}: a definite answer to a disputed value"
        return "wrong", f"stance {st}, expected conflict"
    if bad:
        return "confident-wrong", f"forbidden {bad}"
    if st in ("unknown", "clarify"):
        return "wrong", f"stance {st}"
    if ok:
        return "right", ""
    return ("confident-wrong" if conf >= 0.5 else "wrong"), "; ".join(why)
