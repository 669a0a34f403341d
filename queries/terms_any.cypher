// One term key, if there is any name at all (lets a first load skip looking up every key it adds).
MATCH (t:Term)
RETURN t.key AS key
LIMIT 1
