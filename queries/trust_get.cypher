// Current trust of the given sources (unknown names are simply absent).
UNWIND $names AS n
MATCH (s:Source {name: n})
RETURN s.name AS name, s.trust AS trust
