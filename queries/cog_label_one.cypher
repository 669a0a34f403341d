// Labels of one concept in both languages (a primary-key lookup; see cog_labels for many).
MATCH (c:Concept {id: $id})
RETURN c.id AS id, c.label_en AS label_en, c.label_ru AS label_ru
