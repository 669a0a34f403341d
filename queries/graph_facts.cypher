// Every fact between two concepts with its provenance and status: the reasoner's in-memory graph mirror
// keeps the active ones and remembers which concepts also have inactive ones (to ask Kùzu about those).
MATCH (a:Concept)-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.confidence AS confidence, r.fact_id AS fact_id, r.source AS source, r.status AS status
