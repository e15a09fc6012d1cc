"""§III — Algorithm 1 of the FedPBC paper (seed ``004_7f83552c6af82f79.txt``, ``l.N`` its lines):
FedAvg as printed (every client computes, l.46–88) and the remark that it equals FedAvg where only
the active clients compute (``fedpbc:alg1-equivalence``), on F_i = ½‖x − u_i‖² with exact gradients.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("fedpbc:alg1-equivalence").expected
'holds'
"""

from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.claim import ExactMargin, register_claim
from fltheory.claims.exact import fr, frs
from fltheory.claims.papers.fedpbc._common import local_gain
from fltheory.claims.space import Instance, Integer, Real, Space


def _trace(seed: int, p: np.ndarray, rounds: int) -> np.ndarray:
    from fltheory.rng import generator

    return generator(int(seed), "claims/fedpbc-links").random((rounds, p.size)) < p


def _alg1_literal(u: list, p_trace: np.ndarray, eta: Any, s: int, zero: Any) -> list:
    """Algorithm 1 as printed (l.54–84): EVERY client runs s exact gradient steps, active ones
    from x^t, inactive ones from their own x_i^t (which keeps their local progress); the server
    averages the active clients' x_i^{t++}. Returns the server trajectory."""
    m = len(u)
    x = zero
    local = [zero] * m
    out = []
    for active in p_trace:
        nxt = []
        for i in range(m):
            y = x if active[i] else local[i]
            for _ in range(s):
                y = y - eta * (y - u[i])
            nxt.append(y)
        local = nxt
        idx = [i for i in range(m) if active[i]]
        if idx:
            x = sum((nxt[i] for i in idx), zero) / len(idx)
        out.append(x)
    return out


def _alg1_active_only_code(u: np.ndarray, trace: np.ndarray, gamma: float) -> np.ndarray:
    """The code path: :func:`fltheory.testing.limits.simulate_isotropic` with FedAvg's
    aggregation (only the active clients' updates, closed-form gain γ = 1 − (1 − η)^s)."""
    from fltheory.limits.aggregation import FEDAVG

    traj = []
    x = np.zeros((1, 1))
    for active in trace:
        effect = FEDAVG.coefficients(active[None, :].astype(np.int8)) * gamma
        x = x + effect @ u[:, None] - effect.sum(axis=1, keepdims=True) * x
        traj.append(float(x[0, 0]))
    return np.array(traj)


def _alg1_margin(inst: Instance) -> float:
    p, u = np.asarray(inst["p"]), np.asarray(inst["u"])
    trace = _trace(inst["seed"], p, inst["rounds"])
    lit = np.array(_alg1_literal(list(u), trace, inst["eta"], inst["s"], 0.0))
    gamma = local_gain(inst)
    code = _alg1_active_only_code(u, trace, gamma)
    return -float(np.max(np.abs(lit - code))) / (1.0 + float(np.max(np.abs(u))))


def _alg1_exact(inst: Instance) -> ExactMargin:
    p, u = np.asarray(inst["p"]), frs(inst["u"])
    trace = _trace(inst["seed"], p, inst["rounds"])
    eta, s = fr(inst["eta"]), inst["s"]
    lit = _alg1_literal(u, trace, eta, s, Fraction(0))
    # only the active clients compute (each from x^t): the usual FedAvg
    x, act = Fraction(0), []
    for active in trace:
        idx = [i for i in range(len(u)) if active[i]]
        if idx:
            ys = []
            for i in idx:
                y = x
                for _ in range(s):
                    y = y - eta * (y - u[i])
                ys.append(y)
            x = sum(ys, Fraction(0)) / len(idx)
        act.append(x)
    gap = max((abs(a - b) for a, b in zip(lit, act, strict=True)), default=Fraction(0))
    return -gap, "exact rationals (both algorithms)"


register_claim(
    "fedpbc:alg1-equivalence",
    "§III",
    "Algorithm 1 and its equivalence remark",
    (46, 88),
    "FedAvg as printed in Algorithm 1 (every client computes; inactive ones from their own "
    "state) gives the same server models x^t as FedAvg where only the active clients compute.",
    space=Space(
        [
            Integer("m", 1, 6),
            Real("p", 0.0, 1.0, size="m", closed=(True, True), special=(0.0, 1.0, 0.5)),
            Real("u", -1.0, 1.0, size="m", special=(0.0, 1.0, -1.0)),
            Real("eta", 0.0, 1.0, special=(0.5,)),
            Integer("s", 1, 5),
            Integer("rounds", 1, 30),
            Integer("seed", 0, 10**6),
        ]
    ),
    margin=_alg1_margin,
    exact=_alg1_exact,
    tolerance=1e-12,
    expected="holds",
    notes="Code path: the active-only recursion x ← x + γΣ_{A}(u_i − x)/|A| of "
    "fltheory.testing.limits/limits.aggregation (FEDAVG coefficients, closed-form gain "
    "γ = 1 − (1 − η)^s); oracle: Algorithm 1 literally, s explicit gradient steps for every "
    "client. Algorithm 1 does not say what an inactive client's x_i^{t+1} is; we keep its local "
    "progress — irrelevant for the server, which is the point of the remark. Margin: "
    "−max_t |x^t_lit − x^t_code|/(1 + max|u|).",
)
