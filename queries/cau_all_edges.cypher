// Every active positive causal edge (causes, enables, leads_to, prevents): the in-memory causal mirror.
MATCH (a:Concept)-[r:CAUSES|ENABLES|LEADS_TO|PREVENTS]->(b:Concept)
WHERE r.status = 'active' AND r.polarity
RETURN a.id AS subject, r.predicate AS predicate, b.id AS object, r.confidence AS confidence, r.fact_id AS fact_id,
       r.source AS source
