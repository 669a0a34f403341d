// Set status and confidence of stored facts, each found from its subject.
// example: {"rows": [{"subject": "neuron", "fact_id": "f_1", "status": "disputed", "confidence": 0.5}]}
UNWIND $rows AS u
MATCH (s:Concept {id: u.subject})-[r]->()
WHERE r.fact_id = u.fact_id
SET r.status = u.status, r.confidence = CAST(u.confidence, 'DOUBLE')
