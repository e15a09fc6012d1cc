"""Building blocks of the judges: paired comparisons over seeds (Holm-adjusted), ranking
probabilities, magnitudes against the paper's number, diagnostics, and the verdict rule.

Levels: ``full`` mode judges at 95 % (two-sided, so a claim holds when the paired difference
is significant on the claimed side at 2.5 %); ``quick`` mode at a one-sided 80 % level
(two-sided 60 % intervals), direction only — magnitudes are reported, not judged.

Verdict (:func:`decide`): ``contradicted`` when a primary check establishes the contrary,
``reproduced`` when every primary check holds, ``not_reproduced`` otherwise. That is the verdict
of a **full** run, the record. A quick run is a smoke test at reduced size, so
:func:`verdict` words its outcome as :data:`SMOKE` (``smoke: direction agrees`` /
``smoke: direction disagrees`` / ``smoke: inconclusive``): never ``reproduced`` or
``contradicted``.

>>> import numpy as np
>>> from fltheory.experiments.model import Measurements
>>> acc = {"ca_fed": np.full((6, 1), 0.80) + np.arange(6)[:, None] * 1e-3,
...        "adafed": np.full((6, 1), 0.78)}
>>> checks = beats_all(Measurements(np.array([99]), acc), "ca_fed", ["adafed"], mode="full",
...                    where="P2:315")
>>> checks[0].holds, decide(checks)
(True, 'reproduced')
"""

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fltheory.experiments.model import Check, Measurements
from fltheory.experiments.stats import best_probability, holm, paired_difference

#: Two-sided confidence of the intervals, per mode.
CONFIDENCE = {"quick": 0.60, "full": 0.95}
#: A ranking claim holds at this bootstrap probability of being best; the contrary is
#: established below ``RANK_OPPOSITE[mode]`` (about the one-sided level of the mode's intervals,
#: so pure noise rarely reads as "contradicted").
RANK_HOLDS = 0.8
RANK_OPPOSITE = {"quick": 0.1, "full": 0.025}
PP = 100.0  # accuracies are fractions; differences are reported in percentage points


def _round(x: float, digits: int = 3) -> float:
    return float(round(float(x), digits))


def beats_all(
    m: Measurements,
    winner: str,
    others: Sequence[str],
    *,
    mode: str,
    where: str,
    paper: dict[str, Any] | None = None,
    at_round: int | None = None,
    role: str = "primary",
    metric: tuple[str, Callable[[str], np.ndarray]] | None = None,
) -> list[Check]:
    """One check per ``other``: acc_end(winner) − acc_end(other) > 0 over the paired seeds
    (or the accuracy at ``at_round``, or ``metric`` = (description, label → per-seed values)),
    Holm-adjusted across ``others``.

    ``paper[other]`` is the paper's number for that difference (pp), when it gives one.
    """
    confidence = CONFIDENCE[mode]
    alpha = 1 - confidence
    value = (lambda k: m.final(k)) if at_round is None else (lambda k: m.at_round(k, at_round))
    if metric is not None:
        value = metric[1]
    intervals = [
        paired_difference(PP * value(winner), PP * value(o), confidence=confidence) for o in others
    ]
    adjusted = holm([iv.p_value for iv in intervals]) if intervals else np.array([])
    when = "at the end" if at_round is None else f"at round {at_round}"
    if metric is not None:
        when = metric[0]
    checks = []
    for other, iv, p in zip(others, intervals, adjusted, strict=True):
        significant = bool(p < alpha)
        checks.append(
            Check(
                claim=f"{winner} > {other} {when} (paired over {iv.n} seeds, pp)",
                paper=(paper or {}).get(other, f"{winner} better"),
                measured=_round(iv.mean),
                ci=(_round(iv.low), _round(iv.high)),
                holds=significant and iv.mean > 0,
                role=role,
                opposite=significant and iv.mean < 0,
                where=where,
                note=f"Holm-adjusted p = {p:.3g} over {len(intervals)} comparison(s), "
                f"{100 * confidence:.0f} % two-sided interval",
            )
        )
    return checks


#: The algorithms train when the median gain acc_end − first evaluation reaches this (pp).
TRAINS_PP = 5.0


def trains(m: Measurements, names: Sequence[str], *, where: str) -> Check:
    """Guard of an accuracy comparison: the algorithms in ``names`` train, i.e. the median over
    them of (seed-mean acc_end − seed-mean first evaluation) is at least :data:`TRAINS_PP` pp.
    A ranking of models that mostly diverged (cafed:fig1a under Table II's rates with the
    authors' momentum and epochs: 13-18 % on 10 classes) says nothing about the claim, so it is
    not "reproduced". The median, not the minimum: a biased rule may reach its plateau within
    the first round (More available at its tuned rates gains 2.9 pp) and still be compared.

    >>> import numpy as np
    >>> flat = np.array([[0.2, 0.21], [0.2, 0.2]])
    >>> acc = {"a": np.array([[0.2, 0.7], [0.3, 0.8]]), "b": flat, "c": flat}
    >>> check = trains(Measurements(np.array([0, 9]), acc), ["a", "b", "c"], where="P2:315")
    >>> check.measured, check.holds
    ({'a': 50.0, 'b': 0.5, 'c': 0.5}, False)
    """
    gains = {
        k: _round(PP * float(m.final(k).mean() - m.accuracy[k][:, 0].mean()), 2) for k in names
    }
    return Check(
        claim=f"the algorithms train: median of acc_end − first evaluation ≥ {TRAINS_PP:g} pp "
        "(seed means)",
        paper="the compared models are trained (accuracies of 60-80 % in the paper's figure)",
        measured=gains,
        ci=None,
        holds=bool(np.median(list(gains.values())) >= TRAINS_PP),
        where=where,
        note="a guard: without it a comparison of diverged models could read as reproduced",
    )


def magnitude(
    m: Measurements,
    winner: str,
    other: str,
    *,
    paper_pp: float,
    tolerance_pp: float,
    mode: str,
    where: str,
) -> Check:
    """The paper's difference (pp) lies in the interval of the measured one or within
    ``tolerance_pp`` of its mean. Primary in full mode, reported in quick mode."""
    iv = paired_difference(PP * m.final(winner), PP * m.final(other), confidence=CONFIDENCE[mode])
    holds = iv.contains(paper_pp) or abs(iv.mean - paper_pp) <= tolerance_pp
    return Check(
        claim=f"{winner} − {other} at the end is the paper's {paper_pp:+g} pp (± {tolerance_pp:g})",
        paper=paper_pp,
        measured=_round(iv.mean),
        ci=(_round(iv.low), _round(iv.high)),
        holds=bool(holds),
        role="primary" if mode == "full" else "secondary",
        where=where,
    )


def ranking(m: Measurements, winner: str, *, mode: str, where: str, seed: int = 0) -> Check:
    """P(``winner`` has the best mean acc_end), bootstrapping the seeds: holds at ≥ 0.8, the
    contrary is established below ``RANK_OPPOSITE[mode]``."""
    probs = best_probability({k: m.final(k) for k in m.accuracy}, seed=seed)
    p = probs[winner]
    return Check(
        claim=f"{winner} has the best final accuracy of {len(probs)} algorithms",
        paper=f"{winner} best",
        measured={"p_best": {k: _round(v) for k, v in probs.items()}},
        ci=None,
        holds=p >= RANK_HOLDS,
        role="primary",
        opposite=p < RANK_OPPOSITE[mode],
        where=where,
        note=f"bootstrap over seeds; holds at P >= {RANK_HOLDS}, contrary below "
        f"{RANK_OPPOSITE[mode]}",
    )


def rank_probability(m: Measurements, label: str, rank: int, *, seed: int = 0) -> float:
    """Bootstrap probability that ``label`` has rank ``rank`` (1 = best) by mean acc_end.

    >>> from fltheory.experiments.model import Measurements
    >>> m = Measurements(np.array([0]), {"a": np.array([[0.9], [0.91]]),
    ...                                  "b": np.array([[0.5], [0.52]])})
    >>> rank_probability(m, "b", 2)
    1.0
    """
    from fltheory.experiments.stats import N_BOOTSTRAP
    from fltheory.rng import generator

    names = list(m.accuracy)
    matrix = np.array([m.final(k) for k in names])
    rng = generator(seed, "experiments/judges/rank")
    idx = rng.integers(0, matrix.shape[1], size=(N_BOOTSTRAP, matrix.shape[1]))
    means = matrix[:, idx].mean(axis=2)
    ranks = (-means).argsort(axis=0).argsort(axis=0) + 1
    return float((ranks[names.index(label)] == rank).mean())


def exclusion_by_group(m: Measurements, label: str) -> dict[str, float]:
    """Per client group, the share of active client-rounds that ``label`` left out."""
    if m.active is None or label not in m.included:
        return {}
    active = m.active.astype(bool)
    left_out = active & ~m.included[label].astype(bool)
    out = {}
    for name, mask in m.groups.items():
        seen = active[..., mask].sum()
        out[name] = _round(left_out[..., mask].sum() / seen) if seen else float("nan")
    return out


def participation(m: Measurements, label: str) -> float:
    """Mean participants per round over mean active clients per round."""
    if m.active is None or label not in m.included:
        return float("nan")
    return float(m.included[label].sum() / max(1, m.active.sum()))


def decide(checks: Sequence[Check]) -> str:
    """The verdict from the primary checks (see the module docstring).

    >>> decide([Check("c", 1, 1, None, True)]), decide([Check("c", 1, 0, None, False)])
    ('reproduced', 'not_reproduced')
    >>> decide([Check("c", 1, -1, None, False, opposite=True)])
    'contradicted'
    """
    primary = [c for c in checks if c.role == "primary"]
    if any(c.opposite for c in primary):
        return "contradicted"
    if primary and all(c.holds for c in primary):
        return "reproduced"
    return "not_reproduced"


#: The outcome of a quick (smoke) run, by the decision :func:`decide` takes on its checks.
SMOKE = {
    "reproduced": "smoke: direction agrees",
    "not_reproduced": "smoke: inconclusive",
    "contradicted": "smoke: direction disagrees",
}


def verdict(checks: Sequence[Check], mode: str) -> str:
    """What a run of ``mode`` reports: :func:`decide` in full mode (the record), its
    :data:`SMOKE` wording in quick mode (reduced sizes, direction only at one-sided 80 %).

    >>> holds = [Check("c", 1, 1, None, True)]
    >>> verdict(holds, "full"), verdict(holds, "quick")
    ('reproduced', 'smoke: direction agrees')
    """
    decision = decide(checks)
    return SMOKE[decision] if mode == "quick" else decision


def logged_rounds(rounds: int) -> np.ndarray:
    """The authors' code's logging points (spec C.15, 1-based rounds ≥ 1): after rounds
    {2, 5, …, 38} ∪ {10, 20, …, T} (their t = 0 point, before training, is not measured here).

    >>> logged_rounds(40).tolist()
    [2, 5, 8, 10, 11, 14, 17, 20, 23, 26, 29, 30, 32, 35, 38, 40]
    """
    early = set(range(2, min(rounds, 38) + 1, 3))
    return np.array(sorted(early | set(range(10, rounds + 1, 10))), dtype=np.int64)


def logged(m: Measurements, label: str) -> np.ndarray:
    """Per seed, the accuracies at the evaluations that fall on :func:`logged_rounds` (all of
    them when ``eval_every = 1``), shape (seeds, points)."""
    rounds = m.eval_rounds + 1
    keep = np.isin(rounds, logged_rounds(int(rounds[-1])))
    return np.asarray(m.accuracy[label][:, keep])


def logged_metrics(m: Measurements, label: str) -> dict[str, np.ndarray]:
    """Per seed, the code's metrics over the logged points (spec C.15): ``time_average`` (the
    running mean at T, i.e. the mean over the points), ``max`` and ``second_half_sd`` (sd over
    the points after T/2, ddof 1).

    >>> acc = {"a": np.linspace(0.1, 0.8, 40)[None, :]}
    >>> out = logged_metrics(Measurements(np.arange(40), acc), "a")
    >>> round(float(out["max"][0]), 3), round(float(out["time_average"][0]), 3)
    (0.8, 0.463)
    """
    points = logged(m, label)
    rounds = m.eval_rounds + 1
    at = rounds[np.isin(rounds, logged_rounds(int(rounds[-1])))]
    half = at > at[-1] / 2 if at.size else at.astype(bool)
    sd = points[:, half].std(axis=1, ddof=1) if half.sum() > 1 else np.full(points.shape[0], np.nan)
    return {
        "time_average": points.mean(axis=1) if at.size else np.full(points.shape[0], np.nan),
        "max": points.max(axis=1) if at.size else np.full(points.shape[0], np.nan),
        "second_half_sd": sd,
    }


def metrics_table(m: Measurements) -> dict[str, dict[str, float]]:
    """Per algorithm, the means over seeds of acc_end, the per-round time-average and the code's
    logged-point time-average, maximum and second-half sd (spec D, H4; C.15), in %."""
    out: dict[str, dict[str, float]] = {}
    for label, acc in m.accuracy.items():
        code = logged_metrics(m, label)
        out[label] = {
            "acc_end": _round(PP * float(m.final(label).mean())),
            "time_average_per_round": _round(PP * float(acc.mean())),
            "time_average_logged": _round(PP * float(np.mean(code["time_average"]))),
            "max_logged": _round(PP * float(np.mean(code["max"]))),
            "second_half_sd_logged": _round(PP * float(np.mean(code["second_half_sd"]))),
        }
    return out


def metric_differences(m: Measurements, winner: str, other: str, *, mode: str, where: str) -> Check:
    """Diagnostic (spec D, H4): ``winner`` − ``other`` (pp, paired over seeds) under acc_end,
    the per-round time-average and the code's logged-point time-average, side by side."""
    confidence = CONFIDENCE[mode]
    series = {
        "acc_end": m.final,
        "time_average_per_round": lambda k: m.accuracy[k].mean(axis=1),
        "time_average_logged": lambda k: logged_metrics(m, k)["time_average"],
    }
    measured: dict[str, Any] = {}
    for name, values in series.items():
        iv = paired_difference(PP * values(winner), PP * values(other), confidence=confidence)
        measured[name] = {
            "mean": _round(iv.mean),
            "ci": [_round(iv.low), _round(iv.high)],
        }
    return Check(
        f"{winner} − {other} (pp) under acc_end / per-round time-average / logged-point "
        "time-average (H4: does the metric move the sign?)",
        "metric not stated (final accuracy read)",
        measured,
        None,
        None,
        role="diagnostic",
        where=where,
    )
