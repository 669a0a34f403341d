// Labels of the given concepts in both languages (for answers and digests).
UNWIND $ids AS cid
MATCH (c:Concept {id: cid})
RETURN c.id AS id, c.label_en AS label_en, c.label_ru AS label_ru
