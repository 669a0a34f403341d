// Every fact id a derivation links to already (read before a bulk write adds the missing ones).
MATCH (f:FactRef)
RETURN f.id AS id
