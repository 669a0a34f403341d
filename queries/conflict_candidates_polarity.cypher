// Subjects with a statement asserted and denied (same predicate and object) among facts not retracted.
MATCH (s:Concept)-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.status <> 'retracted'
WITH s.id AS subject, r.predicate AS predicate, o.id AS object, count(DISTINCT r.polarity) AS polarities
WHERE polarities > 1
RETURN DISTINCT subject
