// Which of the given fact ids exist, with their status, found through their subjects (the subject
// lookup drives the plan, and an anchored scan stays clear of Kùzu 0.11.3's label-free-scan crash).
// example: {"subjects": ["neuron"], "ids": ["f_1"]}
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->()
WHERE list_contains($ids, r.fact_id)
WITH DISTINCT s, r
RETURN r.fact_id AS fact_id, r.status AS status, r.source AS source, s.id AS subject
