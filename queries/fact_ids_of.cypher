// The ids of every fact (any table, any status) whose subject is one of the given concepts; one row with a NULL
// id stands for the subjects without facts. A load's duplicate check intersects these with the ids it made, which
// hash the subject: the cost follows the subjects the load touches, where matching the ids themselves
// (facts_existing) joins against every stored fact. The OPTIONAL MATCH after the key lookup is the plan that
// masks the relationship scan to those subjects (see templates/facts_by_key_concept.cypher).
// example: {"subjects": ["neuron"]}
UNWIND $subjects AS sid
MATCH (s:Concept {id: sid})
OPTIONAL MATCH (s)-[r]->()
RETURN DISTINCT r.fact_id AS fact_id
