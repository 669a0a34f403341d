// Nodes standing for fact ids (facts are edges), so derivations can link to them.
LOAD FROM $rows
MERGE (:FactRef {id: id})
