// Concepts named by each of the given normalised term keys (labels, aliases, ids).
UNWIND $keys AS k
MATCH (t:Term {key: k})-[n:NAMES]->(c:Concept)
RETURN t.key AS key, c.id AS concept, n.kind AS kind, n.lang AS lang, n.text AS text
