"""Memory: concept linking, retrieval, evidence packs and source trust."""
