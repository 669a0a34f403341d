// How many facts wait in a delta table (@TABLE@_D) to be merged into @TABLE@.
MATCH ()-[r:@TABLE@_D]->() RETURN count(*) AS n
