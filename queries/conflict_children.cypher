// Direct active positive instance_of / is_a links down from the given classes (one level of a downward walk).
// Walked level by level from Python rather than with a recursive pattern: inside a load transaction,
// Kùzu 0.11.3 ran out of buffer pool on recursive patterns over relationships created in that transaction.
UNWIND $ids AS cid
MATCH (x:Concept)-[r:IS_A|IS_A_D|INSTANCE_OF|INSTANCE_OF_D]->(p:Concept {id: cid})
WHERE r.polarity AND r.status = 'active'
RETURN x.id AS concept, p.id AS parent, r.fact_id AS fact_id
