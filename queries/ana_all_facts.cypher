// Every active fact between two concepts (subject, predicate, object, polarity): the relation signatures.
MATCH (a:Concept)-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity
