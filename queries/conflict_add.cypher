// Store newly detected conflicts (callers skip fact_keys that are recorded already).
UNWIND $rows AS c
CREATE (:Conflict {id: c.id, type: c.type, fact_key: c.fact_key, fact_ids: c.fact_ids, status: c.status,
                   strategy: c.strategy, kept_fact: c.kept_fact, adjustments: c.adjustments,
                   explanation: c.explanation, detected_at: CAST(c.detected_at, 'TIMESTAMP'),
                   resolved_at: CAST(c.resolved_at, 'TIMESTAMP'), resolved_by: c.resolved_by})
