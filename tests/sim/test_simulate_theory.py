"""``fltheory simulate --theory`` (issue 26, §2): every configured algorithm against its exact
limit lim E[w_t].

* A researcher's three-group setting (office π = 0.85, λ₂ = 0.2, 4 clients; home 0.5 / 0.7, 4;
  mobile 0.15 / 0.95, 2) on a quadratic in R²: the command writes theory.json, theory.csv and
  theory.png into the result folder, every rule with a known limit agrees, MIFA is listed as
  having none, and the band is narrow enough to reject the optimum w* (so the test can fail).
* The exact limits equal an independent computation: the simulator's OWN weight rule evaluated
  on every availability state of a 2-client chain (or every set of Bernoulli links), and the
  stationary recursion m = Pᵀ(C m + Π g) solved as a dense matrix — no code of the mapping table
  or of fltheory.limits is shared.
* Hostile input: a non-quadratic problem, an availability without a known law, a burn-in past
  the rounds: one line, exit 2, nothing run.

Determinism: every draw comes from the seeded streams of the config (seed 0), and the margins
are wide: the Bonferroni t-band at family-wise level 10⁻³ (t ≈ 4.4 standard errors for 16 seeds)
holds the simulated averages well inside (max |mean − limit|/band ≤ 0.5 on the reference
machine) while w* lies several bands away; runs use float64.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from fltheory.atomic import is_complete, read_manifest
from fltheory.cli.app import main
from fltheory.errors import InputError
from fltheory.limits.local import local_gain
from fltheory.sim.algorithms.base import RoundInput
from fltheory.sim.config import build
from fltheory.sim.theory import compare_with_theory, plan_theory
from fltheory.sim.theory.exact import NO_KNOWN_LIMIT, NO_LIMIT
from fltheory.sim.theory.stats import AGREES, DISAGREES

OFFICE, HOME, MOBILE = (0.85, 0.2, 4), (0.5, 0.7, 4), (0.15, 0.95, 2)
GROUPS = (OFFICE, HOME, MOBILE)
U_GROUPS = ([1.0, 0.0], [0.0, 1.0], [-1.0, -1.0])


def _three_group_toml(rounds: int = 600, seeds: int = 16) -> str:
    pi = [p for p, _, n in GROUPS for _ in range(n)]
    lam = [lam for _, lam, n in GROUPS for _ in range(n)]
    u = [u for (_, _, n), u in zip(GROUPS, U_GROUPS, strict=True) for _ in range(n)]
    return (
        f'name = "three groups"\nseed = 0\nseeds = {seeds}\ndevice = "cpu"\ndtype = "float64"\n'
        f"[run]\nrounds = {rounds}\nlr = 0.5\nlocal_steps = 1\n"
        f'[problem]\nkind = "quadratic"\nu = {u}\n'
        f'[availability]\nkind = "two_state"\npi = {pi}\nlambda2 = {lam}\n'
        '[[algorithms]]\nname = "fedavg"\n'
        '[[algorithms]]\nname = "unbiased"\n'
        '[[algorithms]]\nname = "adafed"\n'
        '[[algorithms]]\nname = "mifa"\n'
    )


def test_three_groups_theory_files_and_verdicts(tmp_path, capsys) -> None:
    config = tmp_path / "three.toml"
    config.write_text(_three_group_toml())
    out = tmp_path / "out"
    assert main(["simulate", "--config", str(config), "--theory", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "mifa: no known limit" in printed and "agrees" in printed

    listed = {entry["name"] for entry in read_manifest(out)["files"]}
    assert {"theory.json", "theory.csv", "theory.png", "summary.json"} <= listed
    assert (out / "theory.png").read_bytes()[:4] == b"\x89PNG"
    record = json.loads((out / "theory.json").read_text())
    assert record["provenance"]["config_hash"]
    assert "Bonferroni" in record["test"]["name"]
    known = ("fedavg", "unbiased", "adafed")
    assert record["verdicts"] == {**dict.fromkeys(known, AGREES), "mifa": NO_KNOWN_LIMIT}
    assert record["no_known_limit"][0]["algorithm"] == "mifa"
    for label in known:
        model = record["algorithms"][label]["models"]["server"]
        assert model["limit_function"] == "fltheory.limits.chain_limit"
        assert model["z"] <= 0.5, (label, model)  # far inside the band: not fragile
    # The band resolves FedAvg's bias: w* is rejected, so a wrong limit would be too.
    fedavg = record["algorithms"]["fedavg"]["models"]["server"]
    assert fedavg["bias"] > 0.3 and fedavg["z_optimum"] > 3.0
    assert not fedavg["optimum_in_band"]

    rows = (out / "theory.csv").read_text().splitlines()
    assert rows[0].startswith("algorithm,model,status")
    assert sum(row.startswith("fedavg,server,known") for row in rows) == 2  # d = 2
    assert any(row.startswith("mifa,,no known limit") for row in rows)

    # --resume keeps the complete result and judges it again from clients.npz (no new run);
    # --json prints the comparison object.
    argv = ["simulate", "--config", str(config), "--theory", "--out", str(out), "--resume"]
    assert main([*argv, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["verdicts"] == record["verdicts"]
    assert again["algorithms"]["fedavg"]["models"]["server"]["z"] == pytest.approx(fedavg["z"])
    assert str(out / "theory.png") in again["files"]


def test_a_wrong_limit_is_rejected() -> None:
    """The same statistic on the same runs says "disagrees" for a limit off by the bias."""
    from fltheory.sim.config import run_config
    from fltheory.sim.theory import models_of_runs

    raw = {
        "run": {"rounds": 400, "lr": 0.5}, "seeds": 12, "device": "cpu", "dtype": "float64",
        "problem": {"kind": "quadratic", "u": [[0.0], [0.0], [1.0]]},
        "availability": {"kind": "bernoulli", "p": [0.2, 0.2, 0.9]},
        "algorithms": [{"name": "fedavg"}],
    }  # fmt: skip
    cfg = build(raw)
    plan = plan_theory(cfg)
    models = models_of_runs(run_config(cfg)[1])
    eps = float(np.finfo(np.float64).eps)
    right = compare_with_theory(plan, models, rounds=400, eps=eps)
    assert right.verdicts == {"fedavg": AGREES}
    theory = plan.algorithms[0]
    shifted = type(plan)(  # the limit moved to the optimum w*
        plan.optimum,
        plan.availability,
        (type(theory)(theory.label, theory.algorithm, theory.status, theory.rule, "",
                      (type(theory.limits[0])("server", plan.optimum, "x", "", 0.5),)),),
        plan.start,
    )  # fmt: skip
    assert compare_with_theory(shifted, models, rounds=400, eps=eps).verdicts == {
        "fedavg": DISAGREES
    }


# --- the exact limits against an independent dense computation ---------------------------------


def _two_state(pi: float, lam: float) -> np.ndarray:
    """P of a two-state chain (state 1 = active) with stationary π and second eigenvalue λ."""
    a, b = pi * (1.0 - lam), (1.0 - pi) * (1.0 - lam)
    return np.array([[1.0 - a, a], [b, 1.0 - b]])


SETS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=bool)  # np.kron order, client 0 first


def _effects(cfg, label_index: int) -> np.ndarray:
    """e_ak = γ η̄ q_k(A_a) from the simulator's own weight rule, for the four sets of 2 clients."""
    spec = cfg.specs[label_index]
    alpha, pi = cfg.problem.alpha, np.asarray(cfg.process.pi)
    inp = RoundInput(0, SETS, alpha, np.broadcast_to(pi, SETS.shape))
    q, _ = spec.algorithm.weights(inp, spec.algorithm.init_state(4, alpha, inp.pi))
    gamma = float(local_gain(spec.schedule.lr, cfg.settings.local_steps))
    return gamma * spec.server.lr * q


def _dense_markov_mean(P: np.ndarray, e: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Σ_a m_a with m = Pᵀ(C m + Π g), C_a = 1 − Σ_k e_ak, g_a = Σ_k e_ak u_k (dense solve)."""
    w, v = np.linalg.eig(P.T)
    rho = np.real(v[:, np.argmin(np.abs(w - 1.0))])
    rho /= rho.sum()
    C, g = 1.0 - e.sum(axis=1), e @ u
    m = np.linalg.solve(np.eye(len(P)) - P.T * C[None, :], P.T @ (rho[:, None] * g))
    return m.sum(axis=0)


RULES = [
    {"name": "fedavg"},
    {"name": "fedavg", "rule": "fixed", "q": [0.7, 0.2], "label": "fixed"},
    {"name": "unbiased"},
    {"name": "adafed"},
    {"name": "fedavg_is", "normalise": True},
    {"name": "more_available", "threshold": 0.4},
    {"name": "fedavg_uniform", "k": 2},
    {"name": "fedavg_sampled", "s": 2},
]
U2 = [[0.0, 1.0], [2.0, -1.0]]


def _cfg(availability: dict, hess: object = "identity", server_lr: float = 1.0):
    return build({
        "run": {"rounds": 10, "lr": 0.3, "local_steps": 2, "server_lr": server_lr},
        "device": "cpu",
        "problem": {"kind": "quadratic", "u": U2, "hess": hess, "alpha": [0.3, 0.7]},
        "availability": availability,
        "algorithms": RULES,
    })  # fmt: skip


def test_markov_limits_equal_a_dense_solve_of_the_simulators_rules() -> None:
    (p0, l0), (p1, l1) = (0.3, 0.8), (0.7, 0.4)
    cfg = _cfg({"kind": "two_state", "pi": [p0, p1], "lambda2": [l0, l1]}, server_lr=0.8)
    P = np.kron(_two_state(p0, l0), _two_state(p1, l1))
    plan = plan_theory(cfg)
    for i, theory in enumerate(plan.algorithms):
        assert theory.status == "known", theory
        expected = _dense_markov_mean(P, _effects(cfg, i), np.asarray(U2))
        np.testing.assert_allclose(theory.limits[0].limit, expected, rtol=1e-9, atol=1e-12)


def test_bernoulli_limits_equal_an_enumeration_of_the_sets() -> None:
    p = np.array([0.35, 0.8])
    cfg = _cfg({"kind": "bernoulli", "p": p.tolist()})
    prob = np.prod(np.where(SETS, p, 1.0 - p), axis=1)  # P(A) of each of the four sets
    for i, theory in enumerate(plan_theory(cfg).algorithms):
        omega = prob @ _effects(cfg, i)  # E[e_k(A)]
        np.testing.assert_allclose(theory.limits[0].limit, omega @ np.asarray(U2) / omega.sum(),
                                   rtol=1e-9)  # fmt: skip


def test_general_hessians_equal_a_dense_solve() -> None:
    """Diagonal H_k: B_k = I − (I − ηH_k)^s; the recursion m_b = Σ_a P_ab(C_a m_a + ρ_a g_a)
    per coordinate."""
    (p0, l0), (p1, l1) = (0.4, 0.6), (0.9, 0.1)
    H = np.array([[1.0, 3.0], [2.0, 0.5]])
    cfg = _cfg({"kind": "two_state", "pi": [p0, p1], "lambda2": [l0, l1]}, hess=H.tolist())
    P = np.kron(_two_state(p0, l0), _two_state(p1, l1))
    rho = np.kron([1 - p0, p0], [1 - p1, p1])
    B = 1.0 - (1.0 - 0.3 * H) ** 2  # diagonals of B_k (η = 0.3, s = 2)
    u = np.asarray(U2)
    for i, theory in enumerate(plan_theory(cfg).algorithms):
        e = _effects(cfg, i) / float(local_gain(0.3, 2))  # η̄ q_k(A): B_k carries the steps
        C = 1.0 - np.einsum("ak,kj->aj", e, B)  # diagonal C_a, per coordinate j
        g = np.einsum("ak,kj,kj->aj", e, B, u)
        for j in range(2):  # diagonal Hessians: the coordinates decouple
            m = np.linalg.solve(np.eye(4) - P.T * C[None, :, j], P.T @ (rho * g[:, j]))
            assert theory.limits[0].limit[j] == pytest.approx(m.sum(), rel=1e-9), theory.label


# --- which algorithms have no limit, and why --------------------------------------------------


def test_settings_outside_the_theory_are_listed_with_the_reason() -> None:
    cfg = build({
        "run": {"rounds": 10, "lr": 0.5}, "device": "cpu",
        "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
        "availability": {"kind": "two_state", "pi": [0.5, 0.9], "lambda2": [0.3, 0.0]},
        "algorithms": [
            {"name": "fedavg", "momentum": 0.5, "label": "momentum"},
            {"name": "unbiased", "estimator": "bayesian", "label": "estimated"},
            {"name": "fedavg", "rule": "fixed", "q": [4.0, 4.0], "label": "too large"},
            {"name": "fedavg_uniform", "k": 1, "label": "sampled"},
            {"name": "fedpbc", "label": "fedpbc"},
            {"name": "ca_fed", "label": "ca_fed"},
        ],
    })  # fmt: skip
    found = {a.label: (a.status, a.reason) for a in plan_theory(cfg).algorithms}
    assert found["momentum"][0] == NO_KNOWN_LIMIT and "server momentum" in found["momentum"][1]
    assert "estimated online" in found["estimated"][1]
    assert found["too large"][0] == NO_LIMIT and "does not contract" in found["too large"][1]
    assert "K = 1 < N = 2" in found["sampled"][1]
    assert "Bernoulli" in found["fedpbc"][1]  # FedPBC's limit: independent links only
    assert "losses" in found["ca_fed"][1]


def test_fedpbc_and_fedavg_under_bernoulli_links_agree() -> None:
    import fltheory

    report = fltheory.simulate(
        {
            "run": {"rounds": 300, "lr": 0.5}, "seeds": 12, "device": "cpu", "dtype": "float64",
            "problem": {"kind": "quadratic", "u": [[0.0], [1.0], [3.0]]},
            "availability": {"kind": "bernoulli", "p": [0.3, 0.6, 0.9]},
            "algorithms": [{"name": "fedavg"}, {"name": "fedpbc"}, {"name": "scaffold"}],
        },
        theory=True,
    )  # fmt: skip
    assert report.theory is not None
    assert report.theory.verdicts == {
        "fedavg": AGREES, "fedpbc": AGREES, "fedpbc/client_mean": AGREES,
        "scaffold": NO_KNOWN_LIMIT,
    }  # fmt: skip


# --- hostile input: one line, exit 2, nothing run -----------------------------------------------


def _one_line(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


BINARY = (
    'seeds = 1\ndevice = "cpu"\n[run]\nrounds = 2\n'
    '[problem]\nkind = "binary_synthetic"\nn_clients = 2\nn_train = 4\nn_test = 2\n'
    '[availability]\nkind = "bernoulli"\np = 0.5\n[[algorithms]]\nname = "fedavg"\n'
)
BERNOULLI = (
    'seeds = 1\ndevice = "cpu"\n[run]\nrounds = 2\n'
    '[problem]\nkind = "quadratic"\nu = [[0.0], [1.0]]\n'
    '[availability]\nkind = "bernoulli"\np = 0.5\n[[algorithms]]\nname = "fedavg"\n'
)
DAY_CYCLE = (
    'seeds = 1\ndevice = "cpu"\n[run]\nrounds = 2\n'
    '[problem]\nkind = "quadratic"\nu = [[0.0], [1.0]]\n'
    '[availability]\nkind = "day_cycle"\np = 0.5\namplitude = 0.1\nperiod = 4\n'
    '[[algorithms]]\nname = "fedavg"\n'
)


@pytest.mark.parametrize(
    ("text", "flags", "fragment"),
    [
        (BINARY, ["--theory"], "no limit is known for problem kind 'binary_synthetic'"),
        (DAY_CYCLE, ["--theory"], "no limit is known for availability kind 'day_cycle'"),
        (BERNOULLI, ["--burn-in", "3"], "--burn-in needs --theory"),
        (BERNOULLI, ["--theory", "--burn-in", "2"], "burn-in must be below the 2 rounds"),
    ],
)  # fmt: skip
def test_no_known_limit_is_one_line(tmp_path, capsys, text, flags, fragment) -> None:
    config = tmp_path / "c.toml"
    config.write_text(text)
    out = tmp_path / "out"
    assert main(["simulate", "--config", str(config), *flags, "--out", str(out)]) == 2
    assert fragment in _one_line(capsys)
    assert not out.exists()  # refused before anything ran or was written


def test_python_api_refuses_the_same(tmp_path) -> None:
    import fltheory

    trace = tmp_path / "trace.csv"
    trace.write_text("1,0\n0,1\n1,1\n")
    raw = {
        "run": {"rounds": 2}, "device": "cpu",
        "problem": {"kind": "quadratic", "u": [[0.0], [1.0]]},
        "availability": {"kind": "trace", "path": str(trace)},
        "algorithms": [{"name": "fedavg"}],
    }  # fmt: skip
    with pytest.raises(InputError, match="no limit is known for availability kind 'trace'"):
        fltheory.simulate(raw, theory=True)
    with pytest.raises(InputError, match="burn_in needs theory"):
        fltheory.simulate(raw, burn_in=3)


def _keys(obj, skip: frozenset[str]) -> set[str]:
    """Every dict key of ``obj``, not descending into the keys of data-keyed maps ``skip``."""
    if isinstance(obj, dict):
        out = set(obj)
        for key, value in obj.items():
            if key in skip and isinstance(value, dict):
                out |= {k for v in value.values() for k in _keys(v, skip)}
            elif key != "provenance":  # documented as summary.json's
                out |= _keys(value, skip)
        return out
    if isinstance(obj, list):
        return {k for item in obj for k in _keys(item, skip)}
    return set()


def test_theory_json_keys_are_documented(tmp_path, capsys) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "outputs.md").read_text()
    config = tmp_path / "c.toml"
    config.write_text(
        BERNOULLI.replace("rounds = 2", "rounds = 30").replace("seeds = 1", "seeds = 3")
        + '[[algorithms]]\nname = "fedpbc"\n[[algorithms]]\nname = "mifa"\n'
    )
    out = tmp_path / "out"
    # A result written without --theory, then judged by --resume --theory (kept, not rerun):
    # the theory files join it under the same manifest.
    assert main(["simulate", "--config", str(config), "--json", "--out", str(out)]) == 0
    capsys.readouterr()
    argv = ["simulate", "--config", str(config), "--theory", "--resume", "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert is_complete(out) and read_manifest(out)["status"] == "complete"
    listed = {entry["name"] for entry in read_manifest(out)["files"]}
    assert {"theory.json", "theory.csv", "theory.png", "clients.npz"} <= listed
    assert json.loads((out / "theory.json").read_text())["verdicts"] == payload["verdicts"]
    found = _keys(payload, frozenset({"algorithms", "verdicts", "models", "csv_columns"}))
    assert sorted(k for k in found if f"`{k}`" not in doc) == []
    assert sorted(k for k in payload["csv_columns"] if f"`{k}`" not in doc) == []
    assert {"server", "client_mean"} <= set(payload["algorithms"]["fedpbc"]["models"])


# --- the docs page ------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def test_the_rules_table_is_current_and_linked() -> None:
    from fltheory.sim.registries import ALGORITHMS
    from fltheory.sim.theory.docs import PAGE, render

    text = PAGE.read_text()
    assert text == render(text), "run python -m fltheory.sim.theory.docs"
    assert all(f"| `{name}` |" in text for name in ALGORITHMS.names())
    readme = (ROOT / "README.md").read_text()
    assert "(docs/theory_vs_simulation.md)" in readme
    assert "fltheory simulate --config examples/sim_three_groups.toml --theory --out" in readme


def test_the_pages_python_example_runs(monkeypatch) -> None:
    import doctest
    import io
    import re

    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "theory_vs_simulation.md").read_text()
    (block,) = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    test = doctest.DocTestParser().get_doctest(block, {}, "page", "theory_vs_simulation.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
