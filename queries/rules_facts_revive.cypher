// Derived facts that had lost all support and are derived again: active, stamped as this round's delta.
UNWIND $subjects AS cid
MATCH (s:Concept {id: cid})-[r]->()
WHERE list_contains($ids, r.fact_id)
SET r.status = 'active', r.loaded_at = $stamp
