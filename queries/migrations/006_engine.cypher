// Schema version 6: the engine moves from Kùzu 0.11.3 to LadybugDB 0.22.0 (issue #25); the tables stay as they were.
// The two engines cannot open each other's files. `kgbrain migrate OLD NEW` copies a Kùzu file into a Ladybug one
// (Parquet EXPORT/IMPORT keeps the schema version), so a file below 6 opened on Ladybug came through it, and one at
// 6 or above was written since the switch. The Meta row says so to someone reading the file with another tool.
MERGE (m:Meta {key: 'storage_format'}) SET m.value = 'written by kgbrain on ladybug 0.22 (or kuzu 0.11.3 with KGBRAIN_BACKEND=kuzu)';
