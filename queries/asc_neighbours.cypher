// Active facts around the given concepts, in both directions (concept-to-concept, any predicate).
MATCH (a:Concept)-[r]->(b:Concept)
WHERE a.id IN $ids AND r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS origin, b.id AS other, r.predicate AS predicate, r.polarity AS polarity, r.confidence AS confidence,
       r.fact_id AS fact_id, r.source AS source, 'out' AS direction
UNION ALL
MATCH (a:Concept)<-[r]-(b:Concept)
WHERE a.id IN $ids AND r.fact_id IS NOT NULL AND r.status = 'active'
RETURN a.id AS origin, b.id AS other, r.predicate AS predicate, r.polarity AS polarity, r.confidence AS confidence,
       r.fact_id AS fact_id, r.source AS source, 'in' AS direction
