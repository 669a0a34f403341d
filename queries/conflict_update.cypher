// Record a resolution on existing conflicts (a person's decision, or a retraction closing them).
// example: {"rows": [{"id": "c_1", "status": "resolved", "strategy": "human_override", "kept_fact": "f_1", "adjustments": "[]", "explanation": "e", "resolved_at": "2026-01-01 00:00:00", "resolved_by": "alice"}]}
UNWIND $rows AS u
MATCH (c:Conflict {id: u.id})
SET c.status = u.status, c.strategy = u.strategy, c.kept_fact = u.kept_fact, c.adjustments = u.adjustments,
    c.explanation = u.explanation, c.resolved_at = CAST(u.resolved_at, 'TIMESTAMP'), c.resolved_by = u.resolved_by
