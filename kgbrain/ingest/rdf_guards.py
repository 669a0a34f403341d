"""Checks an RDF document passes before rdflib parses it: no entity bombs, no network, no deep nesting.

rdflib would expand a "billion laughs" DOCTYPE for minutes, fetch a JSON-LD `@context` by URL (or read any
file the IRI names), and recurse on deeply nested JSON until the interpreter gives up. kgbrain never uses the
network, and reads references only from an allow-list: a context bundled with kgbrain (`BUNDLED_CONTEXTS`, by
IRI), or a file inside the folder of the document being loaded (symlinks followed, then checked). Anything else
(`/etc/passwd`, `file:///...`, `../x`, a symlink pointing out) is a clear error before rdflib sees the file, and
the error never says whether the named file exists. An upload over HTTP/MCP lies alone in its request folder,
so it can name no server file at all.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgbrain.errors import OntologyError
from kgbrain.resources import resource_dir

# An internal DTD subset larger than this, or an entity expanding past it, is refused.
MAX_ENTITY_CHARS = 1_000_000
MAX_JSON_DEPTH = 200
PROLOG_BYTES = 4 * 2**20
_ENTITY = re.compile(rb"<!ENTITY\s+(%\s+)?([^\s\"'>]+)\s+(SYSTEM|PUBLIC)?\s*(\"[^\"]*\"|'[^']*')", re.S)
# Contexts kgbrain ships (ontology/contexts/), by the IRI a document names them with.
BUNDLED_CONTEXTS = {"https://kgbrain.dev/context.jsonld": "kgbrain.jsonld"}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
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
    root = path.parent.resolve()
    resolved = _inline(doc, _Where(root, root, name), seen=())
    return json.dumps(resolved, ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class _Where:
    root: Path  # the document's folder: no reference leaves it
    folder: Path  # where a relative reference starts (a context file's own folder)
    name: str  # the document's name, for messages


def _inline(node: Any, where: _Where, *, seen: tuple[Path, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(x, where, seen=seen) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "@context":
            out[key] = _context(value, where, seen)
        elif key == "@import" and isinstance(value, str):
            imported = _local_context(value, where, seen)
            out.update({k: v for k, v in imported.items() if k not in node})
        else:
            out[key] = _inline(value, where, seen=seen)
    return out


def _context(value: Any, where: _Where, seen: tuple[Path, ...]) -> Any:
    if isinstance(value, str):
        return _local_context(value, where, seen)
    if isinstance(value, list):
        return [_context(v, where, seen) for v in value]
    if isinstance(value, dict):
        return _inline(value, where, seen=seen)
    return value


def _local_context(ref: str, where: _Where, seen: tuple[Path, ...]) -> dict[str, Any]:
    """A context named by `ref`: a bundled context, or a file inside the document's folder; never a download."""
    shown = ref[:80]
    local = _allowed(ref, where)
    if local in seen or len(seen) > 8:
        raise OntologyError(f"{where.name}: the JSON-LD context {shown!r} includes itself")
    try:
        loaded = json.loads(local.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise OntologyError(f"{where.name}: cannot read the JSON-LD context {shown!r}: {str(exc)[:80]}") from None
    context = loaded.get("@context", loaded) if isinstance(loaded, dict) else loaded
    onward = _Where(where.root, local.parent, where.name)
    resolved = _context(context, onward, (*seen, local))
    return resolved if isinstance(resolved, dict) else _merge(resolved)


def _allowed(ref: str, where: _Where) -> Path:
    """The file `ref` may be read from. Refused: OntologyError, which never tells whether the file exists."""
    bundled = BUNDLED_CONTEXTS.get(ref.strip())
    if bundled is not None:
        return resource_dir("ontology") / "contexts" / bundled
    if _SCHEME.match(ref) and not ref.startswith("file:"):
        raise OntologyError(
            f"{where.name}: refers to the remote JSON-LD context {ref[:80]!r}; kgbrain never downloads at run "
            "time: inline the context, or save it as a file beside the document and refer to it by a relative path"
        )
    refused = OntologyError(
        f"{where.name}: the JSON-LD context {ref[:80]!r} is not a file in the input's folder; kgbrain reads "
        f"contexts only from there or from its bundled contexts ({', '.join(sorted(BUNDLED_CONTEXTS))})"
    )
    named = ref.removeprefix("file://") if ref.startswith("file://") else ref.removeprefix("file:")
    if not named or "\x00" in named:
        raise refused
    try:
        local = (where.folder / named).resolve(strict=True)  # symlinks followed: where it really is counts
    except (OSError, RuntimeError, ValueError):
        raise refused from None
    if not local.is_relative_to(where.root) or not local.is_file():
        raise refused
    return local


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
