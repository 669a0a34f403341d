// Set status and confidence of facts by id (parallel lists), in whichever fact table they live.
// Matched from their subjects: inside a load transaction, Kùzu 0.11.3 does not find relationships created
// in that transaction by a property filter over the relationship tables, but does through adjacency.
MATCH (s:Concept)-[r]->()
WHERE s.id IN $subjects AND list_contains($ids, r.fact_id)
SET r.status = $statuses[list_position($ids, r.fact_id)],
    r.confidence = $confidences[list_position($ids, r.fact_id)]
