// A cheap fingerprint of the facts the in-memory mirror and the analogy index are built from: counts of
// concepts, facts and active facts, and the sum of active confidences (catches status and confidence edits).
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
MATCH (c:Concept)
WITH count(c) AS concepts
OPTIONAL MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
WITH DISTINCT concepts, r
RETURN concepts, count(r) AS facts, count(CASE WHEN r.status = 'active' THEN 1 END) AS active,
       sum(CASE WHEN r.status = 'active' THEN r.confidence ELSE 0.0 END) AS weight
