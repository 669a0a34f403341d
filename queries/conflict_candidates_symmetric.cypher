// Both ends of symmetric statements made in both directions with opposite polarity (a-b asserted, b-a denied).
MATCH (a:Concept)-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.predicate IN $symmetric AND r.status <> 'retracted'
MATCH (b)-[q]->(a)
WHERE q.fact_id IS NOT NULL AND q.predicate = r.predicate AND q.polarity <> r.polarity AND q.status <> 'retracted'
RETURN DISTINCT a.id AS subject
