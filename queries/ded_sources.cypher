// Trust and authority tier of the named sources.
MATCH (s:Source)
WHERE s.name IN $names
RETURN s.name AS name, s.trust AS trust, s.authority AS authority
