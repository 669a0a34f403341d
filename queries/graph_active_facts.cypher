// Every active fact between two concepts, with its provenance: the reasoner's in-memory graph mirror.
MATCH (a:Concept)-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.confidence AS confidence, r.fact_id AS fact_id, r.source AS source
