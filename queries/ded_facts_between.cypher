// Facts (any table, any status, either polarity) from any of the subjects to any of the objects with one
// of the predicates: the direct and inherited evidence for a claim `s p o`.
MATCH (s:Concept)-[r]->(o:Concept)
WHERE s.id IN $subjects AND r.fact_id IS NOT NULL AND o.id IN $objects AND r.predicate IN $predicates
RETURN s.id AS subject, r.predicate AS predicate, o.id AS object, r.fact_id AS fact_id, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
ORDER BY subject, predicate, object, fact_id
