"""Answering: the Reasoner, its one decision for ask/verify/check-answer, intents, verify."""
