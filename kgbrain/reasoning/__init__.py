"""Reasoning: the four modes, contradictions, and the cognitive loop above them."""
