"""Ingest: turn files (facts tables, ontologies) into a LoadBatch of facts, annotations and declarations."""
