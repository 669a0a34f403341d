// Append relationships to a table that already holds some. Filled in by KuzuStore.append_rels with
// names from the schema (never user input); the rows always arrive as the $rows parameter.
// Used instead of COPY because in Kùzu 0.11.3 rolling back a COPY into a non-empty relationship
// table destroys the rows that were already there (measured; see kgbrain/store/kuzu_store.py).
LOAD FROM $rows
MATCH (a:@FROM@ {@FROM_KEY@: from_key})
MATCH (b:@TO@ {@TO_KEY@: to_key})
CREATE (a)-[:@TABLE@ {@PROPS@}]->(b)
