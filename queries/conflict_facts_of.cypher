// Facts that can take part in a conflict (anything not retracted) whose subject is one of the given concepts.
// Relationships created by a running load transaction come back wrong through this form in Kùzu 0.11.3;
// callers skip them and take those facts from memory.
UNWIND $ids AS cid
MATCH (s:Concept {id: cid})-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.status <> 'retracted'
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
