// Preferred labels, kind and descriptions of one concept (bound by primary key: at 200k concepts an
// `id IN $list` form scans, ~25 ms, while this is a ~1 ms lookup).
MATCH (c:Concept {id: $id})
RETURN c.id AS id, c.kind AS kind, c.label_en AS label_en, c.label_ru AS label_ru,
       c.description_en AS description_en, c.description_ru AS description_ru, c.description AS description
