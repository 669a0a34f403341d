// Episodes asked at or after $since about $concept ('' for any), oldest first, with their corrections
// (text, id, who, when).
// example: {"since": "2000-01-01 00:00:00", "concept": ""}
MATCH (e:Episode)
WHERE e.asked_at >= timestamp($since) AND ($concept = '' OR list_contains(e.concepts, $concept))
OPTIONAL MATCH (c:Correction)-[:CORRECTS]->(e)
WITH e, collect(c.text) AS corrections, collect(c.id) AS correction_ids, collect(c.by) AS corrected_by,
     collect(c.made_at) AS corrected_at
RETURN e.id AS id, e.question AS question, e.intent AS intent, e.concepts AS concepts, e.answer AS answer,
       e.outcome AS outcome, e.confidence AS confidence, e.fact_ids AS fact_ids, e.asked_at AS asked_at,
       e.channel AS channel, e.session AS session, e.as_of AS as_of, corrections,
       correction_ids, corrected_by, corrected_at
ORDER BY asked_at, id
