"""Every checkable statement of the seed papers as a claim, searched adversarially.

* :mod:`~fltheory.claims.space` — instance spaces sampled up to their boundary;
* :mod:`~fltheory.claims.claim` — :class:`Claim`, :class:`Source` and the registry
  :data:`CLAIMS` (filled by :mod:`fltheory.claims.papers`);
* :mod:`~fltheory.claims.falsifier` — :func:`falsify`: sampling, local descent, hypothesis,
  shrinking and exact re-verification, giving a :class:`Verdict`.

Your own lemma, searched by the same falsifier — from Python or a pytest test; name your work
with :func:`register_paper`, and :func:`register` the claim in a plug-in module to have
``fltheory check --plugin MODULE`` search it with the papers' verdicts and output
(``docs/own_code.md``):

>>> from unittest import mock
>>> from fltheory.claims import Claim, Real, Source, Space, falsify, register_paper
>>> with mock.patch.dict("fltheory.papers.OWN_PAPERS"):  # a throwaway registration
...     _ = register_paper("mylab", "Our note on γ-weighted aggregation (2025)")
...     lemma = Claim(
...         "mylab:lemma1", Source("mylab", "§2", "Lemma 1"),
...         "π^(−γ) ≥ 1 for π ∈ (0, 1], γ ≥ 0: the γ-rule never down-weights a client",
...         Space([Real("pi", 0.0, 1.0, closed=(False, True)), Real("gamma", 0.0, 3.0)]),
...         margin=lambda i: i["pi"] ** -i["gamma"] - 1.0,
...     )
...     falsify(lemma, budget=200, seed=0).verdict
'holds'
"""

from fltheory.claims.claim import CLAIMS, Claim, register, register_claim
from fltheory.claims.falsifier import Verdict, falsify
from fltheory.claims.space import Integer, Real, Simplex, Space
from fltheory.papers import OWN_PAPERS, PAPERS, Source, register_paper

__all__ = [
    "CLAIMS",
    "OWN_PAPERS",
    "PAPERS",
    "Claim",
    "Integer",
    "Real",
    "Simplex",
    "Source",
    "Space",
    "Verdict",
    "falsify",
    "register",
    "register_claim",
    "register_paper",
]
