// Every label and alias of every concept, for export.
MATCH (t:Term)-[n:NAMES]->(c:Concept)
WHERE n.kind <> 'id'
RETURN c.id AS concept, n.text AS text, n.lang AS lang, n.kind AS kind
ORDER BY concept, kind DESC, lang, text
