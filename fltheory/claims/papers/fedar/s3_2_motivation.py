"""§3.2 — the motivation of the FedAR paper (seed ``003_7bfc4ba284d104ce.txt``, ``l.N`` its lines):
Fig. 1's Shapley contributions of stale updates (l.192–228), an experiment not executable here.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedar:sec3.2-motivation").executable
False
"""

from fltheory.claims.claim import register_claim

register_claim(
    "fedar:sec3.2-motivation",
    "§3.2, Fig. 1",
    "Shapley contribution of stale updates",
    (192, 228),
    "The Shapley contribution of client 0's stale update decreases with its staleness and is "
    "negative at 'stale 6' (CIFAR-10, 5 clients, 9 rounds).",
    reason="an experiment on CIFAR-10 whose setup (model, data split, Shapley estimator) is "
    "not given; a quadratic proxy would not be the paper's claim.",
)
