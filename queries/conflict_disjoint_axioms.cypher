// Active positive disjointness axioms: the fact and the two classes.
MATCH (a:Concept)-[d:DISJOINT_WITH|DISJOINT_WITH_D]->(b:Concept)
WHERE d.polarity AND d.status = 'active'
RETURN d.fact_id AS axiom, a.id AS left, b.id AS right
