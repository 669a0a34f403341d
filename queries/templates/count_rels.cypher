// Whether a relationship table holds anything (LIMIT keeps it cheap on big tables).
MATCH ()-[r:@TABLE@]->() RETURN count(*) AS n LIMIT 1
