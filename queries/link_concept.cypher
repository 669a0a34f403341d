// The concept with this id, if any (bound by primary key: a lookup, not a scan).
MATCH (c:Concept {id: $id})
RETURN c.id AS id
