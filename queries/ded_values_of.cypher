// Attribute values (any status, either polarity) of one concept for the given predicates.
MATCH (s:Concept {id: $subject})-[r:ATTR|ATTR_D]->(v:Value)
WHERE list_contains($predicates, r.predicate)
RETURN s.id AS subject, r.predicate AS predicate, v.lexical AS object, v.unit AS unit, r.fact_id AS fact_id,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.status AS status
ORDER BY predicate, object, fact_id
