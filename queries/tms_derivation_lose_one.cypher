// rules_derivations_lose for one derivation: a primary-key lookup instead of an UNWIND join.
MATCH (d:Derivation {id: $id})
SET d.status = 'lost'
