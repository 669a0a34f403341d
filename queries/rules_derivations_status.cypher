// Every recorded derivation's id and status (active / lost): what the in-memory executor's run adds to.
MATCH (d:Derivation)
RETURN d.id AS id, d.status AS status
