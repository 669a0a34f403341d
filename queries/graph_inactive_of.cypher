// Which of these concepts are at either end of an inactive fact between two concepts (the mirror's `inactive`).
// example: {"ids": ["neuron"]}
UNWIND $ids AS cid
MATCH (a:Concept {id: cid})-[r]-(b:Concept)
WHERE r.fact_id IS NOT NULL AND r.status <> 'active'
RETURN DISTINCT cid AS id
