// Number of stored facts per relationship table and predicate, with how many are active. A fact in a delta
// table (T_D, schema version 8) counts under its table T.
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL
WITH DISTINCT r
RETURN regexp_replace(label(r), '_D$', '') AS tbl, r.predicate AS predicate, count(*) AS facts,
       sum(CASE WHEN r.status = 'active' THEN 1 ELSE 0 END) AS active
