// How many stored rules derive owl:sameAs (head `same_as`, from prp-fp, prp-ifp, prp-key, cls-maxc2, cls-maxqc3/4).
MATCH (r:Rule)
WHERE r.text CONTAINS $head AND r.origin <> $generic
RETURN count(*) AS n
