// Record derivations (one way each of deriving a fact): rows of id, rule, fact_id, premises.
// A lost derivation found again is active again.
LOAD FROM $rows
MERGE (d:Derivation {id: id})
ON CREATE SET d.rule = rule, d.fact_id = fact_id, d.premises = premises, d.status = 'active'
ON MATCH SET d.status = 'active'
