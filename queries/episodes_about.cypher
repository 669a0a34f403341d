// The most recent episodes about any of $concepts, with their corrections (text, id, who, when): retrieval's episodic evidence.
// example: {"concepts": ["a"], "limit": 3}
// (A $parameter inside any(x IN ... WHERE ...) trips an assertion in ladybug 0.22: UNWIND instead.)
UNWIND $concepts AS wanted
MATCH (e:Episode)
WHERE list_contains(e.concepts, wanted)
WITH DISTINCT e
OPTIONAL MATCH (c:Correction)-[:CORRECTS]->(e)
WITH e, collect(c.text) AS corrections, collect(c.id) AS correction_ids, collect(c.by) AS corrected_by,
     collect(c.made_at) AS corrected_at
RETURN e.id AS id, e.question AS question, e.intent AS intent, e.concepts AS concepts, e.answer AS answer,
       e.outcome AS outcome, e.confidence AS confidence, e.fact_ids AS fact_ids, e.asked_at AS asked_at,
       e.channel AS channel, e.session AS session, e.as_of AS as_of, corrections,
       correction_ids, corrected_by, corrected_at
ORDER BY asked_at DESC, id
LIMIT $limit
