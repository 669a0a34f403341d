// Restore exported retraction records; one already present is left alone.
// example: {"rows": [{"fact_id": "f_1", "previous_status": "active", "retracted_at": "2026-01-01T00:00:00", "retracted_by": "ann", "reason": "typo"}]}
UNWIND $rows AS r
MERGE (n:Retraction {fact_id: r.fact_id})
ON CREATE SET n.previous_status = r.previous_status, n.retracted_at = CAST(r.retracted_at, 'TIMESTAMP'),
              n.retracted_by = r.retracted_by, n.reason = r.reason
