// Derived facts that had lost all support and are derived again: active, stamped as this round's delta.
// WITH DISTINCT: in a transaction that created the subject, Kùzu 0.11.3 returns its new relationship once per
// relationship table through a label-free pattern.
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->()
WHERE list_contains($ids, r.fact_id)
WITH DISTINCT r
SET r.status = 'active', r.loaded_at = $stamp
