"""``python -m fltheory`` runs the CLI."""

from fltheory.cli.app import main

main()
