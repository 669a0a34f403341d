// Subjects linked to one object by two different predicates that take part in opposite pairs (e.g. causes /
// prevents); a superset of the real conflicts, which the classification in Python then picks out.
MATCH (s:Concept)-[r]->(o:Concept)
WHERE r.fact_id IS NOT NULL AND r.predicate IN $left AND r.polarity AND r.status <> 'retracted'
MATCH (s)-[q]->(o)
WHERE q.fact_id IS NOT NULL AND q.predicate IN $right AND q.predicate <> r.predicate AND q.polarity
      AND q.status <> 'retracted'
RETURN DISTINCT s.id AS subject
