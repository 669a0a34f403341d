// The facts in one concept-to-concept table (@TABLE@) stated about some concepts, as graph_facts returns them:
// a server's mirror re-reads just the subjects a write touched. One table per query, subject-anchored: the
// label-free `(a:Concept {id: cid})-[r]->(b:Concept)` plans a scan (5 s for 10 subjects at 1M facts, kuzu 0.11.3).
UNWIND $subjects AS cid
MATCH (a:Concept {id: cid})-[r:@TABLE@|@TABLE@_D]->(b:Concept)
WHERE r.fact_id IS NOT NULL
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.polarity AS polarity,
       r.confidence AS confidence, r.fact_id AS fact_id, r.source AS source, r.status AS status
