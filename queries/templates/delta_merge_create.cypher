// Move the facts of a delta table (@TABLE@_D) into its main table (@TABLE@) row by row, which rolls back
// cleanly on both engines: the merge of a database that cannot go through a working copy (in memory, or a
// server's, shared with its readers). delta_clear.cypher then empties the delta in the same transaction.
MATCH (a:@FROM@)-[r:@TABLE@_D]->(b:@TO@)
CREATE (a)-[:@TABLE@ {fact_id: r.fact_id, predicate: r.predicate, polarity: r.polarity, confidence: r.confidence,
                      source: r.source, trust: r.trust, authority: r.authority, observed_at: r.observed_at,
                      loaded_at: r.loaded_at, status: r.status, lang: r.lang, valid_from: r.valid_from,
                      valid_to: r.valid_to}]->(b)
