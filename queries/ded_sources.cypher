// Trust and authority tier of the named sources.
UNWIND $names AS n
MATCH (s:Source {name: n})
RETURN s.name AS name, s.trust AS trust, s.authority AS authority
