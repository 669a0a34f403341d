// Facts whose object is the concept (any status), with provenance; at most 500 rows (a hub must not flood a cycle).
// Columns match concept_facts_out so store.rows.fact_from_row reads them.
// A primary-key lookup: 7 ms on 200k concepts / 1.2M edges, where `o.id IN $ids` scans the nodes (24 ms).
MATCH (s:Concept)-[r]->(o:Concept {id: $id})
WHERE r.fact_id IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, 'Concept' AS object_table, o.id AS object,
       NULL AS lexical, NULL AS datatype, NULL AS unit, NULL AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
LIMIT 500
