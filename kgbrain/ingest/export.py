"""Write the whole knowledge base as a facts file (JSONL) that `load` reads back losslessly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any, TextIO

from kgbrain.knowledge import CORE_INHERITABLE, META_PREDICATES, Fact
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import fact_from_row
from kgbrain.store.schema import EPISODES_VERSION
from kgbrain.timeline import render_from, render_to

FACT_RANGE = 50_000  # concepts whose facts one export query reads (and sorts) at a time


def export_rows(store: GraphStore) -> Iterator[dict[str, Any]]:
    """Every concept annotation, predicate declaration, source trust and fact, then the conflict, retraction, rule and
    derivation records, as facts-file rows."""
    ids: list[str] = []  # every concept id, in order: the facts are read range by range
    for c in store.iterate("export_concepts"):
        ids.append(c["id"])
        yield {"subject": c["id"], "predicate": "kind", "value": c["kind"]}
        for lang in ("en", "ru"):
            if c[f"description_{lang}"]:
                yield {"subject": c["id"], "predicate": "description", "value": c[f"description_{lang}"], "lang": lang}
        if c["description"]:
            yield {"subject": c["id"], "predicate": "description", "value": c["description"]}
    preferred = {(c["id"], lang): c[f"label_{lang}"] for c in store.iterate("export_concepts") for lang in ("en", "ru")}
    names = list(store.iterate("export_names"))
    # Preferred labels first, so loading them back picks the same preferred label.
    names.sort(
        key=lambda n: (n["concept"], preferred.get((n["concept"], n["lang"])) != n["text"] or n["kind"] != "label")
    )
    for n in names:
        row = {"subject": n["concept"], "predicate": n["kind"], "value": n["text"]}
        if n["lang"]:
            row["lang"] = n["lang"]
        yield row
    yield from _declaration_rows(store)
    for s in store.iterate("sources_all"):
        yield {"subject": s["name"], "predicate": "source_trust", "value": s["trust"]}
    yield from _meta_rows(store)
    for row in stored_fact_rows(store, ids):
        yield fact_row(fact_from_row(row))
    for c in store.iterate("export_conflicts"):
        yield {"subject": c["id"], "predicate": "conflict_record", "value": _json_record(c)}
    for r in store.iterate("export_retractions"):
        yield {"subject": r["fact_id"], "predicate": "retraction_record", "value": _json_record(r)}
    yield from _rule_rows(store)
    yield from _episode_rows(store)


def _episode_rows(store: GraphStore) -> Iterator[dict[str, Any]]:
    """Episodic memory: each episode with its corrections (who made each and when), oldest first."""
    if store.schema_version < EPISODES_VERSION:
        return
    for e in store.iterate("export_episodes"):
        made = zip(e.pop("correction_ids"), e.pop("correction_texts"), e.pop("correction_by"),
                   e.pop("correction_made_at"), strict=True)  # fmt: skip
        corrections = sorted(
            ({"id": i, "text": t, "by": b, "made_at": m} for i, t, b, m in made if i),
            key=lambda c: (c["made_at"], c["id"]),
        )
        yield {
            "subject": e["id"],
            "predicate": "episode_record",
            "value": _json_record({**e, "corrections": corrections}),
        }


def _meta_rows(store: GraphStore) -> Iterator[dict[str, Any]]:
    """The identity records: without them a reload names a later file's IRIs anew and assumes unique names."""
    for predicate in sorted(META_PREDICATES):
        prefix = predicate + " "
        for m in store.run("meta_prefixed", prefix=prefix):
            value: Any = m["value"] == "true" if predicate == "unique_names" else m["value"]
            yield {"subject": m["key"][len(prefix) :], "predicate": predicate, "value": value}


def _rule_rows(store: GraphStore) -> Iterator[dict[str, Any]]:
    """The stored program (rules in load order, then superiority) and every derivation record: without them a
    reload keeps the derived facts but not why they hold, nor the rules that keep deriving them."""
    for r in store.iterate("rules_all"):
        yield {"subject": r["id"], "predicate": "rule_record", "value": _json_record(r)}
    for o in store.iterate("rules_order_all"):
        order = {"id": f"{o['stronger']}>{o['weaker']}", **o}
        yield {"subject": order["id"], "predicate": "rule_order_record", "value": _json_record(order)}
    for d in store.iterate("export_derivations"):
        yield {"subject": d["id"], "predicate": "derivation_record", "value": _json_record(d)}


def stored_fact_rows(store: GraphStore, ids: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """Every stored fact (any status) as `export_facts` rows, by subject, predicate and fact id.

    Read FACT_RANGE concepts at a time (`ids`: every concept id in order, read from the store when not given): one
    ORDER BY over a million facts fills Kùzu's default buffer pool.
    """
    if ids is None:
        ids = [c["id"] for c in store.iterate("export_concepts")]
    for start in range(0, len(ids), FACT_RANGE):
        span = ids[start : start + FACT_RANGE]
        yield from store.iterate("export_facts", first=span[0], last=span[-1])


def _json_record(row: dict[str, Any]) -> str:
    return json.dumps(_plain(row), ensure_ascii=False, sort_keys=True)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _declaration_rows(store: GraphStore) -> Iterator[dict[str, Any]]:
    for p in store.iterate("predicates_all"):
        name = p["name"]
        for flag in ("transitive", "symmetric", "functional"):
            if p[flag]:
                yield {"subject": name, "predicate": "property_type", "value": flag}
        default_inheritable = CORE_INHERITABLE.get(name, True)
        if p["inheritable"] is not None and p["inheritable"] != default_inheritable:
            yield {
                "subject": name,
                "predicate": "property_type",
                "value": "inheritable" if p["inheritable"] else "not_inheritable",
            }
        for link in ("inverse_of", "opposite_of", "domain", "range"):
            if p[link]:
                yield {"subject": name, "predicate": link, "object": p[link]}
        for parent in p["sub_property_of"] or []:
            yield {"subject": name, "predicate": "sub_property_of", "object": parent}


def _iso(stamp: datetime) -> str:
    return stamp.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def fact_row(f: Fact) -> dict[str, Any]:
    """A fact as one facts-file row with all of its provenance."""
    row: dict[str, Any] = {"subject": f.subject, "predicate": f.predicate}
    if f.object is not None:
        row["object"] = f.object
    else:
        assert f.value is not None
        row["value"] = f.value.python()
        if f.value.datatype not in ("string", "integer", "decimal", "boolean"):
            row["datatype"] = f.value.datatype
        if f.value.unit:
            row["unit"] = f.value.unit
    row.update(polarity=f.polarity, confidence=f.confidence, source=f.source, trust=f.trust)
    if f.authority:
        row["authority"] = f.authority.value
    if f.observed_at:
        row["observed_at"] = _iso(f.observed_at)
    if f.loaded_at:
        row["loaded_at"] = _iso(f.loaded_at)
    row["status"] = f.status.value
    lang = f.lang or (f.value.lang if f.value is not None else None)
    if lang:
        row["lang"] = lang
    if f.valid_from:
        row["valid_from"] = render_from(f.valid_from)
    if f.valid_to:
        row["valid_to"] = render_to(f.valid_to)  # the last day it held, as the facts file writes an end date
    row["fact_id"] = f.fact_id
    return row


def write_jsonl(rows: Iterator[dict[str, Any]], out: TextIO) -> int:
    """Write rows as JSON lines; returns how many."""
    count = 0
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
        count += 1
    return count
