// Facts (not retracted) of the given subjects with one of the given predicates: what a load's new facts
// may contradict. Rows of relationships created by the running transaction are skipped by the caller.
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})-[r]->(o)
WHERE r.fact_id IS NOT NULL AND r.status <> 'retracted' AND list_contains($predicates, r.predicate)
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang
