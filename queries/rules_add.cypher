// Store rules (rows of id, text, kind, origin, authority, position); a rule stored already is left as it is.
LOAD FROM $rows
MERGE (r:Rule {id: id})
ON CREATE SET r.text = text, r.kind = kind, r.origin = origin, r.authority = authority, r.position = position
