// One episode by id (does it exist).
MATCH (e:Episode {id: $id})
RETURN e.id AS id, e.session AS session
