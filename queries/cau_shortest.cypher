// One shortest active causal path between two concepts (Kùzu's BFS form; used as a cross-check and by the bench).
MATCH p = (a:Concept {id: $source})-[:CAUSES|ENABLES|LEADS_TO|PREVENTS* SHORTEST 1..12 (r, n | WHERE r.status = 'active' AND r.polarity)]->(b:Concept {id: $target})
RETURN properties(rels(p), 'fact_id') AS fact_ids, properties(rels(p), 'predicate') AS predicates,
       properties(rels(p), 'confidence') AS confidences, list_product(properties(rels(p), 'confidence')) AS confidence
