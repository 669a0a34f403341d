"""kgbrain's own relation vocabulary (ontology/kgbrain.ttl) as predicate declarations."""

from __future__ import annotations

from kgbrain.knowledge import Declaration
from kgbrain.resources import resource_dir

_KGB = "https://kgbrain.dev/vocab#"
_OWL = "http://www.w3.org/2002/07/owl#"
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_TYPES = {
    _OWL + "TransitiveProperty": "transitive",
    _OWL + "SymmetricProperty": "symmetric",
    _OWL + "FunctionalProperty": "functional",
}


def core_declarations() -> list[Declaration]:
    """Declarations of the core predicates, read from ontology/kgbrain.ttl."""
    import rdflib  # imported here: only database creation needs it

    graph = rdflib.Graph()
    graph.parse(resource_dir("ontology") / "kgbrain.ttl", format="turtle")
    out: list[Declaration] = []
    for s, p, o in sorted(graph):
        name = str(s).removeprefix(_KGB)
        if not str(s).startswith(_KGB) or name in ("inheritable", "oppositeOf"):
            continue
        if str(p) == _RDF_TYPE and str(o) in _TYPES:
            out.append(Declaration(name, "property_type", _TYPES[str(o)]))
        elif str(p) == _KGB + "inheritable":
            out.append(
                Declaration(name, "property_type", "inheritable" if str(o).lower() == "true" else "not_inheritable")
            )
        elif str(p) == _KGB + "oppositeOf":
            out.append(Declaration(name, "opposite_of", str(o).removeprefix(_KGB)))
    return out
