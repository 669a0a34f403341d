"""The four reasoning modes (seed 001 §2) and the indexes only they use."""
