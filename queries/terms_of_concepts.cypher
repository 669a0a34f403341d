// Every term key naming one of these concepts, with the name as written (to add a load's new names to a
// term index in memory; see terms_all).
MATCH (t:Term)-[n:NAMES]->(c:Concept)
WHERE c.id IN $ids
RETURN t.key AS key, c.id AS concept, n.text AS text
