// Every derivation of each of a few hundred facts (active or lost), with its rule and premises: one scan of
// the fact references instead of a lookup per fact (reasoning/tms/proofs.py explain_many).
// example: {"fact_ids": ["f_1", "f_2"]}
MATCH (f:FactRef)<-[:DERIVES]-(d:Derivation)
WHERE list_contains($fact_ids, f.id)
RETURN f.id AS fact_id, d.id AS id, d.rule AS rule, d.premises AS premises, d.status AS status
ORDER BY fact_id, d.status, d.id
