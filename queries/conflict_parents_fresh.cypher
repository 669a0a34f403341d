// conflict_parents for a load transaction: IN instead of UNWIND, which returns wrong rows for relationships
// the running transaction created (Kùzu 0.11.3); linear in the list, so only for the few concepts of a load.
MATCH (x:Concept)-[r:IS_A|INSTANCE_OF]->(p:Concept)
WHERE x.id IN $ids AND r.polarity AND r.status = 'active'
RETURN x.id AS concept, p.id AS parent, r.fact_id AS fact_id
