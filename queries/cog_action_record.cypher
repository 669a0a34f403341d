// Count one more use of an action, and one more success when $success is 1.
MERGE (a:ActionStat {action: $action})
ON CREATE SET a.attempts = 1, a.successes = $success, a.updated_at = $now
ON MATCH SET a.attempts = a.attempts + 1, a.successes = a.successes + $success, a.updated_at = $now
