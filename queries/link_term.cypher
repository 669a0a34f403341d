// Concepts named by one normalised key (a label, alias or id), with how they are named.
MATCH (t:Term {key: $key})-[n:NAMES]->(c:Concept)
RETURN c.id AS concept, n.kind AS kind
ORDER BY concept
