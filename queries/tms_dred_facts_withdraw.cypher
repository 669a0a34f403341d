// Withdraw derived facts that lost all well-founded support: kept, status 'retracted'. One anchored scan
// (fact ids carry no subject; anchoring on Concept avoids Kùzu 0.11.3's label-free-scan crash).
// example: {"ids": ["f_1"]}
MATCH (:Concept)-[r]->()
WHERE list_contains($ids, r.fact_id) AND r.status = 'active'
SET r.status = 'retracted'
RETURN r.fact_id AS fact_id
