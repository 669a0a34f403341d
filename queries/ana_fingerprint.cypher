// A cheap fingerprint of the data the analogy index is built from: counts of concepts and active facts.
MATCH (c:Concept)
WITH count(c) AS concepts
OPTIONAL MATCH (:Concept)-[r]->()
WHERE r.fact_id IS NOT NULL AND r.status = 'active'
RETURN concepts, count(r) AS facts
