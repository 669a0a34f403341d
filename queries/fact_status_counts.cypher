// Number of stored facts per status.
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
WITH DISTINCT r
RETURN r.status AS status, count(*) AS facts
