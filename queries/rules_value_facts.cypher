// Active facts whose target is a literal value, for the in-memory rule executor and `kgbrain query`
// (concept-to-concept facts come from the reasoner's mirror, queries/graph_facts.cypher).
MATCH (s:Concept)-[r:ATTR|ATTR_D]->(v:Value)
WHERE r.status = $status
RETURN s.id AS subject, r.predicate AS predicate, v.lexical AS value, v.number AS number, v.datatype AS datatype,
       v.unit AS unit, r.polarity AS polarity, r.fact_id AS fact_id
