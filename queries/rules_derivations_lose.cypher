// Derivations that lost a premise: kept, marked lost.
UNWIND $ids AS i
MATCH (d:Derivation {id: i})
SET d.status = 'lost'
