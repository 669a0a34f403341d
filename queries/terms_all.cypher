// Every term key with the concept it names and the name as written (for linking the words of a question).
MATCH (t:Term)-[n:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept, n.text AS text
