"""Checks an RDF document passes before rdflib parses it: no entity bombs, no network, no deep nesting.

rdflib would expand a "billion laughs" DOCTYPE for minutes, fetch a JSON-LD `@context` by URL, and recurse
on deeply nested JSON until the interpreter gives up. kgbrain never uses the network, so a JSON-LD
context must be inline or a local file beside the document (it is then inlined here); anything else is a
clear error before rdflib sees the file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kgbrain.errors import OntologyError

# An internal DTD subset larger than this, or an entity expanding past it, is refused.
MAX_ENTITY_CHARS = 1_000_000
MAX_JSON_DEPTH = 200
PROLOG_BYTES = 4 * 2**20
_ENTITY = re.compile(rb"<!ENTITY\s+(%\s+)?([^\s\"'>]+)\s+(SYSTEM|PUBLIC)?\s*(\"[^\"]*\"|'[^']*')", re.S)
_REF = re.compile(rb"[&%]([A-Za-z_][\w.\-]*);")


def check_xml_prolog(head: bytes, name: str) -> None:
    """Refuse external or parameter entities, and entities whose expansion grows past MAX_ENTITY_CHARS.

    `head` is the start of the document (the DOCTYPE, if any, comes before the root element).

    Raises:
        OntologyError: the DOCTYPE declares something kgbrain will not expand.
    """
    start = head.find(b"<!DOCTYPE")
    if start < 0:
        return
    end = head.find(b"]>", start)
    if end < 0:
        if len(head) >= PROLOG_BYTES:
            raise OntologyError(f"{name}: the DOCTYPE is longer than {PROLOG_BYTES // 2**20} MB")
        end = len(head)
    subset = head[start:end]
    values: dict[bytes, bytes] = {}
    for match in _ENTITY.finditer(subset):
        parameter, entity, external, value = match.groups()
        if parameter or external:
            raise OntologyError(
                f"{name}: the DOCTYPE declares the {'external' if external else 'parameter'} entity "
                f"{entity.decode(errors='replace')!r}; kgbrain reads only plain internal entities"
            )
        values[entity] = value[1:-1]
    sizes: dict[bytes, int] = {}

    def size(entity: bytes, trail: tuple[bytes, ...]) -> int:
        if entity in sizes:
            return sizes[entity]
        if entity in trail:
            raise OntologyError(f"{name}: the entity {entity.decode(errors='replace')!r} refers to itself")
        value = values.get(entity, b"")
        total = len(value)
        for ref in _REF.findall(value):
            total += size(ref, (*trail, entity)) if ref in values else 0
            if total > MAX_ENTITY_CHARS:
                break
        if total > MAX_ENTITY_CHARS:
            raise OntologyError(
                f"{name}: the entity {entity.decode(errors='replace')!r} expands to more than "
                f"{MAX_ENTITY_CHARS:,} characters (an entity bomb?); refusing to parse it"
            )
        sizes[entity] = total
        return total

    for entity in values:
        size(entity, ())


def prepare_jsonld(data: bytes, path: Path) -> bytes:
    """The JSON-LD document with every `@context`/`@import` reference resolved from local files, inline.

    Raises:
        OntologyError: broken or too deeply nested JSON, or a context that is not a local file.
    """
    name = path.name
    text = data.decode("utf-8", errors="strict") if isinstance(data, bytes) else data
    if json_depth(text) > MAX_JSON_DEPTH:
        raise OntologyError(f"{name}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OntologyError(f"{name}:{exc.lineno}: bad JSON-LD: {exc.msg}") from None
    except ValueError as exc:  # e.g. a number too long to convert
        raise OntologyError(f"{name}: bad JSON-LD: {exc}") from None
    resolved = _inline(doc, path.parent, name, seen=())
    return json.dumps(resolved, ensure_ascii=False).encode("utf-8")


def _inline(node: Any, folder: Path, name: str, *, seen: tuple[Path, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(x, folder, name, seen=seen) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "@context":
            out[key] = _context(value, folder, name, seen)
        elif key == "@import" and isinstance(value, str):
            imported = _local_context(value, folder, name, seen)
            out.update({k: v for k, v in imported.items() if k not in node})
        else:
            out[key] = _inline(value, folder, name, seen=seen)
    return out


def _context(value: Any, folder: Path, name: str, seen: tuple[Path, ...]) -> Any:
    if isinstance(value, str):
        return _local_context(value, folder, name, seen)
    if isinstance(value, list):
        return [_context(v, folder, name, seen) for v in value]
    if isinstance(value, dict):
        return _inline(value, folder, name, seen=seen)
    return value


def _local_context(ref: str, folder: Path, name: str, seen: tuple[Path, ...]) -> dict[str, Any]:
    """A context named by `ref`: a file beside the document (relative path or file: IRI), never a download."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", ref) and not ref.startswith("file:"):
        raise OntologyError(
            f"{name}: refers to the remote JSON-LD context {ref[:200]!r}; kgbrain never downloads at run time: "
            "inline the context, or save it as a local file and refer to it by a relative path"
        )
    local = (folder / ref.removeprefix("file://").removeprefix("file:")).resolve()
    if local in seen or len(seen) > 8:
        raise OntologyError(f"{name}: the JSON-LD context {ref[:200]!r} includes itself")
    if not local.is_file():
        raise OntologyError(f"{name}: the JSON-LD context {ref[:200]!r} is not a local file beside it")
    try:
        loaded = json.loads(local.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise OntologyError(f"{name}: cannot read the JSON-LD context {ref[:200]!r}: {exc}") from None
    context = loaded.get("@context", loaded) if isinstance(loaded, dict) else loaded
    resolved = _context(context, local.parent, name, (*seen, local))
    return resolved if isinstance(resolved, dict) else _merge(resolved)


def _merge(contexts: Any) -> dict[str, Any]:
    """A list of contexts as one (later entries win), for a file that held a list."""
    out: dict[str, Any] = {}
    for c in contexts if isinstance(contexts, list) else [contexts]:
        if isinstance(c, dict):
            out.update(c)
    return out


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    for token in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        ch = token.group()
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest
