// Set a source's trust (from a source_trust row, or a person's decision).
MERGE (s:Source {name: $name})
SET s.trust = $trust
