"""cafed:lemma1: the margin at a hand-checked instance, its failure when the constants are made
too small (the margin can fail) and the search then refuting it (its verdict as declared:
test_expected_verdicts.py)."""

import numpy as np
import pytest

from fltheory.claims import CLAIMS, falsify
from fltheory.claims.papers.cafed.s3a_lemma1 import EXAMPLE, _boundary_extremes
from fltheory.problems.quadratic import QuadraticProblem

CLAIM = CLAIMS.get("cafed:lemma1")


def test_boundary_extremes_against_a_dense_circle():
    H = np.array([[3.0, 1.0], [1.0, 0.5]])
    a, r = np.array([0.4, -1.2]), 0.7
    theta = np.linspace(0, 2 * np.pi, 400_001)
    x = a + r * np.stack([np.cos(theta), np.sin(theta)], axis=1)
    hx = x @ H.T
    q = 0.5 * np.einsum("ij,ij->i", x, hx)
    g_max, q_max, q_min = _boundary_extremes(H, a, r)
    assert g_max == pytest.approx(np.linalg.norm(hx, axis=1).max(), rel=1e-10)
    assert q_max == pytest.approx(q.max(), rel=1e-10)
    assert q_min == pytest.approx(q.min(), rel=1e-10)


def test_tight_at_isotropic_clients():
    # unit Hessians: D = max_k(|c − u_k| + r) is attained on ∂W, so the margin is exactly 0
    assert CLAIM.margin(EXAMPLE) == pytest.approx(0.0, abs=1e-12)


def test_the_margin_fails_when_D_is_too_small(monkeypatch):
    original = QuadraticProblem.lemma1

    def shrunk(self, center, diameter, sigma):
        D, G, H = original(self, center, diameter, sigma)
        return 0.99 * D, G, H

    monkeypatch.setattr(QuadraticProblem, "lemma1", shrunk)
    assert CLAIM.margin(EXAMPLE) == pytest.approx(-0.01, rel=1e-6)
    assert falsify(CLAIM, budget=150, seed=0).verdict == "refuted"
