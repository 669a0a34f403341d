// Every fact (any table, any status) linking two concepts, either way round.
MATCH (s:Concept {id: $left})-[r]->(o:Concept {id: $right})
WHERE r.fact_id IS NOT NULL
RETURN s.id AS subject, r.predicate AS predicate, o.id AS object, r.fact_id AS fact_id, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
UNION ALL
MATCH (s:Concept {id: $right})-[r]->(o:Concept {id: $left})
WHERE r.fact_id IS NOT NULL
RETURN s.id AS subject, r.predicate AS predicate, o.id AS object, r.fact_id AS fact_id, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
