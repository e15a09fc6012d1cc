"""Every command refuses hostile input with exit 2 and one line on stderr, fast (issue 10).

The corpus (``corpus.py``: numbers that overflow or explode, pipes, devices, directories, binary
and non-UTF-8 files, deep JSON/TOML, lying ``.npy`` headers, absurd sizes) runs in driver
processes (``driver.py``), a few dozen cases each, under a 6 GiB address-space limit: a case
that hangs, allocates without bound or crashes the process fails, with its name. Valid inputs
of the same commands (``controls``) must still exit 0. A sample also runs as real
``python -m fltheory`` processes, for the contract of the whole process.
"""

import importlib.util
import json
import os
import resource
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
_spec = importlib.util.spec_from_file_location("hostile_corpus", HERE / "corpus.py")
assert _spec is not None and _spec.loader is not None
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)

#: Address-space limit of every process started here (a runaway allocation fails, not the host).
MEMORY_LIMIT = 6 * 2**30
#: A refusal must come within this many CPU seconds (CPU, not wall time: a loaded machine must
#: not fail a case; a refusal of a simulate config that passed the torch-free checks imports
#: torch first). Wall-clock timeouts below only guard against hangs.
CASE_SECONDS = 15.0
#: Cases per driver process.
CHUNK = 40

Case = tuple[str, list[str], dict[str, object]]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, "OMP_NUM_THREADS": "1",
            "FLTHEORY_CASE_SECONDS": str(2 * CASE_SECONDS)}  # fmt: skip


def _wire(files: dict[str, object]) -> dict[str, object]:
    return {k: "hex:" + v.hex() if isinstance(v, bytes) else v for k, v in files.items()}


def run_cases(cases: list[Case]) -> dict[str, dict]:
    """Outcome of each case by name; a driver that dies or stops answering is replaced, and the
    case it was running is reported as such."""
    results: dict[str, dict] = {}
    pending = list(cases)
    while pending:
        payload = json.dumps([(n, a, _wire(f)) for n, a, f in pending])
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "driver.py")], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_env(),
            preexec_fn=_limit_memory,
        )  # fmt: skip
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(payload)
        proc.stdin.close()
        deadline = time.monotonic() + 60 + 3 * CASE_SECONDS  # startup, then per case
        while pending:
            ready, _, _ = select.select([proc.stdout], [], [], max(deadline - time.monotonic(), 0))
            line = proc.stdout.readline() if ready else ""
            if not line:
                proc.kill()
                name = pending.pop(0)[0]
                died = "stopped answering" if not ready else f"died (status {proc.wait()})"
                results[name] = {"status": f"driver {died}", "stdout": "", "stderr": "",
                                 "seconds": float("inf")}  # fmt: skip
                break
            record = json.loads(line)
            results[record["name"]] = record
            pending.pop(0)
            deadline = time.monotonic() + 3 * CASE_SECONDS
        proc.wait()
    return results


def _child_cpu_since(before: resource.struct_rusage) -> float:
    """CPU seconds (user + system) of the children waited for since ``before``."""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def refused(record: dict) -> bool:
    """Exit 2, nothing on stdout, one line on stderr that is a user error, in time."""
    lines = record["stderr"].strip().splitlines()
    return (
        record["status"] == 2
        and record["stdout"] == ""
        and len(lines) == 1
        and lines[0].startswith("fltheory: error:")
        and record["seconds"] < CASE_SECONDS
    )


def _describe(record: dict) -> str:
    tail = (record["stderr"].strip().splitlines() or [""])[-1][:160]
    return f"{record['name']}: status {record['status']}, {record['seconds']:.1f} s, {tail!r}"


CASES = corpus.cases()
CHUNKS = [CASES[i : i + CHUNK] for i in range(0, len(CASES), CHUNK)]


def test_corpus_is_large_and_covers_every_command() -> None:
    commands = {argv[0] for _, argv, _ in CASES}
    assert len(CASES) >= 150
    assert commands == {
        "chain", "bound", "optimize-q", "limit", "simulate", "check", "reproduce", "report"
    }  # fmt: skip
    assert len({name for name, _, _ in CASES}) == len(CASES)


@pytest.mark.parametrize("chunk", range(len(CHUNKS)), ids=lambda i: f"cases{i * CHUNK}+")
def test_hostile_inputs_are_refused_in_one_line(chunk: int) -> None:
    results = run_cases(CHUNKS[chunk])
    failures = [_describe(r) for r in results.values() if not refused(r)]
    assert not failures, f"{len(failures)} case(s) not refused cleanly:\n" + "\n".join(failures)


def test_valid_inputs_still_succeed() -> None:
    results = run_cases(corpus.controls())
    failures = [_describe(r) for r in results.values() if r["status"] != 0]
    assert not failures, "\n".join(failures)


def test_out_refused_before_any_work() -> None:
    results = run_cases(corpus.out_cases())
    failures = [_describe(r) for r in results.values() if not refused(r)]
    assert not failures, "\n".join(failures)


SAMPLE = ["chain-client-pi-2", "chain-clients-file-fifo", "chain-matrix-npy-devzero",
          "limit-u-npy-complex", "bound-pi-short", "optimize-q-preset-huge",
          "simulate-seeds-huge", "check-seconds-nan"]  # fmt: skip


@pytest.mark.parametrize("name", SAMPLE)
def test_whole_process_contract(name: str, tmp_path: Path) -> None:
    """The same cases as real processes: exit 2, one stderr line, nothing on stdout."""
    _, argv, files = next(c for c in CASES if c[0] == name)
    corpus.materialise(tmp_path, files)
    args = [a.replace("{tmp}", str(tmp_path)).replace("{examples}", str(corpus.EXAMPLES))
            for a in argv]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "fltheory", *args], capture_output=True, text=True, cwd=tmp_path,
        env=_env(), preexec_fn=_limit_memory, timeout=4 * CASE_SECONDS,
    )  # fmt: skip
    record = {"name": name, "status": done.returncode, "stdout": done.stdout,
              "stderr": done.stderr, "seconds": _child_cpu_since(before)}  # fmt: skip
    assert refused(record), _describe(record)


def test_simulate_refuses_absurd_sizes_before_importing_torch(tmp_path: Path) -> None:
    config = tmp_path / "s.toml"
    config.write_text(corpus.SIM.replace("rounds = 4", "rounds = 1000000000"))
    code = (
        "import sys; from fltheory.cli.app import run; "
        f"status = run(['simulate', '--config', {str(config)!r}]); "
        "print(status, 'torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(), timeout=4 * CASE_SECONDS)  # fmt: skip
    assert done.stdout.split() == ["2", "False"], done.stdout + done.stderr
    assert "would need ~" in done.stderr and "available" in done.stderr
