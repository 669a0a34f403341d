// The active derivations a rule has recorded (compared with a re-evaluation of the rule).
MATCH (d:Derivation)
WHERE d.rule = $rule AND d.status = 'active'
RETURN d.id AS id, d.fact_id AS fact_id
