// The facts stated about some concepts, as graph_facts returns them: a server's mirror re-reads just the subjects
// a write touched instead of every fact (subject-anchored, so a lookup per concept, not a scan).
// example: {"subjects": ["neuron"]}
UNWIND $subjects AS cid
MATCH (a:Concept {id: cid})-[r]->(b:Concept)
WHERE r.fact_id IS NOT NULL
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.confidence AS confidence, r.fact_id AS fact_id, r.source AS source, r.status AS status
