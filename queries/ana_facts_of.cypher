// Active concept-to-concept facts touching the given concepts (either end), for their relation signatures.
UNWIND $ids AS i
MATCH (a:Concept {id: i})-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN i AS concept, a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.fact_id AS fact_id, r.confidence AS confidence, r.source AS source
UNION ALL
UNWIND $ids AS i
MATCH (a:Concept)-[r]->(b:Concept {id: i})
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN i AS concept, a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.fact_id AS fact_id, r.confidence AS confidence, r.source AS source
