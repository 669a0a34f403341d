// Set status and confidence of facts created by the running transaction (parallel lists by fact id).
// Matched from their subjects with IN: inside a load transaction, Kùzu 0.11.3 finds relationships created
// in that transaction neither by a property filter over the relationship tables nor through UNWIND + lookup,
// but does through this scan (measured). Linear in the lists, so only for the few facts of the load.
// example: {"subjects": ["neuron"], "ids": ["f_1"], "statuses": ["disputed"], "confidences": [0.5]}
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
MATCH (s:Concept)-[r]->()
WHERE s.id IN $subjects
WITH DISTINCT r
WITH r, list_position($ids, r.fact_id) AS k
WHERE k > 0
SET r.status = $statuses[k], r.confidence = $confidences[k]
