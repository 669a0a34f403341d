// Fill preferred labels and descriptions that an existing concept does not have yet; mark individuals.
UNWIND $rows AS r
MATCH (c:Concept {id: r.id})
SET c.label_en = coalesce(c.label_en, r.label_en),
    c.label_ru = coalesce(c.label_ru, r.label_ru),
    c.description_en = coalesce(c.description_en, r.description_en),
    c.description_ru = coalesce(c.description_ru, r.description_ru),
    c.description = coalesce(c.description, r.description),
    c.kind = CASE WHEN r.kind = 'individual' THEN 'individual' ELSE c.kind END
