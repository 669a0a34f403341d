// Every term key with the concept it names (for "did you mean" suggestions).
MATCH (t:Term)-[:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept
