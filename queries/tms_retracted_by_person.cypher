// Which of the given retracted facts a person retracted: a Retraction record by anyone but truth maintenance
// (a record with no name counts as a person's). Such a fact stays retracted when the rules derive it again.
// example: {"ids": ["f_1"], "withdrawn_by": "kgbrain:rules"}
UNWIND $ids AS fid
MATCH (r:Retraction {fact_id: fid})
WHERE r.retracted_by IS NULL OR r.retracted_by <> $withdrawn_by
RETURN r.fact_id AS fact_id
