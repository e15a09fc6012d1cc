"""Exceptions that carry a one-line, user-facing message.

The CLI turns every :class:`FLTheoryError` into that message on stderr and exit status 2.
"""


class FLTheoryError(ValueError):
    """Base class: bad input or a question the toolkit cannot answer honestly.

    >>> from fltheory.markov import ProductChain
    >>> try:
    ...     ProductChain([1.5], [0.0])
    ... except FLTheoryError as err:
    ...     print(type(err).__name__)
    InputError
    """


class InputError(FLTheoryError):
    """Malformed input: wrong shape, out-of-range value, unreadable file."""


class AssumptionViolation(FLTheoryError):
    """A paper assumption (e.g. Assumption 1: irreducible, aperiodic chain) does not hold."""


class NumericalError(FLTheoryError):
    """A floating-point answer would be unreliable (e.g. a near-defective spectrum)."""
