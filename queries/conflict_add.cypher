// Store newly detected conflicts (callers skip fact_keys that are recorded already).
// example: {"rows": [{"id": "c_1", "type": "opposite_polarity", "fact_key": "f_1,f_2", "fact_ids": ["f_1", "f_2"], "status": "open", "strategy": "deferred", "kept_fact": null, "adjustments": "[]", "explanation": "e", "detected_at": "2026-01-01 00:00:00", "resolved_at": null, "resolved_by": null}]}
UNWIND $rows AS c
CREATE (:Conflict {id: c.id, type: c.type, fact_key: c.fact_key, fact_ids: c.fact_ids, status: c.status,
                   strategy: c.strategy, kept_fact: c.kept_fact, adjustments: c.adjustments,
                   explanation: c.explanation, detected_at: CAST(c.detected_at, 'TIMESTAMP'),
                   resolved_at: CAST(c.resolved_at, 'TIMESTAMP'), resolved_by: c.resolved_by})
