// Number of stored facts per relationship table and predicate, with how many are active.
MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
RETURN label(r) AS tbl, r.predicate AS predicate, count(*) AS facts,
       sum(CASE WHEN r.status = 'active' THEN 1 ELSE 0 END) AS active
