// Record sources seen for the first time, with the trust and authority tier they arrived with.
UNWIND $rows AS r
MERGE (s:Source {name: r.name})
ON CREATE SET s.trust = r.trust, s.authority = r.authority
ON MATCH SET s.authority = coalesce(s.authority, r.authority)
