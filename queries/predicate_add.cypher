// Register predicates seen in facts; new ones get the generic defaults (inherited down is_a).
UNWIND $rows AS r
MERGE (p:Predicate {name: r.name})
ON CREATE SET p.transitive = false, p.symmetric = false, p.functional = false, p.inheritable = r.inheritable,
              p.sub_property_of = CAST([], 'STRING[]'), p.source = r.source
