// How many episodes were asked before $before (what forget-episodes will remove).
// example: {"before": "2000-01-01 00:00:00"}
MATCH (e:Episode)
WHERE e.asked_at < timestamp($before)
RETURN count(e) AS episodes
