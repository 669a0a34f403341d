"""Opaque cursors for paged lists: an offset bound to the list it came from.

A cursor is base64 of `offset:hash(key)`; handing the cursor of one list (say, the facts of `neuron`) to
another is refused instead of silently returning the wrong slice.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from kgbrain.errors import InputError
from kgbrain.models import MAX_PAGE as MAX_LIMIT  # the requests' `limit` field says the same
from kgbrain.models import MAX_PAGE_BYTES

T = TypeVar("T")


def page(
    items: Sequence[T], cursor: str | None, limit: int, *, key: tuple[str, ...], max_bytes: int = MAX_PAGE_BYTES
) -> tuple[list[T], str | None]:
    """The items from `cursor` on (at most `limit`, and no more than fit in about `max_bytes` of JSON, but always
    one), and the cursor of the next page (None: none left). Every page but the last moves the cursor on.

    Raises:
        InputError: a bad limit, or a cursor that is malformed or belongs to another list.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"field 'limit': {limit!r} is outside 1..{MAX_LIMIT}")
    start = decode(cursor, key) if cursor else 0
    out: list[T] = []
    size = 0
    for item in items[start : start + limit]:
        size += _size(item)
        if out and size > max_bytes:
            break
        out.append(item)
    end = start + len(out)
    return out, encode(end, key) if end < len(items) else None


def _size(item: Any) -> int:
    data = item.model_dump() if isinstance(item, BaseModel) else item
    return len(json.dumps(data, ensure_ascii=False, default=str).encode()) + 1


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
