// Facts whose subject is one of the given concepts (any status), with provenance; at most 500 rows (a hub must not flood a cycle).
// Columns match concept_facts_out so store.rows.fact_from_row reads them.
// `s.id IN $ids` rather than UNWIND + {id: cid}: measured 10x faster on a 100k-edge graph (Kùzu 0.11.3).
MATCH (s:Concept)-[r]->(o)
WHERE s.id IN $ids AND r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, label(o) AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
LIMIT 500
