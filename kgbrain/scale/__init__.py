"""Scale-out: verification, contradiction scans and rule materialisation on Apache Spark.

Spark is an engine here, not a second reasoner: every verdict, conflict and derived fact is made by the code
the embedded path runs (the gather/decide split of reasoning/views/lookups.py; `tms.contradictions`; the rule
program as `reasoning.rules` compiles it). pyspark is imported lazily, inside these modules' functions, so
`kgbrain ask` and every other command never load it; it comes with the `spark` extra.
"""
