// Every term key with the concept it names (for stemmed lookup and "did you mean").
MATCH (t:Term)-[:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept
