// Every episode with all its columns and its corrections, for export (oldest first: a reload keeps the order).
MATCH (e:Episode)
OPTIONAL MATCH (c:Correction)-[:CORRECTS]->(e)
WITH e, collect(c.id) AS correction_ids, collect(c.text) AS correction_texts, collect(c.by) AS correction_by,
     collect(c.made_at) AS correction_made_at
RETURN e.id AS id, e.question AS question, e.intent AS intent, e.concepts AS concepts, e.answer AS answer,
       e.outcome AS outcome, e.confidence AS confidence, e.fact_ids AS fact_ids, e.asked_at AS asked_at,
       e.channel AS channel, e.session AS session, e.as_of AS as_of, correction_ids, correction_texts,
       correction_by, correction_made_at
ORDER BY asked_at, id
