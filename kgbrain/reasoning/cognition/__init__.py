"""The cognitive loop (seed 001): goals, planner, hypotheses, selection, resource monitor."""
