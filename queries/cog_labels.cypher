// Labels of the given concepts in both languages (the responder and the trace builder name concepts with them).
UNWIND $ids AS cid
MATCH (c:Concept {id: cid})
RETURN c.id AS id, c.label_en AS label_en, c.label_ru AS label_ru
