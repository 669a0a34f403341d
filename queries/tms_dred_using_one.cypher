// tms_dred_using for one fact id: a primary-key lookup (~2 ms; the UNWIND join costs ~70 ms at any size).
MATCH (:FactRef {id: $fact_id})<-[:USES]-(d:Derivation)
WHERE d.status = 'active'
RETURN DISTINCT d.fact_id AS fact_id
