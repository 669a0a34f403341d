// Every stored superiority statement.
MATCH (o:RuleOrder)
RETURN o.stronger AS stronger, o.weaker AS weaker
ORDER BY o.id
