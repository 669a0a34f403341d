// Which of the given term keys exist already.
UNWIND $keys AS k
MATCH (t:Term {key: k})
RETURN t.key AS key
