"""FedAR Fig. 1 (AR:188-229): the Shapley value of client 0's update against its staleness.

Five clients, client k holding every training image of classes {2k, 2k+1}; nine rounds of FedAvg
over the available clients; in experiment "stale τ" client 0 is active in rounds 1..9−τ only
("stale 3 ... active from rounds 1 to 6 but inactive during rounds 7 to 9", AR:200-202). The
players are the clients' latest updates G_i (round 9 for clients 1-4, round 9−τ for client 0,
AR:202-204); v(S) = test accuracy of w_8 + mean_{i∈S} G_i, v(∅) = accuracy of w_8 (the spec's
reading: the paper does not define v); φ is computed exactly over the 2⁵ coalitions.

The ``paper`` quick setup runs this on scikit-learn digits with softmax regression in NumPy
(K = 5 local steps of 32, η = 0.1; CIFAR-10/LeNet-5 is ``paper-cifar10``). Minibatches are common
random numbers: generator(seed, client, round), the same in every τ.

>>> from fltheory.experiments.model import get
>>> get("fedar:fig1").status("paper")
'quick only'
"""

from collections.abc import Callable
from itertools import combinations
from math import factorial

import numpy as np

from fltheory.experiments.catalog.pbc_ar_common import AR_CODE, SeedMeasurements, ar
from fltheory.experiments.judges import CONFIDENCE
from fltheory.experiments.model import (
    Check,
    Experiment,
    Measurements,
    Number,
    Panel,
    PaperStatement,
    SetupSpec,
    register,
)
from fltheory.experiments.stats import holm, paired_difference
from fltheory.rng import generator

N_PLAYERS, ROUNDS, STALENESS = 5, 9, tuple(range(7))
LOCAL_STEPS, BATCH, LR = 5, 32, 0.1
SHARE_TEST_SIZE = 359  # digits test images (20 % of 1797)


def shapley(value: Callable[[frozenset[int]], float], n: int) -> np.ndarray:
    """Exact Shapley values of the ``n``-player game ``value`` (2ⁿ coalition evaluations).

    >>> shapley(lambda s: float(len(s) ** 2), 3).round(12).tolist()  # symmetric: v(N)/n each
    [3.0, 3.0, 3.0]
    >>> shapley(lambda s: float(0 in s) * 2 + float(1 in s), 2).tolist()  # additive game
    [2.0, 1.0]
    """
    players = range(n)
    v = {frozenset(s): value(frozenset(s)) for k in range(n + 1) for s in combinations(players, k)}
    phi = np.zeros(n)
    for i in players:
        for s, vs in v.items():
            if i not in s:
                weight = factorial(len(s)) * factorial(n - len(s) - 1) / factorial(n)
                phi[i] += weight * (v[s | {i}] - vs)
    return phi


def _softmax_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    logits = x @ w
    logits -= logits.max(axis=1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=1, keepdims=True)
    prob[np.arange(y.size), y] -= 1.0
    return np.asarray(x.T @ prob / y.size)


def _accuracy(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float(((x @ w).argmax(axis=1) == y).mean())


def staleness_game(seed: int) -> np.ndarray:
    """(len(STALENESS), N_PLAYERS) Shapley values (accuracy points) for τ = 0..6 at ``seed``."""
    from fltheory.sim.datasets import digits

    data = digits()
    bias = np.ones((data.x_train.shape[0], 1))
    x_train = np.hstack([data.x_train.astype(float), bias])
    x_test = np.hstack([data.x_test.astype(float), np.ones((data.x_test.shape[0], 1))])
    shards = [np.flatnonzero(data.y_train // 2 == k) for k in range(N_PLAYERS)]

    def local_update(w: np.ndarray, client: int, round_: int) -> np.ndarray:
        rng = generator(seed, f"experiments/fedar-fig1/client{client}/round{round_}")
        local = w.copy()
        for _ in range(LOCAL_STEPS):
            idx = rng.choice(shards[client], size=BATCH, replace=False)
            local -= LR * _softmax_grad(local, x_train[idx], data.y_train[idx])
        return local - w

    out = np.zeros((len(STALENESS), N_PLAYERS))
    for j, tau in enumerate(STALENESS):
        w = np.zeros((x_train.shape[1], data.n_classes))
        latest: dict[int, np.ndarray] = {}
        for t in range(1, ROUNDS + 1):
            active = [k for k in range(N_PLAYERS) if k > 0 or t <= ROUNDS - tau]
            updates = {k: local_update(w, k, t) for k in active}
            latest.update(updates)
            if t < ROUNDS:
                w = w + np.mean(list(updates.values()), axis=0)
        w8 = w

        def value(
            s: frozenset[int], w8: np.ndarray = w8, latest: dict[int, np.ndarray] = latest
        ) -> float:
            if not s:
                return 100.0 * _accuracy(w8, x_test, data.y_test)
            step = np.mean([latest[k] for k in sorted(s)], axis=0)
            return 100.0 * _accuracy(w8 + step, x_test, data.y_test)

        out[j] = shapley(value, N_PLAYERS)
    return out


def measure_fig1_quick(seeds: int) -> Measurements:
    """φ₀(τ) and client 0's share of Σφ per seed; the curve's "round" axis is τ."""
    games = np.stack([staleness_game(s) for s in range(seeds)])  # (seeds, τ, players)
    phi0 = games[:, :, 0]
    total = games.sum(axis=2)
    # The share is undefined when Σφ = v(P) − v(∅) is within test noise (spec §3's guard, at
    # the worst case v = 1/2 on the digits test set).
    guard = 3.0 * 100.0 * np.sqrt(0.25 / SHARE_TEST_SIZE)
    defined = np.abs(total) >= guard
    share = np.divide(100.0 * phi0, total, out=np.full_like(phi0, np.nan), where=defined)
    return SeedMeasurements(
        np.asarray(STALENESS),
        {"phi_client0 (pp)": phi0, "phi_clients1-4 (pp)": total - phi0},
        per_seed={"phi0": phi0, "share0": share},
    )


def fig1_judge(m: Measurements, mode: str) -> list[Check]:
    """C2 φ₀ decreases with τ (per-seed OLS slope < 0); C1 φ₀(τ) > 0 for τ = 1..5 (Holm);
    C3 φ₀(6) < 0 (fragile: the spec expects it to depend on η, K and the training variant)."""
    if not isinstance(m, SeedMeasurements):
        return []
    phi0 = m.per_seed["phi0"]
    conf = CONFIDENCE[mode]
    x = np.asarray(STALENESS, dtype=float)
    slopes = np.polyfit(x, phi0.T, 1)[0]
    iv = paired_difference(slopes, np.zeros_like(slopes), confidence=conf)
    checks = [
        Check(
            "φ₀ decreases with client 0's staleness τ (per-seed OLS slope, pp per round)",
            "the contribution decreases with staleness",
            round(iv.mean, 4),
            (round(iv.low, 4), round(iv.high, 4)),
            holds=iv.direction == "-",
            opposite=iv.direction == "+",
            where="AR:213-215",
        ),
        Check(
            "φ₀ per τ = 0..6 (pp, mean over seeds)",
            "decreasing, positive for stale 1-5, negative at stale 6",
            [round(float(v), 3) for v in phi0.mean(axis=0)],
            None,
            None,
            role="diagnostic",
            where="AR:213-220",
        ),
    ]
    ivs = [
        paired_difference(phi0[:, t], np.zeros(phi0.shape[0]), confidence=conf) for t in range(1, 6)
    ]
    adjusted = holm([iv.p_value for iv in ivs])
    for tau, iv, p in zip(range(1, 6), ivs, adjusted, strict=True):
        significant = bool(p < 1 - conf)
        checks.append(
            Check(
                f"φ₀(stale {tau}) > 0 (pp)",
                "gray bars in stale 1 through stale 5",
                round(iv.mean, 4),
                (round(iv.low, 4), round(iv.high, 4)),
                holds=significant and iv.mean > 0,
                opposite=significant and iv.mean < 0,
                where="AR:219-220",
                note=f"Holm-adjusted p = {p:.3g} over τ = 1..5",
            )
        )
    last = paired_difference(phi0[:, 6], np.zeros(phi0.shape[0]), confidence=conf)
    checks.append(
        Check(
            "φ₀(stale 6) < 0 (pp)",
            "at stale 6, the contribution of client 0 is negative",
            round(last.mean, 4),
            (round(last.low, 4), round(last.high, 4)),
            holds=last.direction == "-",
            opposite=last.direction == "+",
            where="AR:215",
            note="fragile (spec §3); client 0 alone holds classes {0, 1} here",
        )
    )
    share = m.per_seed["share0"]
    checks.append(
        Check(
            "client 0's share of Σφ per τ (%, mean over seeds where Σφ exceeds test noise)",
            "bar heights lost in extraction",
            [None if np.isnan(col).all() else round(float(np.nanmean(col)), 2) for col in share.T],
            None,
            None,
            role="diagnostic",
            where="AR:211-212",
        )
    )
    return checks


register(
    Experiment(
        id="fedar:fig1",
        title="Shapley value of client 0's update against its staleness (5 clients, 9 rounds)",
        source=ar("3.2 (Motivation)", "Fig. 1"),
        where="AR:188-229",
        numbers=(
            Number("clients", 5, "clients", "AR:194"),
            Number("rounds", 9, "rounds", "AR:194-202"),
            Number("experiments (fresh, stale 1-6)", 7, "", "AR:200-205"),
            Number("shares of the Shapley value", None, "%", "AR:211-212", "bar heights lost"),
        ),
        claims=(
            PaperStatement(
                "gray bars in stale 1 through stale 5 (stale updates contribute)", "AR:219-220"
            ),
            PaperStatement(
                "the contribution of a client decreases with its staleness", "AR:213-215"
            ),
            PaperStatement("at stale 6, the contribution of client 0 is negative", "AR:215"),
            PaperStatement("excessive staleness is detrimental", "AR:226"),
        ),
        setups={
            "paper": SetupSpec(
                "paper",
                "the module docstring's reading on digits: softmax regression (NumPy), K = 5 "
                "steps of 32, η = 0.1, exact Shapley over the 32 coalitions",
                "scikit-learn digits (stands in for CIFAR-10), client k = classes {2k, 2k+1}",
                measure={"quick": measure_fig1_quick},
            ),
            "paper-cifar10": SetupSpec(
                "paper-cifar10",
                "as paper on CIFAR-10 with LeNet-5 (K = 5, batch 64, η = 0.1, weight decay 1e-3)",
                "CIFAR-10 from --data-dir",
                requires=("shapley_values",),
                datasets=("cifar10",),
                full_needs_gpu=True,
            ),
            "authors": SetupSpec("authors", AR_CODE, "—", requires=("fedar_authors_code",)),
        },
        panels=(
            Panel(
                "shapley",
                "curve",
                "φ (accuracy points) vs staleness τ (x = τ + 1)",
                xlabel="staleness τ + 1 (rounds)",
                xscale="log",
                ylabel="Shapley value φ (accuracy points)",
            ),
        ),
        judge=fig1_judge,
        seeds={"quick": 8, "full": 10},
    )
)
