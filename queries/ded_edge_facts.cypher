// The is_a / instance_of facts (any status, either polarity) between given (child, parent) pairs, best first.
UNWIND $pairs AS pr
MATCH (a:Concept {id: pr.child})-[r:IS_A|INSTANCE_OF]->(b:Concept {id: pr.parent})
RETURN a.id AS child, b.id AS parent, r.fact_id AS fact_id, r.predicate AS predicate, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
ORDER BY child, parent, status, confidence DESC, fact_id
