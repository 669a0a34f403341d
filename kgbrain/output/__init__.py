"""Output: trace builder, response validator, hedged responder, action proposer, logs."""
