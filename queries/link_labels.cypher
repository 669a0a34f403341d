// Preferred labels, kind and descriptions of the given concepts.
MATCH (c:Concept)
WHERE c.id IN $ids
RETURN c.id AS id, c.kind AS kind, c.label_en AS label_en, c.label_ru AS label_ru,
       c.description_en AS description_en, c.description_ru AS description_ru, c.description AS description
