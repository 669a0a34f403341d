// The value stored under a Meta key (zero or one row).
MATCH (m:Meta {key: $key}) RETURN m.value AS value
