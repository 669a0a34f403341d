// Schema version 2: truth maintenance. Conflicts between facts are records in the graph (facts are
// edges, so a conflict names its facts by id). `fact_key` (sorted fact ids, or axiom@concept for a
// disjointness violation) makes re-detection idempotent; `adjustments` is a JSON list of events,
// each with the confidences, statuses and source trusts before and after, so nothing is lost.
CREATE NODE TABLE Conflict(id STRING, type STRING, fact_key STRING, fact_ids STRING[], status STRING, strategy STRING, kept_fact STRING, adjustments STRING, explanation STRING, detected_at TIMESTAMP, resolved_at TIMESTAMP, resolved_by STRING, PRIMARY KEY(id));
CREATE NODE TABLE Retraction(fact_id STRING, previous_status STRING, retracted_at TIMESTAMP, retracted_by STRING, reason STRING, PRIMARY KEY(fact_id));
