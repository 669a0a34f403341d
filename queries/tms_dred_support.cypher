// DRed re-derivation: the active derivations of these facts, with their premises (the support check's input).
UNWIND $ids AS i
MATCH (:FactRef {id: i})<-[:DERIVES]-(d:Derivation)
WHERE d.status = 'active'
RETURN d.id AS id, d.fact_id AS fact_id, d.premises AS premises, d.rule AS rule
