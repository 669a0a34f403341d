// Every fact whose subject is the concept, whatever its status, with provenance.
MATCH (s:Concept {id: $id})-[r]->(o)
WHERE r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
ORDER BY predicate, object, fact_id
