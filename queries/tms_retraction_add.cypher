// Record that a person retracted a fact (the fact itself stays, with status 'retracted').
CREATE (:Retraction {fact_id: $fact_id, previous_status: $previous_status, retracted_at: CAST($retracted_at, 'TIMESTAMP'),
                     retracted_by: $retracted_by, reason: $reason})
