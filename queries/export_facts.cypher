// The facts of the concepts $first..$last (ids in order, both included) with their provenance, for export
// (concept-to-concept and attribute facts alike). Export reads range by range: one ORDER BY over a million facts
// fills the buffer pool.
MATCH (s:Concept)-[r]->(o)
WHERE s.id >= $first AND s.id <= $last AND r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
ORDER BY subject, predicate, fact_id
