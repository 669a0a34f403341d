// tms_dred_support for one fact id: a primary-key lookup (~2 ms; the UNWIND join costs ~70 ms at any size).
MATCH (:FactRef {id: $fact_id})<-[:DERIVES]-(d:Derivation)
WHERE d.status = 'active'
RETURN d.id AS id, d.fact_id AS fact_id, d.premises AS premises, d.rule AS rule
