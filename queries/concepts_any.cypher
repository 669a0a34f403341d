// One concept id, if there is any concept at all (lets a first load skip looking up every name it uses).
MATCH (c:Concept)
RETURN c.id AS id
LIMIT 1
