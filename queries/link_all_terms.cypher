// Every term key with the concept it names and the name as written (for stemmed lookup and "did you mean").
MATCH (t:Term)-[n:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept, n.text AS text
