// Every conflict record with all its columns, for export (oldest first, so a reload keeps the history order).
MATCH (c:Conflict)
RETURN c.id AS id, c.type AS type, c.fact_key AS fact_key, c.fact_ids AS fact_ids, c.status AS status,
       c.strategy AS strategy, c.kept_fact AS kept_fact, c.adjustments AS adjustments, c.explanation AS explanation,
       c.detected_at AS detected_at, c.resolved_at AS resolved_at, c.resolved_by AS resolved_by
ORDER BY detected_at, id
