// Concepts named by any of the given normalised keys (labels, aliases, ids), with how they are named.
MATCH (t:Term)-[n:NAMES]->(c:Concept)
WHERE t.key IN $keys
RETURN t.key AS key, c.id AS concept, n.kind AS kind
ORDER BY key, concept
