// Active exclusions between classes: negative is_a facts and disjoint_with facts (few; mirrored in memory).
MATCH (a:Concept)-[r:IS_A|DISJOINT_WITH]->(b:Concept)
WHERE r.status = 'active' AND (label(r) = 'DISJOINT_WITH' AND r.polarity OR label(r) = 'IS_A' AND NOT r.polarity)
RETURN a.id AS subject, b.id AS object, r.predicate AS predicate, r.fact_id AS fact_id, r.confidence AS confidence,
       r.source AS source, r.status AS status, r.polarity AS polarity
