// Every fact (any status) with what the in-memory rule executor needs: the statement, its provenance for
// derived facts' confidence and trust, and the status (inactive derived facts may be revived).
// Read before the write transaction (a label-free scan inside a load transaction returns duplicate rows).
MATCH (s:Concept)-[r]->(o)
WHERE r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang, o.number AS number,
       r.polarity AS polarity, r.confidence AS confidence, r.trust AS trust, r.source AS source,
       r.status AS status
