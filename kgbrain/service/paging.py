"""Opaque cursors for paged lists: an offset bound to the list it came from.

A cursor is base64 of `offset:hash(key)`; handing the cursor of one list (say, the facts of `neuron`) to
another is refused instead of silently returning the wrong slice.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from typing import TypeVar

from kgbrain.errors import InputError
from kgbrain.models import MAX_PAGE as MAX_LIMIT  # the requests' `limit` field says the same

T = TypeVar("T")


def page(items: Sequence[T], cursor: str | None, limit: int, *, key: tuple[str, ...]) -> tuple[list[T], str | None]:
    """The items from `cursor` on (at most `limit`), and the cursor of the next page (None: none left).

    Raises:
        InputError: a bad limit, or a cursor that is malformed or belongs to another list.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"field 'limit': {limit!r} is outside 1..{MAX_LIMIT}")
    start = decode(cursor, key) if cursor else 0
    end = start + limit
    return list(items[start:end]), encode(end, key) if end < len(items) else None


def encode(offset: int, key: tuple[str, ...]) -> str:
    """The cursor for `offset` into the list named by `key`."""
    return base64.urlsafe_b64encode(f"{offset}:{_tag(key)}".encode()).decode().rstrip("=")


def decode(cursor: str, key: tuple[str, ...]) -> int:
    """The offset a cursor holds.

    Raises:
        InputError: the cursor is malformed or was made for another list.
    """
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        offset_text, tag = text.split(":", 1)
        offset = int(offset_text)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InputError(f"field 'cursor': {cursor[:40]!r} is not a cursor this server gave out") from None
    if tag != _tag(key) or offset < 0:
        raise InputError(f"field 'cursor': {cursor[:40]!r} belongs to another list") from None
    return offset


def _tag(key: tuple[str, ...]) -> str:
    return hashlib.blake2b("\x1f".join(key).encode(), digest_size=6).hexdigest()
