// One stored fact id, if there is any fact at all (lets a first load skip the duplicate check).
MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id
LIMIT 1
