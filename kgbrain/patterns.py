"""Regular expressions a user writes (SPARQL REGEX) run on the `regex` engine within a time budget.

Stdlib `re` cannot be stopped: it holds the GIL while it backtracks, so `FILTER regex(?v, "^(a+)+$")` over one
long value froze a whole server, its time limits and /healthz included. The `regex` engine takes a timeout and
lets other threads run while it matches (`concurrent=True`; without it, it held the GIL too: a thread beside
it waited 7.3 s). Its timeout counts CPU time, not wall time (a 2 s timeout took 21.5 s on a loaded machine), so a
pattern that needs more than a first short try runs in a thread of its own and is waited for by the clock
(`wall_search`). One budget covers every pattern a piece of work runs (a query: the REGEX
of every row), and no pattern runs past the deadline of the request it serves (`request_deadline`, set by the
service around each read); past it the work ends as the request's timeout.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from kgbrain.errors import InputError, ReadTimeout

# How far a pattern may expand once its counted repetitions are written out: the `regex` engine expands `a{n}`
# when it compiles, so `a{4294967294}` took every byte of memory until the kernel killed the server, and
# `(?:a{1000}){1000}` took 274 MB; stdlib `re` syntax has no other way to make a short pattern large.
MAX_EXPANSION = 10_000
_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")

# Every REGEX of one query together, where no request deadline is nearer (the CLI, the library); a sane pattern
# takes microseconds a value, so this only ever stops a pattern that backtracks without end.
PATTERN_BUDGET_S = 10.0


@dataclass(slots=True)
class _Budget:
    seconds: float
    spent: float = 0.0


_REQUEST_DEADLINE: ContextVar[float | None] = ContextVar("kgbrain_request_deadline", default=None)
_BUDGET: ContextVar[_Budget | None] = ContextVar("kgbrain_pattern_budget", default=None)


@contextlib.contextmanager
def request_deadline(at: float) -> Iterator[None]:
    """Patterns run inside this block stop at `at` (time.monotonic seconds), the end of the request served."""
    token = _REQUEST_DEADLINE.set(at)
    try:
        yield
    finally:
        _REQUEST_DEADLINE.reset(token)


@contextlib.contextmanager
def pattern_budget(seconds: float | None = None) -> Iterator[None]:
    """Every pattern run inside this block shares one budget of `seconds` (default PATTERN_BUDGET_S)."""
    token = _BUDGET.set(_Budget(PATTERN_BUDGET_S if seconds is None else seconds))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def search(pattern: str, text: str, *, ignore_case: bool = False, what: str = "regex") -> bool:
    """Whether `pattern` (stdlib `re` syntax) matches somewhere in `text`, within the current budget.

    Raises:
        InputError: the pattern is not a regular expression, or it used up the budget (it backtracks without end).
        ReadTimeout: it ran into the deadline of the request being served.
    """
    compiled = _compile(pattern, ignore_case, what)
    budget = _BUDGET.get() or _Budget(PATTERN_BUDGET_S)
    deadline = _REQUEST_DEADLINE.get()
    started = time.monotonic()
    left = budget.seconds - budget.spent
    request_binds = deadline is not None and deadline - started <= left
    if deadline is not None:
        left = min(left, deadline - started)
    if left <= 0:
        raise _expired(pattern, what, budget, None, request_binds)
    try:
        return wall_search(compiled, text, left)
    except TimeoutError:
        raise _expired(pattern, what, budget, len(text), request_binds) from None
    finally:
        budget.spent += time.monotonic() - started


# What a pattern may take inline (CPU seconds) before it is run in a thread of its own and waited for by the clock:
# a sane pattern takes microseconds a value.
FIRST_TRY_S = 0.05


def wall_search(compiled: Any, text: str, seconds: float) -> bool:
    """Whether the compiled `regex` pattern matches somewhere in `text`, stopped after `seconds` of wall-clock time.

    The engine's own timeout counts CPU time, which a loaded machine hands out slowly: past a first short try
    (FIRST_TRY_S) the match runs in a daemon thread that gives up the GIL, with that timeout as its own end (so it
    stops by itself, at most `seconds` of CPU later), while this thread waits at most `seconds` by the clock.

    Raises:
        TimeoutError: no answer within `seconds`.
    """
    started = time.monotonic()
    try:
        return compiled.search(text, timeout=min(seconds, FIRST_TRY_S), concurrent=True) is not None
    except TimeoutError:
        if seconds <= FIRST_TRY_S:
            raise
    found: list[bool] = []
    done = threading.Event()

    def run() -> None:
        try:
            found.append(compiled.search(text, timeout=seconds, concurrent=True) is not None)
        except TimeoutError:
            pass
        finally:
            done.set()

    threading.Thread(target=run, name="kgbrain-pattern", daemon=True).start()
    if not done.wait(max(0.0, seconds - (time.monotonic() - started))) or not found:
        raise TimeoutError(f"pattern ran past {seconds:g} s")
    return found[0]


def expansion(pattern: str) -> int:
    """How many atoms `pattern` holds with its counted repetitions (`{m}`, `{m,n}`, `{m,}`) written out (nested ones
    multiply); escapes and character classes count as one atom each. Stops counting past MAX_EXPANSION."""
    levels: list[list[int]] = [[]]  # per open group: the sizes of its elements so far
    pos, end = 0, len(pattern)
    while pos < end:
        ch = pattern[pos]
        if ch == "(":
            levels.append([])
            pos += 1
            continue
        if ch == ")" and len(levels) > 1:
            size, pos = sum(levels.pop()) or 1, pos + 1
        elif ch == "\\":
            size, pos = 1, pos + 2
        elif ch == "[":
            size, pos = 1, _class_end(pattern, pos + 1)
        else:
            size, pos = 1, pos + 1
        count = _COUNT.match(pattern, pos)
        if count is not None and (count.group(1) or count.group(2)):
            size *= max(int(count.group(1) or 0), int(count.group(2) or 0))
            pos = count.end()
        levels[-1].append(min(size, MAX_EXPANSION + 1))
        if sum(levels[-1]) > MAX_EXPANSION:
            return MAX_EXPANSION + 1
    return sum(sum(level) for level in levels)


def _class_end(pattern: str, pos: int) -> int:
    """Just past the `]` closing a character class whose content starts at `pos`."""
    if pattern.startswith("^", pos):
        pos += 1
    if pattern.startswith("]", pos):
        pos += 1
    while pos < len(pattern) and pattern[pos] != "]":
        pos += 2 if pattern[pos] == "\\" else 1
    return pos + 1


def check_size(pattern: str, what: str) -> None:
    """Raises InputError when `pattern` would expand past MAX_EXPANSION atoms once compiled."""
    if expansion(pattern) > MAX_EXPANSION:
        raise InputError(
            f"{what} {pattern[:100]!r} repeats too much: written out it holds more than {MAX_EXPANSION:,} characters "
            "(counted repetitions such as a{n} multiply); use smaller counts, or + and *"
        )


def _compile(pattern: str, ignore_case: bool, what: str) -> Any:
    import regex

    check_size(pattern, what)
    flags = regex.VERSION0 | (regex.IGNORECASE if ignore_case else 0)  # VERSION0: the syntax of stdlib `re`
    try:
        return regex.compile(pattern, flags=flags)
    except regex.error as exc:
        raise InputError(f"{what} {pattern[:200]!r}: {exc}") from None


def _expired(
    pattern: str, what: str, budget: _Budget, length: int | None, request_binds: bool
) -> InputError | ReadTimeout:
    """The error for a pattern stopped on a value of `length` characters (None: the budget was spent before it)."""
    why = "over all the values it was run on" if length is None else f"on a value of {length:,} characters"
    fix = "rewrite it without nested repetition such as (a+)+, or match fewer values"
    if request_binds:
        return ReadTimeout(f"{what} {pattern[:100]!r} ran into the request's time limit {why} and was stopped; {fix}")
    return InputError(f"{what} {pattern[:100]!r} ran past {budget.seconds:g} s {why}; {fix}")
