// Store superiority statements `stronger > weaker` (rows of id, stronger, weaker).
LOAD FROM $rows
MERGE (o:RuleOrder {id: id})
ON CREATE SET o.stronger = stronger, o.weaker = weaker
