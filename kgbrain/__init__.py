"""kgbrain: explainable knowledge reasoning over an embedded Kùzu graph, in Russian and English."""

from kgbrain.api import Brain

__all__ = ["Brain"]
__version__ = "0.1.0"
