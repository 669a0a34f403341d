// Direct active positive instance_of / is_a links up from the given concepts (one level of an upward walk).
UNWIND $ids AS cid
MATCH (x:Concept {id: cid})-[r:IS_A|IS_A_D|INSTANCE_OF|INSTANCE_OF_D]->(p:Concept)
WHERE r.polarity AND r.status = 'active'
RETURN x.id AS concept, p.id AS parent, r.fact_id AS fact_id
