// Set the trust of several sources at once, creating unknown ones.
// example: {"rows": [{"name": "forum/x", "trust": 0.4}]}
UNWIND $rows AS r
MERGE (s:Source {name: r.name})
SET s.trust = CAST(r.trust, 'DOUBLE')
