"""The result-folder corpus of issue 24 (``corpus_results.py``): every case must pass. Its
cases start real writer processes, stop and kill them, and compute several reports, so the
whole corpus is ``slow`` (some 15 minutes on 2 shared cores); the default suite has the same
situations as unit and CLI tests (tests/core/test_resultdir.py, tests/cli/test_result_folders.py)
and checks here that the corpus covers every class."""

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus_results  # noqa: E402


def test_the_corpus_covers_each_class_with_its_neighbours():
    counts = {k: sum(c.klass == k for c in corpus_results.cases()) for k in corpus_results.CLASSES}
    assert counts["1"] >= 10 and counts["2"] >= 15 and counts["3"] >= 15 and counts["8"] >= 6
    names = [c.name for c in corpus_results.cases()]
    assert len(names) == len(set(names))


@pytest.mark.slow
def test_every_case_of_the_corpus_passes(tmp_path):
    done = subprocess.run(
        [sys.executable, str(HERE / "results_driver.py")],
        capture_output=True,
        text=True,
        timeout=3600,
        cwd=tmp_path,
    )
    failures = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert done.returncode == 0 and not failures, "\n".join(failures) or done.stderr[-2000:]
