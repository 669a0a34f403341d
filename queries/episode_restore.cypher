// Restore exported episodes as they were; an episode already present is left alone.
// example: {"rows": [{"id": "ep_1", "question": "q", "intent": "wh", "concepts": ["a"], "answer": "x", "outcome": "", "confidence": 1.0, "fact_ids": ["f_1"], "asked_at": "2026-01-01T00:00:00", "channel": "cli", "session": "", "as_of": ""}]}
UNWIND $rows AS r
MERGE (e:Episode {id: r.id})
ON CREATE SET e.question = r.question, e.intent = r.intent, e.concepts = CAST(r.concepts, 'STRING[]'),
              e.answer = r.answer, e.outcome = r.outcome, e.confidence = CAST(r.confidence, 'DOUBLE'),
              e.fact_ids = CAST(r.fact_ids, 'STRING[]'), e.asked_at = CAST(r.asked_at, 'TIMESTAMP'),
              e.channel = r.channel, e.session = r.session, e.as_of = r.as_of
