// Facts (any table, any status, either polarity) with one of the predicates pointing at one concept; the
// caller keeps the subjects it wants. Bound by primary key: measured at 200k concepts, `{id: $x}` takes
// ~1 ms where `id IN $list` scans (~25 ms) and UNWIND + {id: x} joins (~60 ms).
MATCH (o:Concept {id: $object})<-[r]-(s:Concept)
WHERE r.fact_id IS NOT NULL AND list_contains($predicates, r.predicate)
RETURN s.id AS subject, r.predicate AS predicate, o.id AS object, r.fact_id AS fact_id, r.polarity AS polarity,
       r.confidence AS confidence, r.source AS source, r.trust AS trust, r.authority AS authority, r.status AS status
ORDER BY subject, predicate, fact_id
