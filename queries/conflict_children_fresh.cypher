// conflict_children for a load transaction: IN instead of UNWIND, which returns wrong rows for relationships
// the running transaction created (Kùzu 0.11.3); linear in the list, so only for a load's new axioms.
MATCH (x:Concept)-[r:IS_A|INSTANCE_OF]->(p:Concept)
WHERE p.id IN $ids AND r.polarity AND r.status = 'active'
RETURN x.id AS concept, p.id AS parent, r.fact_id AS fact_id
