// The success history of every action type chosen so far.
MATCH (a:ActionStat)
RETURN a.action AS action, a.attempts AS attempts, a.successes AS successes
ORDER BY action
