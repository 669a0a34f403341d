// Every known source with its trust and authority tier.
MATCH (s:Source)
RETURN s.name AS name, s.trust AS trust, s.authority AS authority
ORDER BY name
