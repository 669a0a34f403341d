// Remove the corrections of the episodes asked before $before (first: an episode goes with its corrections).
// example: {"before": "2000-01-01 00:00:00"}
MATCH (c:Correction)-[:CORRECTS]->(e:Episode)
WHERE e.asked_at < timestamp($before)
DETACH DELETE c
