// One shortest active causal path between two concepts (Kùzu's BFS form, up to 12 hops): the fallback for
// chains longer than the in-memory best-first search explores, and the bench's Cypher peer.
MATCH p = (a:Concept {id: $source})-[:CAUSES|CAUSES_D|ENABLES|ENABLES_D|LEADS_TO|LEADS_TO_D|PREVENTS|PREVENTS_D* SHORTEST 1..12 (r, n | WHERE r.status = 'active' AND r.polarity)]->(b:Concept {id: $target})
RETURN list_transform(nodes(p), x -> x.id) AS concepts, properties(rels(p), 'fact_id') AS fact_ids,
       properties(rels(p), 'predicate') AS predicates, properties(rels(p), 'confidence') AS confidences,
       properties(rels(p), 'source') AS sources, list_product(properties(rels(p), 'confidence')) AS confidence
