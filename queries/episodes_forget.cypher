// Remove the episodes asked before $before.
// example: {"before": "2000-01-01 00:00:00"}
MATCH (e:Episode)
WHERE e.asked_at < timestamp($before)
DETACH DELETE e
