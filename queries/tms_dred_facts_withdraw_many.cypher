// Withdraw many derived facts (see tms_dred_facts_withdraw): a join on the fact id instead of testing every
// fact against a long list.
UNWIND $ids AS i
MATCH (:Concept)-[r]->()
WHERE r.fact_id = i AND r.status = 'active'
SET r.status = 'retracted'
RETURN r.fact_id AS fact_id
