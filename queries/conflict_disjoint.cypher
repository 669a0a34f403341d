// Concepts below two classes declared disjoint (through instance_of / is_a, active positive links only):
// the axiom, the concept, the facts on both shortest paths and each path's first step.
MATCH (a:Concept)-[d:DISJOINT_WITH]->(b:Concept)
WHERE d.polarity AND d.status = 'active'
MATCH p1 = (x:Concept)-[:IS_A|INSTANCE_OF* SHORTEST 1..30 (r, n | WHERE r.polarity AND r.status = 'active')]->(a)
MATCH p2 = (x)-[:IS_A|INSTANCE_OF* SHORTEST 1..30 (r, n | WHERE r.polarity AND r.status = 'active')]->(b)
RETURN d.fact_id AS axiom, x.id AS concept, properties(rels(p1), 'fact_id') AS left_facts,
       properties(rels(p2), 'fact_id') AS right_facts, properties(nodes(p1), 'id')[2] AS left_step,
       properties(nodes(p2), 'id')[2] AS right_step
