// Active disjoint_with facts between the two ancestor sets (either direction: disjointness is symmetric).
MATCH (a:Concept)-[r:DISJOINT_WITH]->(b:Concept)
WHERE r.status = 'active' AND r.polarity
  AND ((list_contains($left, a.id) AND list_contains($right, b.id))
    OR (list_contains($right, a.id) AND list_contains($left, b.id)))
RETURN a.id AS subject, b.id AS object, r.fact_id AS fact_id, r.confidence AS confidence, r.source AS source,
       r.trust AS trust, r.authority AS authority, r.status AS status
ORDER BY confidence DESC, fact_id
