// Restore exported corrections, each linked to its episode; a correction already present is left alone.
// example: {"rows": [{"episode": "ep_1", "id": "co_1", "text": "t", "by": "me", "made_at": "2026-01-01T00:00:00"}]}
UNWIND $rows AS r
MATCH (e:Episode {id: r.episode})
MERGE (c:Correction {id: r.id})
ON CREATE SET c.text = r.text, c.by = r.by, c.made_at = CAST(r.made_at, 'TIMESTAMP')
MERGE (c)-[:CORRECTS]->(e)
