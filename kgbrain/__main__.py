"""`python -m kgbrain` runs the command line."""

from kgbrain.cli import main

main()
