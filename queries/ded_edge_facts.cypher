// The is_a / instance_of facts (any status, either polarity) leaving the given children, best first; callers
// keep the (child, parent) pairs they need. `IN $list` plans as an index lookup; UNWIND + {id: x} as a join.
MATCH (a:Concept)-[r:IS_A|INSTANCE_OF]->(b:Concept)
WHERE a.id IN $children
RETURN a.id AS child, b.id AS parent, r.fact_id AS fact_id, r.predicate AS predicate, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
ORDER BY child, parent, status, confidence DESC, fact_id
