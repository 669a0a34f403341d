// Every declared predicate with how the reasoner treats it.
MATCH (p:Predicate)
RETURN p.name AS name, p.transitive AS transitive, p.symmetric AS symmetric, p.functional AS functional,
       p.inheritable AS inheritable, p.inverse_of AS inverse_of, p.opposite_of AS opposite_of,
       p.sub_property_of AS sub_property_of, p.domain AS domain, p.range AS range, p.source AS source
ORDER BY name
