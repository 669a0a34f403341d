// Number of concepts, and of individuals among them.
MATCH (c:Concept)
RETURN count(*) AS concepts, sum(CASE WHEN c.kind = 'individual' THEN 1 ELSE 0 END) AS individuals
