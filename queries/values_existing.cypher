// Which of the given literal ids exist already.
UNWIND $ids AS i
MATCH (v:Value {id: i})
RETURN v.id AS id
