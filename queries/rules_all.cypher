// Every stored rule, in load order.
MATCH (r:Rule)
RETURN r.id AS id, r.text AS text, r.kind AS kind, r.origin AS origin, r.authority AS authority
ORDER BY r.position, r.id
