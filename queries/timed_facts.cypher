// Facts that state a validity interval (either end may be NULL, open): the as-of view reads these once and
// treats every other fact as holding at all times. Subject, predicate, polarity and object say which facts are
// values of one statement that succeed each other (a one-day hand-over between them).
MATCH (s:Concept)-[r]->(o)
WHERE r.fact_id IS NOT NULL AND (r.valid_from IS NOT NULL OR r.valid_to IS NOT NULL)
RETURN r.fact_id AS fact_id, r.valid_from AS valid_from, r.valid_to AS valid_to, s.id AS subject,
       r.predicate AS predicate, r.polarity AS polarity, coalesce(o.id, o.lexical) AS object
