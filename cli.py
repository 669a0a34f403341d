from kgbrain.cli import main

main()
