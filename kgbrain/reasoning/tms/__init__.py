"""Truth maintenance: contradictions, their resolution, withdrawal and settling, proofs."""
