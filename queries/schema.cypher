// Schema version 1. Applied once, in one transaction, when a database is created.
// Every fact is an edge so reasoning can traverse it in Cypher; all fact tables share the same
// provenance columns (see FACT_COLUMNS in kgbrain/store/schema.py, which must match).
CREATE NODE TABLE Meta(key STRING, value STRING, PRIMARY KEY(key));
CREATE NODE TABLE Concept(id STRING, kind STRING, label_en STRING, label_ru STRING, description_en STRING, description_ru STRING, description STRING, PRIMARY KEY(id));
CREATE NODE TABLE Term(key STRING, PRIMARY KEY(key));
CREATE REL TABLE NAMES(FROM Term TO Concept, text STRING, lang STRING, kind STRING);
CREATE NODE TABLE Value(id STRING, lexical STRING, datatype STRING, unit STRING, lang STRING, number DOUBLE, PRIMARY KEY(id));
CREATE NODE TABLE Predicate(name STRING, transitive BOOLEAN, symmetric BOOLEAN, functional BOOLEAN, inheritable BOOLEAN, inverse_of STRING, opposite_of STRING, sub_property_of STRING[], domain STRING, range STRING, source STRING, PRIMARY KEY(name));
CREATE NODE TABLE Source(name STRING, trust DOUBLE, authority STRING, PRIMARY KEY(name));
CREATE REL TABLE IS_A(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE INSTANCE_OF(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE PART_OF(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE HAS_PROPERTY(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE CAUSES(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE ENABLES(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE LEADS_TO(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE PREVENTS(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE RELATED_TO(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE DISJOINT_WITH(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE REL(FROM Concept TO Concept, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
CREATE REL TABLE ATTR(FROM Concept TO Value, fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING);
