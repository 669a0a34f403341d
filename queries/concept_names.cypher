// Every label and alias of one concept.
MATCH (t:Term)-[n:NAMES]->(c:Concept {id: $id})
RETURN t.key AS key, n.text AS text, n.lang AS lang, n.kind AS kind
ORDER BY kind DESC, lang, text
