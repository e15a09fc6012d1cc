"""An example fltheory plug-in: the γ-weighted aggregation rule and two claims about it.

* :mod:`gamma_rule.algorithm` — the ``[[algorithms]]`` entry ``name = "gamma_weights"``:
  q_k = α_k/π_k^γ for the active clients (γ = 0: FedAvg with q = α; γ = 1: unbiased);
* :mod:`gamma_rule.claims` — the lemmas ``gammarule:lemma1`` (a bias bound, holds) and
  ``gammarule:lemma2-linear`` (a plausible but false sharpening), searched by
  ``fltheory check --plugin gamma_rule``.

Importing the package registers both (``--plugin gamma_rule``, ``FLTHEORY_PLUGINS=gamma_rule``);
installed, its entry points do it without asking (``pyproject.toml``).
"""

from gamma_rule import algorithm, claims

__all__ = ["algorithm", "claims"]
