// Subjects holding more than one live positive value of a functional predicate.
MATCH (s:Concept)-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.predicate IN $functional AND r.polarity AND r.status <> 'retracted'
WITH s.id AS subject, r.predicate AS predicate, count(DISTINCT o.id) AS targets
WHERE targets > 1
RETURN DISTINCT subject
