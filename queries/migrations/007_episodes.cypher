// Schema version 7: episodic memory (issue #24). One Episode per recorded answer (the question, how it was
// understood, the answer and verdict, the facts it used, when and through which channel), and the corrections a
// person made to it. Episodes are evidence of what was asked and answered, never proof of a fact; they are the
// one thing a person may delete (`kgbrain forget-episodes`). IF NOT EXISTS: a file whose version row says 5 or 6
// but whose tables came from a later kgbrain (tests/store/test_engine_migration.py makes one) migrates too.
CREATE NODE TABLE IF NOT EXISTS Episode(id STRING, question STRING, intent STRING, concepts STRING[], answer STRING, outcome STRING, confidence DOUBLE, fact_ids STRING[], asked_at TIMESTAMP, channel STRING, session STRING, as_of STRING, PRIMARY KEY(id));
CREATE NODE TABLE IF NOT EXISTS Correction(id STRING, text STRING, by STRING, made_at TIMESTAMP, PRIMARY KEY(id));
CREATE REL TABLE IF NOT EXISTS CORRECTS(FROM Correction TO Episode);
