// Ancestors of a concept through active is_a / instance_of edges, Kùzu's BFS form (bench peer of the mirror).
MATCH (a:Concept {id: $id})-[:IS_A|IS_A_D|INSTANCE_OF|INSTANCE_OF_D* SHORTEST 1..30 (r, n | WHERE r.status = 'active' AND r.polarity)]->(b:Concept)
RETURN b.id AS ancestor
