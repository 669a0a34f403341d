// Facts (not retracted) in one concept-to-concept table (@TABLE@) of the given subjects and predicates.
// One table per query: a label-free pattern over every table returns each relationship the running
// transaction created once per table (kuzu 0.11.3) and runs out of buffer pool on a big load.
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})-[r:@TABLE@|@TABLE@_D]->(o:Concept)
WHERE r.status <> 'retracted' AND list_contains($predicates, r.predicate)
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, 'Concept' AS object_table, o.id AS object,
       CAST(NULL AS STRING) AS lexical, CAST(NULL AS STRING) AS datatype, CAST(NULL AS STRING) AS unit,
       CAST(NULL AS STRING) AS value_lang, r.polarity AS polarity, r.confidence AS confidence, r.source AS source,
       r.trust AS trust, r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at,
       r.status AS status, r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
