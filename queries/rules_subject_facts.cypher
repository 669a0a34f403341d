// Active facts of the given subjects (for defeasible blocking: is the opposite literal stored or strict?).
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.status = $active
RETURN s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object, o.lexical AS lexical,
       o.datatype AS datatype, o.unit AS unit, r.polarity AS polarity, r.source AS source
