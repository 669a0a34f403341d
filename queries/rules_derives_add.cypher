// Link new derivations to the fact each derives (rows of id, fact_id).
LOAD FROM $rows
MATCH (d:Derivation {id: id}), (f:FactRef {id: fact_id})
WHERE NOT EXISTS { MATCH (d)-[:DERIVES]->(f) }
CREATE (d)-[:DERIVES]->(f)
