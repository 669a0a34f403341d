// Subjects linked to one object by two predicates declared opposite (e.g. causes / prevents).
MATCH (s:Concept)-[r]->(o:Concept)
WHERE r.fact_id IS NOT NULL AND r.predicate IN $left AND r.polarity AND r.status <> 'retracted'
MATCH (s)-[q]->(o)
WHERE q.fact_id IS NOT NULL AND q.predicate IN $right AND q.polarity AND q.status <> 'retracted'
RETURN DISTINCT s.id AS subject
