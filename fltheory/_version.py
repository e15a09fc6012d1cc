"""The package version, on the ground floor: :mod:`fltheory.provenance`, the CLI and the build
(``pyproject.toml`` reads it from here) take it from this module, not from the top package."""

__version__ = "0.1.0"
