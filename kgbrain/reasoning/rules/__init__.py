"""Rules: compilation to Cypher, the semi-naive engine, truth maintenance and proofs (issue #11)."""
