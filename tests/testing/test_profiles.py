"""fltheory.testing.register_profiles: the ``ci`` and ``thorough`` profiles for a user's own
conftest — the repository's conftest uses it, and a fresh project's pytest run picks the profile
named by HYPOTHESIS_PROFILE."""

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

from fltheory.testing import register_profiles

ROOT = Path(__file__).resolve().parents[2]

USER_TEST = """
from hypothesis import given, settings, strategies as st

from fltheory.testing import product_chains


@given(product_chains(max_clients=2))
def test_lambda(chain):
    assert 0.5 <= chain.lam < 1.0


def test_profile():
    current = settings()
    print("PROFILE", current.max_examples, current.derandomize, current.database is None)
"""


def test_the_profiles_are_registered_and_the_variable_picks_one(monkeypatch):
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "thorough")
    assert register_profiles(load=False) == "thorough"
    ci, thorough = settings.get_profile("ci"), settings.get_profile("thorough")
    assert (ci.max_examples, ci.derandomize, ci.database, ci.deadline) == (40, True, None, None)
    assert (thorough.max_examples, thorough.derandomize) == (1000, False)
    monkeypatch.delenv("HYPOTHESIS_PROFILE")
    assert register_profiles(load=False, default="thorough") == "thorough"


def test_the_repository_conftest_uses_it():
    assert "register_profiles()" in (ROOT / "conftest.py").read_text()
    assert "register_profile(" not in (ROOT / "conftest.py").read_text()


def _user_run(folder: Path, profile: str | None, *only: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    environ.update(PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    if profile:
        environ["HYPOTHESIS_PROFILE"] = profile
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--rootdir",
         str(folder), str(folder), *only],
        cwd=folder, env=environ, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:]
    return next(line for line in proc.stdout.splitlines() if "PROFILE" in line)


def test_a_users_conftest_gets_the_profiles(tmp_path):
    (tmp_path / "conftest.py").write_text(
        "from fltheory.testing import register_profiles\n\nregister_profiles()\n"
    )
    (tmp_path / "test_mine.py").write_text(USER_TEST)
    assert _user_run(tmp_path, None).endswith("PROFILE 40 True True")
    # (the 1000 random examples themselves are not drawn here: only the profile is read; its
    # database is Hypothesis' default, which is None where Hypothesis detects a CI service)
    assert " PROFILE 1000 False " in " " + _user_run(tmp_path, "thorough", "-k", "profile")
