// Restore exported conflict records as they were; a record already present is left alone.
// example: {"rows": [{"id": "c_1", "type": "opposite_polarity", "fact_key": "f_1,f_2", "fact_ids": ["f_1", "f_2"], "status": "open", "strategy": "deferred", "kept_fact": "f_1", "adjustments": "[]", "explanation": "e", "detected_at": "2026-01-01T00:00:00", "resolved_at": "2026-01-01T00:00:00", "resolved_by": "kgbrain"}]}
UNWIND $rows AS c
MERGE (n:Conflict {id: c.id})
ON CREATE SET n.type = c.type, n.fact_key = c.fact_key, n.fact_ids = CAST(c.fact_ids, 'STRING[]'), n.status = c.status,
              n.strategy = c.strategy, n.kept_fact = c.kept_fact, n.adjustments = c.adjustments,
              n.explanation = c.explanation, n.detected_at = CAST(c.detected_at, 'TIMESTAMP'),
              n.resolved_at = CAST(c.resolved_at, 'TIMESTAMP'), n.resolved_by = c.resolved_by
