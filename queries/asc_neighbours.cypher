// Active facts around the given concepts, in both directions (concept-to-concept, any predicate).
UNWIND $ids AS i
MATCH (a:Concept {id: i})-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN i AS origin, b.id AS other, r.predicate AS predicate, r.polarity AS polarity, r.confidence AS confidence,
       r.fact_id AS fact_id, r.source AS source, 'out' AS direction
UNION ALL
UNWIND $ids AS i
MATCH (b:Concept)-[r]->(a:Concept {id: i})
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN i AS origin, b.id AS other, r.predicate AS predicate, r.polarity AS polarity, r.confidence AS confidence,
       r.fact_id AS fact_id, r.source AS source, 'in' AS direction
