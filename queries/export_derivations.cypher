// Every derivation record (any status), for export: the rule, the fact it derives and its premises.
MATCH (d:Derivation)
RETURN d.id AS id, d.rule AS rule, d.fact_id AS fact_id, d.premises AS premises, d.status AS status
ORDER BY d.id
