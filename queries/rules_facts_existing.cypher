// Which of the given fact ids exist, with their status, found through their subjects (the subject
// lookup drives the plan, and an anchored scan stays clear of Kùzu 0.11.3's label-free-scan crash).
// example: {"subjects": ["neuron"], "ids": ["f_1"]}
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->()
WHERE list_contains($ids, r.fact_id)
RETURN r.fact_id AS fact_id, r.status AS status, r.source AS source, s.id AS subject
