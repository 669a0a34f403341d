// Every active positive is_a / instance_of edge (the in-memory hierarchy mirror is built from these).
MATCH (a:Concept)-[r:IS_A|INSTANCE_OF]->(b:Concept)
WHERE r.status = 'active' AND r.polarity
RETURN a.id AS child, b.id AS parent, r.confidence AS confidence
