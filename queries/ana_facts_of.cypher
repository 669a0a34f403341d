// Active concept-to-concept facts touching the given concepts (either end), for their relation signatures.
// (Each column is a distinct expression: Kùzu 0.11 misaligns UNION ALL columns that repeat an expression.)
MATCH (a:Concept)-[r]->(b:Concept)
WHERE a.id IN $ids AND r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.fact_id AS fact_id, r.confidence AS confidence, r.source AS source
UNION ALL
MATCH (b:Concept)<-[r]-(a:Concept)
WHERE b.id IN $ids AND r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.fact_id AS fact_id, r.confidence AS confidence, r.source AS source
