// Facts (not retracted) in the literal table (@TABLE@) of the given subjects and predicates (see
// facts_by_key_concept.cypher for why one table per query, and why the OPTIONAL MATCH).
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})
OPTIONAL MATCH (s)-[r:@TABLE@|@TABLE@_D]->(o:Value)
WHERE r.status <> 'retracted' AND list_contains($predicates, r.predicate)
WITH s, r, o
WHERE r IS NOT NULL
RETURN r.fact_id AS fact_id, s.id AS subject, r.predicate AS predicate, 'Value' AS object_table, o.id AS object,
       o.lexical AS lexical, o.datatype AS datatype, o.unit AS unit, o.lang AS value_lang,
       r.polarity AS polarity, r.confidence AS confidence, r.source AS source, r.trust AS trust,
       r.authority AS authority, r.observed_at AS observed_at, r.loaded_at AS loaded_at, r.status AS status,
       r.lang AS lang, r.valid_from AS valid_from, r.valid_to AS valid_to
