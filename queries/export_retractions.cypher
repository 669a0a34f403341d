// Every retraction record, for export.
MATCH (r:Retraction)
RETURN r.fact_id AS fact_id, r.previous_status AS previous_status, r.retracted_at AS retracted_at,
       r.retracted_by AS retracted_by, r.reason AS reason
ORDER BY fact_id
