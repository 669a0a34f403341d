// DRed over-deletion step: the facts derived by active derivations that use any of these fact ids.
UNWIND $ids AS i
MATCH (:FactRef {id: i})<-[:USES]-(d:Derivation)
WHERE d.status = 'active'
RETURN DISTINCT d.fact_id AS fact_id
