// Active facts of the given subjects (for defeasible blocking: is the opposite literal stored or strict?).
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.status = $active
WITH DISTINCT s, r, o
RETURN s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object, o.lexical AS lexical,
       o.datatype AS datatype, o.unit AS unit, r.polarity AS polarity, r.source AS source
