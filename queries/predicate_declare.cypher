// Apply predicate declarations (flags and links), keeping anything not mentioned.
// Flags arrive as NULL when not declared; a batch of all-NULL values is typed STRING, hence the casts.
UNWIND $rows AS r
MATCH (p:Predicate {name: r.name})
SET p.transitive = coalesce(CAST(r.transitive, 'BOOLEAN'), p.transitive),
    p.symmetric = coalesce(CAST(r.symmetric, 'BOOLEAN'), p.symmetric),
    p.functional = coalesce(CAST(r.functional, 'BOOLEAN'), p.functional),
    p.inheritable = coalesce(CAST(r.inheritable, 'BOOLEAN'), p.inheritable),
    p.inverse_of = coalesce(r.inverse_of, p.inverse_of),
    p.opposite_of = coalesce(r.opposite_of, p.opposite_of),
    p.domain = coalesce(r.domain, p.domain),
    p.range = coalesce(r.range, p.range),
    p.sub_property_of = list_distinct(list_concat(p.sub_property_of, CAST(r.sub_property_of, 'STRING[]')))
