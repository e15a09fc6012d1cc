"""fltheory: federated learning theory under heterogeneous, correlated client availability.

Packages: ``markov`` (availability chains and their constants), ``problems``, ``bounds``,
``optimize``, ``limits``, ``sim``, ``testing`` (hypothesis strategies) and ``cli``.
"""

__version__ = "0.1.0"
