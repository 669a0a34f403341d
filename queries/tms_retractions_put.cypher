// Record why facts were withdrawn (rows of fact_id, previous_status, retracted_at, retracted_by, reason).
// MERGE: a derived fact can be withdrawn, derived again and withdrawn again; the newest reason stays.
LOAD FROM $rows
MERGE (r:Retraction {fact_id: fact_id})
SET r.previous_status = previous_status, r.retracted_at = retracted_at, r.retracted_by = retracted_by,
    r.reason = reason
