// Set status and confidence of stored facts (parallel lists by fact id), found through their subjects.
// The subject lookup drives the plan: correlating each row's fact id in a WHERE made Kùzu 0.11.3 join
// against every fact (8,000 updates on 1M facts: 32 s, against 0.5 s this way).
// example: {"subjects": ["neuron"], "ids": ["f_1"], "statuses": ["disputed"], "confidences": [0.5]}
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->()
WITH DISTINCT r
WITH r, list_position($ids, r.fact_id) AS k
WHERE k > 0
SET r.status = $statuses[k], r.confidence = $confidences[k]
