// Link new derivations to each premise fact they use (rows of id, fact_id).
// Two MATCH clauses, as queries/templates/append_rels.cypher: one comma-joined pattern (plus a NOT EXISTS
// check) made Kùzu 0.11.3 exhaust the buffer pool at a few thousand rows. The derivations are new, so no
// link exists yet.
LOAD FROM $rows
MATCH (d:Derivation {id: id})
MATCH (f:FactRef {id: fact_id})
CREATE (d)-[:USES]->(f)
