// Active derivations that use a fact as a premise, with the fact each derives.
MATCH (:FactRef {id: $fact_id})<-[:USES]-(d:Derivation)
WHERE d.status = 'active'
RETURN d.id AS id, d.fact_id AS fact_id
