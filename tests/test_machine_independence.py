"""The suite passes on any machine: property tests draw the same examples everywhere (the
derandomized ``ci`` Hypothesis profile, the default), and the chunked local-step tests pass on a
CPU whose float32 matrix products round differently by batch size (emulated by the
``gemm_jitter`` plug-in: the chunk tests of issue 24 failed on such an AMD EPYC)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOW = (
    "import json, conftest\n"
    "from hypothesis import settings\n"
    "s = settings.default\n"
    "print(json.dumps([s.derandomize, s.database is None, s.max_examples]))\n"
)


def _profile(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    done = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.parametrize("env", [{}, {"CI": "true"}, {"HYPOTHESIS_PROFILE": "ci"}])
def test_ci_and_default_runs_are_derandomized(env):
    assert _profile(**env) == "[true, true, 40]"


def test_the_thorough_profile_draws_at_random():
    assert _profile(HYPOTHESIS_PROFILE="thorough") == "[false, false, 1000]"


def test_make_test_selects_the_ci_profile():
    make = (ROOT / "Makefile").read_text()
    assert "HYPOTHESIS_PROFILE=ci" in make.split("TEST_ENV :=")[1].splitlines()[0]


def test_chunk_tests_pass_where_gemm_rounding_depends_on_the_batch():
    test = ROOT / "tests" / "sim" / "test_sim_local_step.py"
    plugins = ["-p", "gemm_jitter", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *plugins, "-k", "chunk", str(test)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests' / 'hostile'}"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert " passed" in done.stdout and "deselected" in done.stdout


def test_the_jitter_plugin_changes_bits():
    """The emulation bites: one batch of 65 rows and the same rows in two chunks differ."""
    code = (
        "import torch, gemm_jitter\n"
        "gemm_jitter.install()\n"
        "g = torch.Generator().manual_seed(0)\n"
        "a, b = torch.randn(65, 3, 8, generator=g), torch.randn(65, 8, 4, generator=g)\n"
        "whole = torch.bmm(a, b)\n"
        "parts = torch.cat([torch.bmm(a[:64], b[:64]), torch.bmm(a[64:], b[64:])])\n"
        "print(torch.equal(whole, parts), torch.allclose(whole, parts, rtol=1e-6, atol=0))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT / "tests" / "hostile")},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["False", "True"]
