// Which of the given derivation ids are recorded already, with their status (active / lost).
MATCH (d:Derivation)
WHERE d.id IN $ids
RETURN d.id AS id, d.status AS status
