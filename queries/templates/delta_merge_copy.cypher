// Move the facts of a delta table (@TABLE@_D) into its main table (@TABLE@) by COPY, with every column in the
// table's order (schema.FACT_COLUMNS); delta_clear.cypher then empties the delta in the same transaction. COPY
// into a non-empty relationship table: only on an `atomic` block's working copy, where a failure discards the
// copy (a rolled-back COPY wipes the table's older rows on kuzu 0.11.3; see kgbrain/store/kuzu_store.py).
COPY @TABLE@ FROM (
  MATCH (a:@FROM@)-[r:@TABLE@_D]->(b:@TO@)
  RETURN a.id, b.id, r.fact_id, r.predicate, r.polarity, r.confidence, r.source, r.trust, r.authority,
         r.observed_at, r.loaded_at, r.status, r.lang, r.valid_from, r.valid_to
)
