// Which of the given fact keys already have a conflict record.
UNWIND $keys AS k
MATCH (c:Conflict)
WHERE c.fact_key = k
RETURN DISTINCT k AS fact_key
