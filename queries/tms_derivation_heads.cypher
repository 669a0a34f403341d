// The facts that these derivations derive (active derivations only).
UNWIND $ids AS i
MATCH (d:Derivation {id: i})
WHERE d.status = 'active'
RETURN DISTINCT d.fact_id AS fact_id
