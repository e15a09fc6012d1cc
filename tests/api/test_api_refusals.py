"""The Python API refuses what the CLI refuses, with the same exception class (an
:class:`~fltheory.errors.FLTheoryError`, exit 2 on the command line) and a message naming the
option as each face spells it; and what only Python can get wrong (a config that is a number,
a progress callback that is not callable, ``t_max = -1``) is refused the same way, never a
TypeError, an ignored option or a silently dropped result."""

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fltheory
from fltheory.cli.app import main
from fltheory.errors import FLTheoryError, InputError
from fltheory.markov import MarkovChain, ProductChain
from fltheory.sweep import load_sweep, run_sweep

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIM = """device = "cpu"
seeds = 2
[run]
rounds = 2
[problem]
kind = "fedpbc_quadratic"
n_clients = 3
dim = 2
[availability]
kind = "bernoulli"
p = 0.5
[[algorithms]]
name = "fedavg"
"""
DENSE = MarkovChain([[0.5, 0.5], [0.3, 0.7]])

#: (CLI flags, Python keywords, words of the CLI message, words of the Python message)
BOTH_FACES = [
    (["--resume"], {"resume": True}, "--resume, --overwrite and --checkpoint-every need --out",
     "resume, overwrite and checkpoint_every need out"),
    (["--overwrite"], {"overwrite": True}, "need --out", "need out"),
    (["--checkpoint-every", "2"], {"checkpoint_every": 2}, "need --out", "need out"),
    (["--out", "o", "--checkpoint-every", "-1"], {"out": "o", "checkpoint_every": -1},
     "--checkpoint-every must be >= 0 rounds", "checkpoint_every must be >= 0 rounds"),
    (["--seeds", "0"], {"seeds": 0}, "--seeds must be >= 1, got 0", "seeds must be >= 1, got 0"),
    (["--threads", "-1"], {"threads": -1}, "--threads must be >= 0", "threads must be >= 0"),
    (["--device", "tpu"], {"device": "tpu"}, "--device must be auto, cpu or cuda, got 'tpu'",
     "device must be auto, cpu or cuda, got 'tpu'"),
    (["--memory-limit", "lots"], {"memory_limit": "lots"}, "--memory-limit must be a positive",
     "memory_limit must be a positive"),
]  # fmt: skip


@pytest.mark.parametrize(("flags", "keywords", "cli_words", "py_words"), BOTH_FACES)
def test_simulate_refuses_alike_on_both_faces(
    tmp_path, monkeypatch, capsys, flags, keywords, cli_words, py_words
):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text(SIM)
    assert main(["simulate", "--config", str(config), *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fltheory: error: ") and cli_words in err
    with pytest.raises(InputError) as refused:
        fltheory.simulate(config, **keywords)
    assert py_words in str(refused.value) and "--" not in str(refused.value)
    assert not (tmp_path / "o").exists()  # refused before any work


def test_chain_options_for_dense_chains_are_refused_for_product_chains(capsys):
    assert main(["chain", "--client", "0.5:0.1", "--exact"]) == 2
    assert "--exact applies to --matrix chains" in capsys.readouterr().err
    with pytest.raises(InputError, match="exact applies to dense chains"):
        fltheory.chain_report(ProductChain([0.5], [0.1]), exact=True)
    with pytest.raises(InputError, match="t_max applies to dense chains"):
        fltheory.chain_report(ProductChain([0.5], [0.1]), t_max=50)


def _sweep(**options: Any) -> Any:
    return run_sweep(load_sweep(EXAMPLES / "sweep_fedpbc_pgroups.toml"), "unused.db", **options)


PYTHON_ONLY: list[tuple[Any, str]] = [
    (lambda: fltheory.simulate(42), "config must be a TOML file or a dict"),
    (lambda: fltheory.simulate(EXAMPLES / "sim_fedpbc_fig2.toml", progress=3), "progress must be"),
    (lambda: fltheory.chain_report(DENSE, t_max=-1), "t_max must be an integer >= 1, got -1"),
    (lambda: fltheory.chain_report(DENSE, t_max=0), "t_max must be an integer >= 1"),
    (lambda: fltheory.chain_report(DENSE, t_max=1.5), "t_max must be an integer >= 1"),
    (lambda: fltheory.chain_report(DENSE, t_max="10"), "t_max must be an integer >= 1"),
    (lambda: fltheory.chain_report(DENSE, exact="no"), "exact must be True or False"),
    (
        lambda: fltheory.chain_report([[0.5, 0.5], [0.3, 0.7]]),
        "must be an AvailabilityChain (MarkovChain",
    ),
    (lambda: fltheory.optimal_weights(42), "setup must be a ProblemSetup, a problem file"),
    (lambda: fltheory.bound_report(42), "setup must be a ProblemSetup, a problem file"),
    (
        lambda: fltheory.bound_report(EXAMPLES / "quadratic_small.toml", use_safe_T_P="no"),
        "use_safe_T_P must be True or False",
    ),
    (lambda: fltheory.aggregation_limit("abc", p=[0.5]), "u must be an N×d matrix of numbers"),
    (lambda: _sweep(workers=1.5), "workers must be an integer >= 1, got 1.5"),
    (lambda: _sweep(workers=True), "workers must be an integer >= 1, got True"),
    (lambda: load_sweep(42), "the sweep file must be a path"),
    (
        lambda: fltheory.aggregation_limit([[0.0], [1.0]], p=[0.5, 1.0], q=[1, 1], normalised=1),
        "normalised must be True or False",
    ),
]


@pytest.mark.parametrize(("call", "words"), PYTHON_ONLY)
def test_python_only_mistakes_are_refused_in_one_line(call, words):
    with pytest.raises(FLTheoryError) as refused:
        call()
    assert words in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("problem", [14, "14", 212, "212"])
def test_problem_numbers_are_accepted_as_numbers_or_text(problem):
    report = fltheory.optimal_weights(EXAMPLES / "quadratic_small.toml", problem=problem)
    assert report.result.problem == str(problem)


def test_an_unknown_problem_message_does_not_contradict_itself():
    for problem in (13, "13"):
        with pytest.raises(InputError) as refused:
            fltheory.optimal_weights(EXAMPLES / "quadratic_small.toml", problem=problem)
        assert str(refused.value) == f"problem must be 14 or 212, got {problem!r}"


def test_a_short_envelope_is_reported_as_short_not_as_a_large_chain():
    report = fltheory.chain_report(DENSE, t_max=5)
    assert report.warnings == ("empirical C_P skipped: t_max = 5 is below the 10 steps it needs",)
    assert fltheory.chain_report(DENSE, t_max=50).empirical is not None


@pytest.mark.parametrize("eps", [0.0, 1.0, math.nan])
def test_mixing_eps_is_checked_for_every_chain(eps):
    for chain in (DENSE, ProductChain([0.5], [0.1])):
        with pytest.raises(InputError, match="eps must lie in"):
            fltheory.chain_report(chain, eps=eps)


def test_numpy_booleans_are_booleans():
    report = fltheory.chain_report(DENSE, exact=np.bool_(False))
    assert report.method == "dense"
