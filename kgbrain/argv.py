"""Command-line arguments and environment variables that are not text: found before anything reads them.

Python hands an argument or an environment value with bytes that are not UTF-8 over as lone surrogates
(`\\xff` -> `\\udcff`); no knowledge base, file name in a report or store call can take those, and each place that met
one failed its own way (`--db` said the database did not exist, `ask` answered about `x\\ufffd`, the demo's cache
path under a non-UTF-8 `$HOME` ended in the engine's traceback). So every argument (global options included) and
every variable kgbrain reads is checked once, before the command is parsed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PREFIX = "KGBRAIN_"  # every variable of kgbrain's own: KGBRAIN_DB, KGBRAIN_CONFIG, the tokens, the limits
READ_VARIABLES = ("USER", "HOME", "XDG_CACHE_HOME")  # others it reads: --by's default, the demo's cache folder
_WHY = "is not valid text: it holds bytes that are not UTF-8 (or a lone surrogate); give it in UTF-8"


def not_text(args: Iterable[str], environ: Mapping[str, str]) -> str | None:
    """The message for the first argument, then the first variable kgbrain reads, that is not UTF-8 text; or None."""
    for arg in args:
        if not _is_text(arg):
            return f"the argument {_shown(arg)} {_WHY}"
    for name in sorted(environ):
        if (name.startswith(PREFIX) or name in READ_VARIABLES) and not _is_text(environ[name]):
            return f"environment variable {name}={_shown(environ[name])} {_WHY}"
    return None


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(text: str) -> str:
    """`text` quoted as the bytes it was given in (`'/tmp/x\\xff'`; a lone surrogate as `\\ud800`), at most 80
    characters of it."""
    head = text[:80]
    if all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in head):  # surrogateescape's bytes
        shown = head.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    else:
        shown = head.encode("utf-8", "backslashreplace").decode("utf-8")
    return f"'{shown}'"
