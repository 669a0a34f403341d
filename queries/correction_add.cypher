// A person's correction of an episode, linked to it.
// example: {"episode": "ep_1", "id": "co_1", "text": "t", "by": "me", "made_at": "2026-12-02 18:00:00"}
MATCH (e:Episode {id: $episode})
CREATE (c:Correction {id: $id, text: $text, by: $by, made_at: timestamp($made_at)})-[:CORRECTS]->(e)
