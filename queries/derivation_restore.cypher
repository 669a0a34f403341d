// Exported derivation records (rows of id, rule, fact_id, premises, status), restored as they were: the
// derivation, the FactRef nodes of its fact and premises, and its DERIVES and USES links. A record stored
// already is left alone (a load of an export into the knowledge base it came from adds nothing).
LOAD FROM $rows
WITH id, rule, fact_id, premises, status
WHERE NOT EXISTS { MATCH (x:Derivation {id: id}) }
CREATE (d:Derivation {id: id, rule: rule, fact_id: fact_id, premises: premises, status: status})
MERGE (f:FactRef {id: fact_id})
CREATE (d)-[:DERIVES]->(f)
WITH d, premises
UNWIND premises AS premise
MERGE (p:FactRef {id: premise})
CREATE (d)-[:USES]->(p)
