// Facts (not retracted) in one concept-to-concept table (@TABLE@) of the given subjects and predicates.
// One table per query: a label-free pattern over every table returns each relationship the running
// transaction created once per table (kuzu 0.11.3) and runs out of buffer pool on a big load.
// The subjects are looked up first and the facts reached through an OPTIONAL MATCH: that plan masks the
// relationship scan to the looked-up nodes (cost follows the subjects asked about), where a plain
// `MATCH (s {id: sid})-[r]->(o)` after UNWIND is a hash join over the whole table (Ladybug 0.22: 0.1 CPU s per
// 125k facts for 10 subjects as for 20,000; this plan 0.003 s for 10, 0.012 s for 1,000).
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})
OPTIONAL MATCH (s)-[r:@TABLE@|@TABLE@_D]->(o:Concept)
WHERE r.status <> 'retracted' AND list_contains($predicates, r.predicate)
WITH s, r, o
WHERE r IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, 'Concept' AS object_table, o.id AS object,
       CAST(NULL AS STRING) AS lexical, CAST(NULL AS STRING) AS datatype, CAST(NULL AS STRING) AS unit,
       CAST(NULL AS STRING) AS value_lang, r.polarity AS polarity, r.confidence AS confidence, r.source AS source,
       r.trust AS trust, r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at,
       r.status AS status, r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
