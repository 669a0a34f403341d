// Which of the given ids are concepts already, with their kind.
UNWIND $ids AS i
MATCH (c:Concept {id: i})
RETURN c.id AS id, c.kind AS kind
