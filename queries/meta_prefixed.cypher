// Every Meta key/value pair whose key starts with $prefix (the predicate IRIs: 'predicate_iri ').
MATCH (m:Meta) WHERE starts_with(m.key, $prefix) RETURN m.key AS key, m.value AS value ORDER BY key
