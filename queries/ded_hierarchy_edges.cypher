// Every active positive is_a / instance_of edge (the in-memory hierarchy mirror is built from these).
MATCH (a:Concept)-[r:IS_A|INSTANCE_OF]->(b:Concept)
WHERE r.status = 'active' AND r.polarity
RETURN a.id AS child, b.id AS parent, r.confidence AS confidence, r.fact_id AS fact_id, r.source AS source,
       r.predicate = 'instance_of' AS instance
