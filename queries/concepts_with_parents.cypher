// Which of the given ids are concepts with an active, positive is_a parent (a class that has a superclass).
UNWIND $ids AS i
MATCH (c:Concept {id: i})-[r:IS_A|IS_A_D]->(:Concept)
WHERE r.status = 'active' AND r.polarity
RETURN DISTINCT c.id AS id
