// Schema version 4: rules and derivations (issue #11). A Rule row keeps the rule's text (parsed back with
// kgbrain.ingest.rule_syntax) and where it came from; RuleOrder holds `stronger > weaker` statements.
// A Derivation is one way a derived fact was derived: the rule and the premise fact ids. Facts are edges,
// so a FactRef node stands for a fact id, and DERIVES/USES link derivations to the fact they derive and
// the facts they use: "what did this premise support" is then a primary-key lookup, not a scan.
// Derivation.status is `active`, or `lost` once a premise stopped being active (kept, never deleted).
CREATE NODE TABLE Rule(id STRING, text STRING, kind STRING, origin STRING, authority STRING, position INT64, PRIMARY KEY(id));
CREATE NODE TABLE RuleOrder(id STRING, stronger STRING, weaker STRING, PRIMARY KEY(id));
CREATE NODE TABLE FactRef(id STRING, PRIMARY KEY(id));
CREATE NODE TABLE Derivation(id STRING, rule STRING, fact_id STRING, premises STRING[], status STRING, PRIMARY KEY(id));
CREATE REL TABLE DERIVES(FROM Derivation TO FactRef);
CREATE REL TABLE USES(FROM Derivation TO FactRef);
