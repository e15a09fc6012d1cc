"""An adversarial corpus around result folders (issue 24, classes 1, 2, 3 and the README item
of class 8): concurrent writers, kills and full disks in the middle of a write, resumes that
must not trust what they find, writers that must not destroy what they did not write, and the
README's ``--out results/...`` commands on a fresh clone.

A case is ``Case(klass, name, run)``: ``run(tmp)`` plays the situation in the empty folder
``tmp`` (the working directory) and returns None when fltheory behaved, or a one-line reason.
Only the command line, the files and real processes are used (no fltheory internals), so the
same corpus runs against any version of the code: ``results_driver.py`` prints pass/fail counts
by class, ``test_result_folders_corpus.py`` requires every case to pass.
"""

import contextlib
import errno
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

#: Classes of issue 24 this corpus covers.
CLASSES = {
    "1": "lock and staging of result folders",
    "2": "--resume verifies before it trusts",
    "3": "writers never destroy what they did not write",
    "8": "README commands and the messages' advice",
}

TINY = """
name = "tiny"
seed = 3
seeds = 2
device = "cpu"
dtype = "float64"
[run]
rounds = 4
local_steps = 1
lr = 0.1
[problem]
kind = "quadratic"
u = [[0.0], [1.0], [2.0]]
[availability]
kind = "bernoulli"
p = [0.5, 0.5, 0.9]
[[algorithms]]
name = "fedavg"
"""
OTHER = TINY.replace("lr = 0.1", "lr = 0.2").replace('name = "tiny"', 'name = "other"')
#: Runs for some seconds after its start (long enough to be stopped or killed in the middle).
LONG = """
name = "long"
seed = 7
seeds = 3
device = "cpu"
dtype = "float64"
[run]
rounds = 3000
local_steps = 10
eval_every = 50
lr = 0.01
[problem]
kind = "fedpbc_quadratic"
n_clients = 40
dim = 30
[availability]
kind = "bernoulli"
p_groups = [0.2, 0.9]
[[algorithms]]
name = "fedpbc"
[[algorithms]]
name = "mifa"
"""
REPORT = """
title = "eight clients"
[population]
n = 8
[simulation]
rounds = 20
seeds = 2
leaf = false
limit_clients = 4
raster_rounds = 10
[problem]
kappa2 = [1.0]
"""
SWEEP_BASE = TINY
SWEEP = """
base = "base.toml"
seeds = 2
[axes]
"run.lr" = [0.1, 0.2]
"""


# --- helpers ------------------------------------------------------------------------------------


@dataclass
class Outcome:
    status: int
    out: str
    err: str


def cli(*argv: str) -> Outcome:
    """Run the CLI in this process (what ``python -m fltheory`` runs), output captured."""
    from fltheory.cli.app import run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run([str(a) for a in argv])
    return Outcome(status, out.getvalue(), err.getvalue())


def env() -> dict[str, str]:
    """The environment of a child ``python -m fltheory``: the code under test first."""
    code = os.environ.get("FLTHEORY_CODE", str(ROOT))
    return {**os.environ, "PYTHONPATH": code, "OMP_NUM_THREADS": "1"}


def spawn(*argv: str) -> subprocess.Popen:
    """A real ``python -m fltheory`` process (output discarded: a pipe nobody reads could
    block it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "fltheory", *map(str, argv)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(),
    )


def wait_for(predicate: Callable[[], bool], proc: subprocess.Popen, seconds: float = 300) -> bool:
    """Poll until ``predicate()`` holds (True) or ``proc`` ends first (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return False


def refused(o: Outcome, *fragments: str) -> str | None:
    """None when ``o`` is a one-line refusal (exit 2) containing every fragment (``report``'s
    progress lines on stderr aside)."""
    lines = [line for line in o.err.strip().splitlines() if not line.startswith("fltheory report:")]
    if o.status != 2 or len(lines) != 1 or not lines[0].startswith("fltheory: error:"):
        return f"not a one-line refusal: status {o.status}, {o.err.strip()[-200:]!r}"
    missing = [f for f in fragments if f.lower() not in lines[0].lower()]
    return f"refusal lacks {missing}: {lines[0][:200]!r}" if missing else None


def ok(o: Outcome) -> str | None:
    return None if o.status == 0 else f"status {o.status}: {o.err.strip()[-200:]!r}"


def manifest(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def lies(folder: Path) -> str | None:
    """A manifest that says "complete" over files that do not match it is a lie."""
    m = manifest(folder)
    if m is None or m.get("status") != "complete":
        return None
    for entry in m.get("files", []):
        path = folder / entry["name"]
        if not path.is_file() or sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            return f"manifest says complete but {entry['name']} does not match it"
    return None


def complete(folder: Path) -> str | None:
    m = manifest(folder)
    if m is None or m.get("status") != "complete":
        return f"{folder.name}: no complete manifest"
    return lies(folder)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def first(*checks: str | None) -> str | None:
    return next((c for c in checks if c), None)


@contextlib.contextmanager
def fsync_fails_after(calls: int) -> Iterator[None]:
    """``os.fsync`` raises ENOSPC (disk full) from the ``calls``-th call on."""
    real, count = os.fsync, [0]

    def fsync(fd: int) -> None:
        count[0] += 1
        if count[0] >= calls:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    os.fsync = fsync  # type: ignore[assignment]
    try:
        yield
    finally:
        os.fsync = real  # type: ignore[assignment]


def in_child_killed_after_renames(renames: int, *argv: str) -> int:
    """Run the CLI in a forked child that SIGKILLs itself after its ``renames``-th os.replace
    (a kill -9 in the middle of writing the files); returns the child's wait status."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        real, count = os.replace, [0]

        def replace(src, dst, **kw):  # type: ignore[no-untyped-def]
            real(src, dst, **kw)
            count[0] += 1
            if count[0] >= renames:
                os.kill(os.getpid(), signal.SIGKILL)

        os.replace = replace  # type: ignore[assignment]
        sys.stdout = open(os.devnull, "w")
        sys.stderr = open(os.devnull, "w")
        try:
            cli(*argv)
        finally:
            os._exit(0)
    return os.waitpid(pid, 0)[1]


def edit_manifest(folder: Path, change: Callable[[dict], object]) -> None:
    data = manifest(folder)
    assert data is not None
    change(data)
    (folder / "manifest.json").write_text(json.dumps(data))


def rehash(folder: Path, name: str) -> None:
    """Make the manifest agree with an edited file (a consistent forgery)."""
    digest = sha256((folder / name).read_bytes()).hexdigest()
    size = (folder / name).stat().st_size

    def change(m: dict) -> None:
        for entry in m["files"]:
            if entry["name"] == name:
                entry.update(sha256=digest, size=size)

    edit_manifest(folder, change)


def simulate(config: Path, out: Path, *flags: str) -> Outcome:
    return cli("simulate", "--config", config, "--out", out, "--json", *flags)


# --- class 1: one writer at a time, committed at once -------------------------------------------


def _second_writer_refused(tmp: Path, flags: tuple[str, ...]) -> str | None:
    """A second ``simulate`` into the folder a first one is writing is refused, naming the
    first (its pid); the first, stopped meanwhile, finishes a consistent result."""
    long, tiny = write(tmp / "long.toml", LONG), write(tmp / "tiny.toml", TINY)
    out = tmp / "out"
    first_proc = spawn("simulate", "--config", long, "--out", out, "--checkpoint-every", "0")
    try:
        if not wait_for(lambda: (out / "manifest.json").exists(), first_proc):
            return "the first writer ended before it wrote anything"
        os.kill(first_proc.pid, signal.SIGSTOP)
        second = simulate(tiny, out, *flags)
        os.kill(first_proc.pid, signal.SIGCONT)
        status = first_proc.wait(timeout=600)
    finally:
        if first_proc.poll() is None:
            os.kill(first_proc.pid, signal.SIGCONT)
            first_proc.kill()
            first_proc.wait()
    name = (json.loads((out / "summary.json").read_text()) or {}).get("summary", {}).get("name")
    return first(
        refused(second, str(first_proc.pid)),
        None if status == 0 else f"the first writer exited {status}",
        complete(out),
        None if name == "long" else f"summary.json is {name!r}'s, not the first writer's",
    )


def c1_second_writer_plain(tmp: Path) -> str | None:
    return _second_writer_refused(tmp, ())


def c1_second_writer_overwrite(tmp: Path) -> str | None:
    return _second_writer_refused(tmp, ("--overwrite",))


def c1_second_writer_resume(tmp: Path) -> str | None:
    return _second_writer_refused(tmp, ("--resume",))


def c1_second_report_refused(tmp: Path) -> str | None:
    """Two ``report`` runs into one new folder: the second is refused naming the first."""
    cfg, other = write(tmp / "r.toml", REPORT), write(tmp / "r2.toml", REPORT.replace("8", "6"))
    out = tmp / "rep"
    proc = spawn("report", "--config", cfg, "--out", out, "--quick")

    def writing() -> bool:  # its lock taken (and named), or (no lock) its first figure written
        lock = out / ".fltheory.lock"
        return (lock.exists() and lock.stat().st_size > 0) or (out / "figures").exists()

    try:
        if not wait_for(writing, proc):
            return "the first report ended before its folder appeared"
        os.kill(proc.pid, signal.SIGSTOP)
        second = cli("report", "--config", other, "--out", out, "--quick")
        os.kill(proc.pid, signal.SIGCONT)
        status = proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGCONT)
            proc.kill()
            proc.wait()
    n = json.loads((out / "report.json").read_text())["config"]["population"]["n"]
    return first(
        refused(second, str(proc.pid)),
        None if status == 0 else f"the first report exited {status}",
        complete(out),
        None if n == 8 else f"report.json is the second report's ({n} clients)",
    )


def c1_holder_named_in_full(tmp: Path) -> str | None:
    """The refusal names the holder: pid, host and the time it started."""
    long, tiny = write(tmp / "long.toml", LONG), write(tmp / "tiny.toml", TINY)
    out = tmp / "out"
    proc = spawn("simulate", "--config", long, "--out", out, "--checkpoint-every", "0")
    try:
        if not wait_for(lambda: (out / "manifest.json").exists(), proc):
            return "the first writer ended before it wrote anything"
        second = simulate(tiny, out, "--resume")
    finally:
        proc.kill()
        proc.wait()
    return refused(second, str(proc.pid), os.uname().nodename, "since", "simulate")


def c1_stale_lock_taken_over(tmp: Path) -> str | None:
    """A writer killed with SIGKILL leaves its lock behind: the next ``--resume`` takes it."""
    long = write(tmp / "long.toml", LONG)
    out = tmp / "out"
    proc = spawn("simulate", "--config", long, "--out", out, "--checkpoint-every", "200")
    if not wait_for(lambda: (out / "checkpoint").exists(), proc):
        proc.kill()
        return "the writer ended before its first checkpoint"
    proc.kill()
    proc.wait()
    return first(ok(simulate(long, out, "--resume", "--checkpoint-every", "0")), complete(out))


def c1_stale_lock_file_of_dead_pid(tmp: Path) -> str | None:
    """A lock file naming a process that is gone (this host) does not block a new writer."""
    tiny = write(tmp / "tiny.toml", TINY)
    out = tmp / "out"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    holder = {"pid": dead.pid, "host": os.uname().nodename, "command": "fltheory simulate",
              "since": "2000-01-01T00:00:00+00:00"}  # fmt: skip
    out.mkdir()
    (out / ".fltheory.lock").write_text(json.dumps(holder))
    return first(ok(simulate(tiny, out)), complete(out))


def c1_simulate_disk_full_on_overwrite(tmp: Path) -> str | None:
    """An ``--overwrite`` that hits a full disk never leaves a "complete" manifest over files
    that do not match it."""
    tiny, other = write(tmp / "tiny.toml", TINY), write(tmp / "other.toml", OTHER)
    out = tmp / "out"
    if reason := ok(simulate(tiny, out)):
        return reason
    with fsync_fails_after(3):
        failed = simulate(other, out, "--overwrite")
    return first(refused(failed, "space"), lies(out))


def c1_check_disk_full_on_overwrite(tmp: Path) -> str | None:
    out = tmp / "chk"
    argv = ("check", "fedpbc:prop1-printed", "--budget", "20", "--out", out, "--json")
    if reason := ok(cli(*argv)):
        return reason
    with fsync_fails_after(2):
        failed = cli(*argv, "--seed", "1", "--overwrite")
    return first(refused(failed, "space"), lies(out))


def c1_report_disk_full_on_rerun(tmp: Path) -> str | None:
    """A report rerun that fails half way (disk full) leaves no "complete" manifest over a
    mix of two runs' figures."""
    cfg, other = write(tmp / "r.toml", REPORT), write(tmp / "r2.toml", REPORT.replace("8", "6"))
    out = tmp / "rep"
    if reason := ok(cli("report", "--config", cfg, "--out", out, "--quick")):
        return reason
    with fsync_fails_after(4):
        failed = cli("report", "--config", other, "--out", out, "--quick", "--overwrite")
    return first(refused(failed, "space"), lies(out))


def c1_report_killed_mid_write(tmp: Path) -> str | None:
    """A report rerun killed (SIGKILL) after some of its files were renamed into place never
    looks complete."""
    cfg, other = write(tmp / "r.toml", REPORT), write(tmp / "r2.toml", REPORT.replace("8", "6"))
    out = tmp / "rep"
    if reason := ok(cli("report", "--config", cfg, "--out", out, "--quick")):
        return reason
    status = in_child_killed_after_renames(
        3, "report", "--config", other, "--out", out, "--quick", "--overwrite"
    )
    if not os.WIFSIGNALED(status):
        return f"the rerun was not killed (status {status})"
    return lies(out)


def c1_simulate_killed_mid_write(tmp: Path) -> str | None:
    tiny, other = write(tmp / "tiny.toml", TINY), write(tmp / "other.toml", OTHER)
    out = tmp / "out"
    if reason := ok(simulate(tiny, out)):
        return reason
    status = in_child_killed_after_renames(3, "simulate", "--config", other, "--out", out,
                                           "--overwrite")  # fmt: skip
    if not os.WIFSIGNALED(status):
        return f"the rerun was not killed (status {status})"
    return first(lies(out), ok(simulate(other, out, "--resume")), complete(out))


def c1_check_killed_mid_write(tmp: Path) -> str | None:
    out = tmp / "chk"
    argv = ("check", "fedpbc:prop1-printed", "--budget", "20", "--out", out)
    if reason := ok(cli(*argv)):
        return reason
    status = in_child_killed_after_renames(1, *argv, "--seed", "1", "--overwrite")
    if not os.WIFSIGNALED(status):
        return f"the rerun was not killed (status {status})"
    return lies(out)


# --- class 2: --resume verifies before it trusts ------------------------------------------------


def _complete_tiny(tmp: Path) -> tuple[Path, Path]:
    tiny = write(tmp / "tiny.toml", TINY)
    out = tmp / "out"
    assert simulate(tiny, out).status == 0
    return tiny, out


def c2_resume_another_config(tmp: Path) -> str | None:
    _, out = _complete_tiny(tmp)
    other = write(tmp / "other.toml", OTHER)
    return refused(simulate(other, out, "--resume"), "config")


def c2_resume_other_seeds(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    return refused(simulate(tiny, out, "--resume", "--seeds", "3"), "config")


def c2_resume_overwrite_recomputes(tmp: Path) -> str | None:
    _, out = _complete_tiny(tmp)
    other = write(tmp / "other.toml", OTHER)
    done = simulate(other, out, "--resume", "--overwrite")
    name = json.loads((out / "summary.json").read_text())["summary"]["name"]
    return first(ok(done), complete(out), None if name == "other" else f"kept {name!r}")


def c2_resume_same_config_kept(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    before = (out / "summary.json").read_bytes()
    done = simulate(tiny, out, "--resume")
    same = (out / "summary.json").read_bytes() == before
    return first(ok(done), None if same else "a kept result was rewritten")


def c2_resume_edited_numbers(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    data = json.loads((out / "summary.json").read_text())
    data["summary"]["algorithms"]["fedavg"]["objective"]["final"] = 123456.0
    (out / "summary.json").write_text(json.dumps(data, indent=2))
    done = simulate(tiny, out, "--resume")
    return refused(done, "summary.json")


def c2_resume_edited_timing(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "timing.json").write_text('{"seconds": {"fedavg": 1e9}}\n')
    return refused(simulate(tiny, out, "--resume"), "timing.json")


def c2_resume_deleted_file(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "clients.npz").unlink()
    return refused(simulate(tiny, out, "--resume"), "clients.npz")


def c2_resume_garbage_summary_rehashed(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "summary.json").write_text("this is not JSON {")
    rehash(out, "summary.json")
    return refused(simulate(tiny, out, "--resume"), "summary.json")


def c2_resume_summary_wrong_shape_rehashed(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "summary.json").write_text('{"summary": [1, 2, 3]}')
    rehash(out, "summary.json")
    return refused(simulate(tiny, out, "--resume"), "summary.json")


def c2_resume_garbage_timing_rehashed(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "timing.json").write_text("[]")
    rehash(out, "timing.json")
    return refused(simulate(tiny, out, "--resume"), "timing.json")


def c2_manifest_files_not_a_list(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    edit_manifest(out, lambda m: m.update(files="summary.json"))
    return refused(simulate(tiny, out, "--resume"), "manifest")


def c2_manifest_entry_without_checksum(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    edit_manifest(out, lambda m: m["files"][0].pop("sha256"))
    return refused(simulate(tiny, out, "--resume"), "manifest")


def c2_manifest_not_json(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    (out / "manifest.json").write_text("\x00\x01garbage")
    return refused(simulate(tiny, out, "--resume"))


def c2_manifest_status_unknown(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    edit_manifest(out, lambda m: m.update(status="finished"))
    return refused(simulate(tiny, out, "--resume"), "manifest")


def c2_manifest_provenance_not_a_table(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    edit_manifest(out, lambda m: m.update(provenance=[1]))
    return refused(simulate(tiny, out, "--resume"), "manifest")


def c2_resume_other_version(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    edit_manifest(out, lambda m: m["provenance"].update(fltheory_version="0.0.1"))
    return refused(simulate(tiny, out, "--resume"), "version")


def c2_resume_unfinished_of_another_config(tmp: Path) -> str | None:
    """An unfinished run (killed) of one config resumed with another is refused."""
    long = write(tmp / "long.toml", LONG)
    other = write(tmp / "other.toml", OTHER)
    out = tmp / "out"
    proc = spawn("simulate", "--config", long, "--out", out, "--checkpoint-every", "0")
    if not wait_for(lambda: (out / "manifest.json").exists(), proc):
        proc.kill()
        return "the writer ended before it wrote anything"
    proc.kill()
    proc.wait()
    return refused(simulate(other, out, "--resume"), "config")


def c2_reproduce_resume_other_seeds(tmp: Path) -> str | None:
    out = tmp / "fig4a"
    if reason := ok(cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out)):
        return reason
    done = cli("reproduce", "cafed:fig4a", "--seeds", "4", "--out", out, "--resume")
    return refused(done, "seeds")


def c2_reproduce_resume_tampered_verdict(tmp: Path) -> str | None:
    out = tmp / "fig4a"
    if reason := ok(cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out)):
        return reason
    verdict = json.loads((out / "verdict.json").read_text())
    verdict["verdict"] = "contradicted"
    (out / "verdict.json").write_text(json.dumps(verdict))
    done = cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out, "--resume")
    return refused(done, "verdict.json")


# --- class 3: never destroy what the tool did not write -----------------------------------------


def _hidden(out: Path) -> None:
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / ".notes").write_text("my notes\n")


def _hidden_kept(out: Path) -> str | None:
    kept = (out / ".git" / "HEAD").is_file() and (out / ".notes").is_file()
    return None if kept else "--overwrite deleted .git/ or .notes"


def c3_simulate_overwrite_keeps_hidden(tmp: Path) -> str | None:
    tiny, out = _complete_tiny(tmp)
    _hidden(out)
    return first(ok(simulate(tiny, out, "--overwrite")), _hidden_kept(out), complete(out))


def c3_check_overwrite_keeps_hidden(tmp: Path) -> str | None:
    out = tmp / "chk"
    argv = ("check", "fedpbc:prop1-printed", "--budget", "20", "--out", out)
    if reason := ok(cli(*argv)):
        return reason
    _hidden(out)
    return first(ok(cli(*argv, "--overwrite")), _hidden_kept(out), complete(out))


def c3_reproduce_overwrite_keeps_hidden(tmp: Path) -> str | None:
    out = tmp / "fig4a"
    argv = ("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out)
    if reason := ok(cli(*argv)):
        return reason
    _hidden(out)
    return first(ok(cli(*argv, "--overwrite")), _hidden_kept(out), complete(out))


def c3_manifest_naming_outside_file(tmp: Path) -> str | None:
    """A manifest listing ``../precious.txt`` never gets that file deleted."""
    tiny, out = _complete_tiny(tmp)
    precious = write(tmp / "precious.txt", "keep me")
    edit_manifest(out, lambda m: m["files"].append({"name": "../precious.txt", "size": 7,
                                                    "sha256": "0" * 64}))  # fmt: skip
    simulate(tiny, out, "--overwrite")
    return None if precious.is_file() else "--overwrite deleted a file outside --out"


def _store(tmp: Path) -> Path:
    write(tmp / "base.toml", SWEEP_BASE)
    sweep = write(tmp / "s.toml", SWEEP)
    store = tmp / "runs.db"
    assert cli("sweep", sweep, "--store", store).status == 0
    return store


def _store_intact(store: Path) -> str | None:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
            n = db.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.Error as exc:
        return f"the store was destroyed ({exc})"
    return None if n == 4 else f"the store holds {n} runs, not 4"


def c3_export_over_its_store(tmp: Path) -> str | None:
    store = _store(tmp)
    done = cli("sweep", "export", store, "--format", "csv", "--out", store)
    return first(refused(done, "store"), _store_intact(store))


def c3_export_over_its_store_by_symlink(tmp: Path) -> str | None:
    store = _store(tmp)
    (tmp / "link.csv").symlink_to(store)
    done = cli("sweep", "export", store, "--format", "csv", "--out", tmp / "link.csv")
    return first(refused(done), _store_intact(store))


def c3_export_over_another_store(tmp: Path) -> str | None:
    store = _store(tmp)
    other = tmp / "other.db"
    other.write_bytes(store.read_bytes())
    done = cli("sweep", "export", store, "--format", "csv", "--out", other)
    return first(refused(done, "store"), _store_intact(other))


def c3_export_over_a_fifo(tmp: Path) -> str | None:
    store = _store(tmp)
    os.mkfifo(tmp / "pipe")
    done = cli("sweep", "export", store, "--format", "csv", "--out", tmp / "pipe")
    still = (tmp / "pipe").is_fifo()
    return first(refused(done, "regular"), None if still else "the FIFO was replaced")


def c3_export_over_a_device_node(tmp: Path) -> str | None:
    if os.geteuid() != 0:
        return None  # only root can make a device node; nothing to try
    store = _store(tmp)
    node = tmp / "null"
    os.mknod(node, 0o666 | 0o020000, os.makedev(1, 3))  # a character device: /dev/null's
    done = cli("sweep", "export", store, "--format", "csv", "--out", node)
    still = node.is_char_device()
    return first(refused(done, "regular"), None if still else "the device node was replaced")


def c3_export_over_a_directory(tmp: Path) -> str | None:
    store = _store(tmp)
    (tmp / "d").mkdir()
    (tmp / "d" / "x").write_text("x")
    done = cli("sweep", "export", store, "--format", "csv", "--out", tmp / "d")
    return first(refused(done), None if (tmp / "d" / "x").is_file() else "the folder was lost")


def c3_export_replaces_its_own_csv(tmp: Path) -> str | None:
    store = _store(tmp)
    argv = ("sweep", "export", store, "--format", "csv", "--out", tmp / "r.csv")
    return first(ok(cli(*argv)), ok(cli(*argv)))


def c3_report_into_foreign_folder(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    out = tmp / "mine"
    write(out / "thesis.tex", "\\documentclass{article}")
    done = cli("report", "--config", cfg, "--out", out, "--quick")
    kept = (out / "thesis.tex").is_file() and not (out / "report.html").exists()
    return first(refused(done, "thesis.tex"), None if kept else "wrote into a foreign folder")


def c3_report_over_report_needs_overwrite(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    out = tmp / "rep"
    if reason := ok(cli("report", "--config", cfg, "--out", out, "--quick")):
        return reason
    before = (out / "report.json").read_bytes()
    done = cli("report", "--config", cfg, "--out", out, "--quick")
    same = (out / "report.json").read_bytes() == before
    return first(refused(done, "--overwrite"), None if same else "the report was replaced")


def c3_report_overwrite_keeps_hidden_and_user_figures(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    out = tmp / "rep"
    if reason := ok(cli("report", "--config", cfg, "--out", out, "--quick")):
        return reason
    _hidden(out)
    done = cli("report", "--config", cfg, "--out", out, "--quick", "--overwrite")
    return first(ok(done), _hidden_kept(out), complete(out))


def c3_report_out_is_its_config(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    done = cli("report", "--config", cfg, "--out", cfg, "--quick")
    return first(refused(done), None if cfg.read_text() == REPORT else "the config was changed")


def c3_simulate_out_is_its_config(tmp: Path) -> str | None:
    tiny = write(tmp / "tiny.toml", TINY)
    return first(refused(simulate(tiny, tiny)), None if tiny.read_text() == TINY else "changed")


def c3_simulate_config_inside_out(tmp: Path) -> str | None:
    _, out = _complete_tiny(tmp)
    inside = write(out / "tiny.toml", TINY)
    done = simulate(inside, out, "--overwrite")
    return first(refused(done), None if inside.is_file() else "the config was deleted")


def c3_simulate_out_is_a_store(tmp: Path) -> str | None:
    store = _store(tmp)
    tiny = write(tmp / "tiny.toml", TINY)
    return first(refused(simulate(tiny, store, "--overwrite")), _store_intact(store))


def c3_check_out_is_a_fifo(tmp: Path) -> str | None:
    os.mkfifo(tmp / "pipe")
    done = cli("check", "fedpbc:prop1-printed", "--budget", "5", "--out", tmp / "pipe")
    return first(refused(done), None if (tmp / "pipe").is_fifo() else "the FIFO was replaced")


def c3_overwrite_keeps_user_file_in_figures(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    out = tmp / "rep"
    if reason := ok(cli("report", "--config", cfg, "--out", out, "--quick")):
        return reason
    write(out / "figures" / "my_sketch.svg", "<svg/>")
    done = cli("report", "--config", cfg, "--out", out, "--quick", "--overwrite")
    kept = (out / "figures" / "my_sketch.svg").is_file()
    return first(ok(done), None if kept else "--overwrite deleted figures/my_sketch.svg")


# --- class 8: the README's commands, the messages' advice ---------------------------------------


def c8_simulate_out_results_missing(tmp: Path) -> str | None:
    tiny = write(tmp / "tiny.toml", TINY)
    return first(ok(simulate(tiny, Path("results/fedpbc"))), complete(tmp / "results/fedpbc"))


def c8_reproduce_out_results_missing(tmp: Path) -> str | None:
    out = Path("results/fig4a")
    done = cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out)
    return first(ok(done), complete(tmp / out))


def c8_check_out_results_missing(tmp: Path) -> str | None:
    out = Path("results/check")
    return first(ok(cli("check", "fedpbc:prop1-printed", "--budget", "5", "--out", out)),
                 complete(tmp / out))  # fmt: skip


def c8_sweep_store_results_missing(tmp: Path) -> str | None:
    write(tmp / "base.toml", SWEEP_BASE)
    sweep = write(tmp / "s.toml", SWEEP)
    return ok(cli("sweep", sweep, "--store", "results/sweep.db"))


def c8_export_out_results_missing(tmp: Path) -> str | None:
    store = _store(tmp)
    return ok(cli("sweep", "export", store, "--format", "csv", "--out", "results/sweep.csv"))


def c8_report_out_results_missing(tmp: Path) -> str | None:
    cfg = write(tmp / "r.toml", REPORT)
    return first(ok(cli("report", "--config", cfg, "--out", "results/report", "--quick")),
                 complete(tmp / "results/report"))  # fmt: skip


def c8_out_under_a_file(tmp: Path) -> str | None:
    tiny = write(tmp / "tiny.toml", TINY)
    write(tmp / "results", "a file, not a folder")
    return refused(simulate(tiny, Path("results/fedpbc")), "not a directory")


def c8_reproduce_advice_is_accepted(tmp: Path) -> str | None:
    """After an interrupted ``reproduce`` the refusal's advice names flags that work."""
    out = tmp / "fig4a"
    status = in_child_killed_after_renames(2, "reproduce", "cafed:fig4a", "--seeds", "3",
                                           "--out", out)  # fmt: skip
    if not os.WIFSIGNALED(status):
        return f"the run was not killed (status {status})"
    again = cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out)
    if reason := refused(again):
        return reason
    advised = [w for w in ("--resume", "--overwrite") if w in again.err]
    for flag in advised:
        if reason := ok(cli("reproduce", "cafed:fig4a", "--seeds", "3", "--out", out, flag)):
            return f"the advised {flag} failed: {reason}"
    return None if advised else f"no advice: {again.err.strip()!r}"


def c8_check_advice_is_accepted(tmp: Path) -> str | None:
    """A ``check --out`` folder left unfinished: the refusal advises only flags check takes."""
    out = tmp / "chk"
    argv = ("check", "fedpbc:prop1-printed", "--budget", "5", "--out", out)
    status = in_child_killed_after_renames(1, *argv)
    if not os.WIFSIGNALED(status):
        return f"the run was not killed (status {status})"
    again = cli(*argv)
    if again.status == 0:
        return complete(out)  # nothing unfinished was left behind
    if reason := refused(again):
        return reason
    advised = [w for w in ("--resume", "--overwrite") if w in again.err]
    for flag in advised:
        if reason := ok(cli(*argv, flag)):
            return f"the advised {flag} failed: {reason}"
    return None if advised else f"no advice: {again.err.strip()!r}"


@dataclass(frozen=True)
class Case:
    klass: str
    name: str
    run: Callable[[Path], str | None]


def cases() -> list[Case]:
    """Every case, named after its function (``c1_...`` is class 1)."""
    found = []
    for name, fn in sorted(globals().items()):
        if name[:1] == "c" and name[1:2].isdigit() and name[2:3] == "_" and callable(fn):
            found.append(Case(name[1], name[3:].replace("_", "-"), fn))
    return found


if __name__ == "__main__":
    for c in cases():
        print(c.klass, c.name)
