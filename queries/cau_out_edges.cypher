// Active positive causal edges (causes, enables, leads_to, prevents) leaving the given concepts.
UNWIND $ids AS i
MATCH (a:Concept {id: i})-[r:CAUSES|ENABLES|LEADS_TO|PREVENTS]->(b:Concept)
WHERE r.status = 'active' AND r.polarity
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.confidence AS confidence, r.fact_id AS fact_id,
       r.source AS source
