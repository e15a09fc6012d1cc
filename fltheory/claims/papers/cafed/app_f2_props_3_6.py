"""CA-Fed (ToN) App. F2, Props. 3–6, eqs. (231)–(234): the Kronecker product of independent
client chains — its stationary law (Prop. 3), eigenvectors u ⊗ v (Prop. 4), spectrum (Prop. 5)
and λ̄₂(⊗P_k) = max_k λ̄₂(P_k), λ(⊗P_k) = max_k λ(P_k) (Prop. 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.finding import Reading
from fltheory.claims.papers.cafed import _chain_oracles as orc
from fltheory.claims.papers.cafed._chains import (
    ASSUMPTION1,
    UNDERFLOW,
    clients_params,
    two_state_exact,
)
from fltheory.claims.space import Instance, Integer, Real, Simplex, Space


@dataclass
class _Product:
    """Two-state clients (library ProductChain) times an optional general 3-state factor G."""

    pi: np.ndarray
    l2: np.ndarray
    G: orc.Matrix | None
    chain: Any  # ProductChain
    g_chain: Any  # MarkovChain of G, or None

    def dense(self) -> np.ndarray:
        P = self.chain.dense_matrix()
        return P if self.G is None else np.kron(P, orc.to_float(self.G))

    def exact_dense(self) -> orc.Matrix:
        P: orc.Matrix = [[Fraction(1)]]
        for x, y in zip(self.pi, self.l2, strict=True):
            P = orc.kron(P, two_state_exact(Fraction(float(x)), Fraction(float(y))))
        return P if self.G is None else orc.kron(P, self.G)


def _build_product(inst: Instance) -> _Product:
    from fltheory.markov import MarkovChain, ProductChain

    pi = np.asarray(inst["pi"], dtype=float)
    l2 = np.asarray(inst["l2"], dtype=float)
    chain = ProductChain(pi, l2)
    G = g_chain = None
    if int(inst["G"]):
        G, _ = orc.dense_chain(
            [np.asarray(inst[f"g{i}"], dtype=float) for i in range(3)],
            orc.rat(inst["glazy"]),
            Fraction(0),
        )
        g_chain = MarkovChain.from_rational(G)
    return _Product(pi, l2, G, chain, g_chain)


def _prop_space(max_clients: int = 4) -> Space:
    return Space(
        [
            *clients_params(max_clients),
            Integer("G", 0, 1),
            *(Simplex(f"g{i}", 3) for i in range(3)),
            Real("glazy", 0.0, 1.0, closed=(True, False), special=(0.0,)),
        ]
    )


def _prop3(inst: Instance) -> float:
    from fltheory.markov import MarkovChain

    pc = _build_product(inst)
    rho = pc.chain.stationary
    if pc.g_chain is not None:
        rho = np.kron(rho, pc.g_chain.stationary)
    dense = MarkovChain(pc.dense()).stationary  # GTH on the Kronecker matrix
    # relative error; entries below 1e-280 (products of tiny π's, down to 0 by underflow) are
    # compared on that absolute scale
    scale = np.maximum(np.maximum(rho, dense), UNDERFLOW)
    return 1e-9 - float(np.max(np.abs(rho - dense) / scale))


def _prop3_exact(inst: Instance) -> ExactMargin:
    pc = _build_product(inst)
    rho: list[Fraction] = [Fraction(1)]
    for x in pc.pi:
        p = Fraction(float(x))
        rho = [a * b for a in rho for b in (1 - p, p)]
    if pc.G is not None:
        rho = [a * b for a in rho for b in orc.exact_stationary(pc.G)]
    P = pc.exact_dense()
    M = len(P)
    stationary = all(sum(rho[i] * P[i][j] for i in range(M)) == rho[j] for j in range(M))
    return (Fraction(1, 10**9) if stationary else Fraction(-1)), "ρᵀP = ρᵀ in exact rationals"


def _factor_eig(pc: _Product) -> list[tuple[list[complex], np.ndarray, np.ndarray]]:
    """Per factor: eigenvalues, right eigenvectors (columns), left eigenvectors (rows)."""
    from fltheory.markov.two_state import two_state_eigenvectors

    out = []
    for x, y in zip(pc.pi, pc.l2, strict=True):
        U, V = two_state_eigenvectors(float(x))  # library: columns u, rows v (left)
        out.append(([1.0 + 0j, complex(float(y))], U.astype(complex), V.astype(complex)))
    if pc.G is not None:
        Gf = orc.to_float(pc.G)
        w, U = np.linalg.eig(Gf)
        out.append(([complex(z) for z in w], U, np.linalg.inv(U)))
    return out


def _prop4(inst: Instance) -> float:
    pc = _build_product(inst)
    P = pc.dense().astype(complex)
    factors = _factor_eig(pc)
    worst = 0.0
    for combo in np.ndindex(*(len(f[0]) for f in factors)):
        mu = np.prod([f[0][i] for f, i in zip(factors, combo, strict=True)])
        u = np.ones(1, dtype=complex)
        v = np.ones(1, dtype=complex)
        for f, i in zip(factors, combo, strict=True):
            u = np.kron(u, f[1][:, i])
            v = np.kron(v, f[2][i, :])
        right = np.linalg.norm(P @ u - mu * u) / np.linalg.norm(u)
        left = np.linalg.norm(v @ P - mu * v) / np.linalg.norm(v)
        worst = max(worst, float(right), float(left))
    return 1e-9 - worst


def _prop5(inst: Instance) -> float:
    from scipy.optimize import linear_sum_assignment

    pc = _build_product(inst)
    eig = np.linalg.eigvals(pc.dense())
    factors = _factor_eig(pc)
    products = np.array(
        [
            np.prod([f[0][i] for f, i in zip(factors, combo, strict=True)])
            for combo in np.ndindex(*(len(f[0]) for f in factors))
        ]
    )
    cost = np.abs(eig[:, None] - products[None, :])
    rows, cols = linear_sum_assignment(cost)
    return 1e-7 - float(cost[rows, cols].max())


def _prop6(inst: Instance) -> float:
    pc = _build_product(inst)
    eig = np.linalg.eigvals(pc.dense())
    eig = np.delete(eig, np.argmin(np.abs(eig - 1.0)))  # one copy of the eigenvalue 1
    dense_slem = float(np.max(np.abs(eig))) if eig.size else 0.0
    factor_slems = [pc.chain.slem] + ([pc.g_chain.constants().slem] if pc.g_chain else [])
    factor_lams = [pc.chain.lam] + ([pc.g_chain.constants().lam] if pc.g_chain else [])
    slem, lam = max(factor_slems), max(factor_lams)
    return 1e-9 - max(abs(slem - dense_slem), abs(lam - (dense_slem + 1.0) / 2.0))


_PROP_NOTES = (
    "Factors: N ≤ 4 two-state clients (the library's ProductChain: π, λ₂ including negative, "
    "zero and tied values) and, with G = 1, a general 3-state factor (rational, possibly "
    "non-reversible, complex eigenvalues; the library's MarkovChain) — Props. 3–5 hold for any "
    "square factors, Prop. 6 for irreducible aperiodic ones. The dense matrix is "
    "ProductChain.dense_matrix() ⊗ G. "
)

register_claim(
    "cafed:prop3",
    "App. F2 Prop. 3, eq. (231)",
    "stationary law of P₁ ⊗ P₂",
    (1496, 1500),
    "the stationary distribution of P₁ ⊗ P₂ is π₁ ⊗ π₂",
    space=_prop_space(),
    margin=_prop3,
    exact=_prop3_exact,
    tolerance=0.0,
    budget=300,
    expected="holds",
    reading=Reading(
        quote="Proposition 3. The stationary distribution of the Markov chain defined by P̃ = "
        "P₁ ⊗ P₂ is the Kronecker product ρ̃ = π₁ ⊗ π₂.",
        hypotheses=(ASSUMPTION1,),
        interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
        "general 3-state factor with complex eigenvalues; narrower than the paper (any "
        "square factors) in the number and size of factors only, for exact and dense "
        "computations within the time allowance.",
    ),
    notes=_PROP_NOTES + "Margin 1e-9 − max relative difference between ⊗ of the factors' "
    "stationary laws (ProductChain.stationary, MarkovChain.stationary) and GTH on the dense "
    "Kronecker matrix (entries below 1e-280 on that absolute scale: products of tiny π "
    "underflow); exact: ρᵀP = ρᵀ in rationals.",
)

register_claim(
    "cafed:prop4",
    "App. F2 Prop. 4, eq. (232)",
    "u ⊗ v is an eigenvector with eigenvalue λμ",
    (1502, 1508),
    "if u, v are eigenvectors of P₁, P₂ with eigenvalues λ, μ, then u ⊗ v is an eigenvector of "
    "P₁ ⊗ P₂ with eigenvalue λμ (left and right eigenvectors alike)",
    space=_prop_space(),
    margin=_prop4,
    tolerance=0.0,
    budget=200,
    expected="holds",
    reading=Reading(
        quote="Proposition 4. Let u and v be eigenvectors of P₁ and P₂, respectively, with "
        "eigenvalues λ and μ. Then u ⊗ v is an eigenvector of P₁ ⊗ P₂ with eigenvalue λμ.",
        hypotheses=(ASSUMPTION1,),
        interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
        "general 3-state factor with complex eigenvalues; narrower than the paper (any "
        "square factors) in the number and size of factors only, for exact and dense "
        "computations within the time allowance.",
    ),
    notes=_PROP_NOTES + "Two-state eigenvectors from the library (two_state_eigenvectors), "
    "the 3-state factor's from numpy; margin 1e-9 − the largest relative residual "
    "‖Pw − λμw‖/‖w‖ over all Kronecker products w (left and right). No exact margin: the "
    "3-state factor's eigenvectors are irrational (for two-state factors the identity is exact "
    "by the mixed-product property).",
)

register_claim(
    "cafed:prop5",
    "App. F2 Prop. 5, eq. (233)",
    "spectrum of the Kronecker product",
    (1510, 1516),
    "the eigenvalues of P₁ ⊗ P₂ are the products λᵢμⱼ (as a multiset)",
    space=_prop_space(),
    margin=_prop5,
    tolerance=0.0,
    budget=300,
    expected="holds",
    reading=Reading(
        quote="Proposition 5. … The eigenvalues of P₁ ⊗ P₂ are the mn numbers {λ_iμ_j}.",
        hypotheses=(ASSUMPTION1,),
        interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
        "general 3-state factor with complex eigenvalues; narrower than the paper (any "
        "square factors) in the number and size of factors only, for exact and dense "
        "computations within the time allowance.",
    ),
    notes=_PROP_NOTES + "Margin 1e-7 − the largest distance in an optimal matching "
    "(linear_sum_assignment) between numpy's eigenvalues of the dense matrix and the products. "
    "No exact margin (irrational spectra); the tolerance covers the eigenvalue conditioning of "
    "tied products (semisimple, so errors stay near ε_mach·κ).",
)

register_claim(
    "cafed:prop6",
    "App. F2 Prop. 6, eq. (234)",
    "λ̄₂(⊗P_k) = max_k λ̄₂(P_k), λ(⊗P_k) = max_k λ(P_k)",
    (1520, 1534),
    "for the product of irreducible aperiodic chains, λ̄₂(P) = max_k λ̄₂(P_k) and "
    "λ(P) = max_k λ(P_k)",
    space=_prop_space(),
    margin=_prop6,
    tolerance=0.0,
    budget=300,
    expected="holds",
    reading=Reading(
        quote="Proposition 6. … For the product chain defined by P = ⊗_k P_k, … λ̄₂(P) = "
        "max_k λ̄₂(P_k) and λ(P) = max_k λ(P_k). (234)",
        hypotheses=(ASSUMPTION1,),
        interpretation="Kronecker products of up to 4 two-state clients and (optionally) a "
        "general 3-state factor with complex eigenvalues; narrower than the paper (any "
        "square factors) in the number and size of factors only, for exact and dense "
        "computations within the time allowance.",
    ),
    notes=_PROP_NOTES + "Structured side: ProductChain.slem/lam and the 3-state factor's "
    "MarkovChain constants; dense side: numpy's eigenvalues of the Kronecker matrix, one copy "
    "of 1 removed. Margin 1e-9 − the larger difference.",
)
