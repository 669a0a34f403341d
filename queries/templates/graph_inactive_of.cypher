// Which of these concepts are at either end of an inactive fact in one concept-to-concept table (@TABLE@).
UNWIND $ids AS cid
MATCH (a:Concept {id: cid})-[r:@TABLE@|@TABLE@_D]->(:Concept)
WHERE r.fact_id IS NOT NULL AND r.status <> 'active'
RETURN DISTINCT cid AS id
UNION
UNWIND $ids AS cid
MATCH (:Concept)-[r:@TABLE@|@TABLE@_D]->(a:Concept {id: cid})
WHERE r.fact_id IS NOT NULL AND r.status <> 'active'
RETURN DISTINCT cid AS id
