// Record that a person retracted a fact (the fact itself stays, with status 'retracted'). MERGE: a derived fact
// withdrawn once (its record by kgbrain:rules) and derived again already has a record, which this one replaces.
MERGE (r:Retraction {fact_id: $fact_id})
SET r.previous_status = $previous_status, r.retracted_at = CAST($retracted_at, 'TIMESTAMP'),
    r.retracted_by = $retracted_by, r.reason = $reason
