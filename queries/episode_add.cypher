// Store one episode (memory/episodes.py).
// example: {"id": "ep_1", "question": "q", "intent": "define", "concepts": ["a"], "answer": "x", "outcome": "", "confidence": 0.5, "fact_ids": ["f"], "asked_at": "2026-12-02 18:00:00", "channel": "cli", "session": "", "as_of": ""}
CREATE (:Episode {id: $id, question: $question, intent: $intent, concepts: $concepts, answer: $answer,
                  outcome: $outcome, confidence: $confidence, fact_ids: $fact_ids, asked_at: timestamp($asked_at),
                  channel: $channel, session: $session, as_of: $as_of})
