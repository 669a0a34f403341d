// Number of stored facts per status.
MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
RETURN r.status AS status, count(*) AS facts
