// Attribute values (any status, either polarity) of the subjects for the given predicates.
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})-[r:ATTR]->(v:Value)
WHERE list_contains($predicates, r.predicate)
RETURN s.id AS subject, r.predicate AS predicate, v.lexical AS object, v.unit AS unit, r.fact_id AS fact_id,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.status AS status
ORDER BY subject, predicate, object, fact_id
