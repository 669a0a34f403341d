// Link new derivations to each premise fact they use (rows of id, fact_id).
LOAD FROM $rows
MATCH (d:Derivation {id: id}), (f:FactRef {id: fact_id})
WHERE NOT EXISTS { MATCH (d)-[:USES]->(f) }
CREATE (d)-[:USES]->(f)
