// Concepts named by any of the given normalised keys (labels, aliases, ids), with how they are named.
UNWIND $keys AS k
MATCH (t:Term {key: k})-[n:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept, n.kind AS kind
ORDER BY key, concept
