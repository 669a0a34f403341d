// Record a resolution on existing conflicts (a person's decision, or a retraction closing them).
UNWIND $rows AS u
MATCH (c:Conflict {id: u.id})
SET c.status = u.status, c.strategy = u.strategy, c.kept_fact = u.kept_fact, c.adjustments = u.adjustments,
    c.explanation = u.explanation, c.resolved_at = CAST(u.resolved_at, 'TIMESTAMP'), c.resolved_by = u.resolved_by
