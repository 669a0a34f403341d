// Every derivation of a fact (active or lost), with its rule and premises.
MATCH (:FactRef {id: $fact_id})<-[:DERIVES]-(d:Derivation)
RETURN d.id AS id, d.rule AS rule, d.premises AS premises, d.status AS status
ORDER BY d.status, d.id
