// Store a Meta key/value pair, replacing any earlier value.
MERGE (m:Meta {key: $key}) SET m.value = $value
