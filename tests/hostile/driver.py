"""Run corpus cases in this process, one after another: ``python driver.py`` reads a JSON list
of cases on stdin and prints one JSON line per case (name, status, stdout, stderr, seconds).

Each case runs :func:`fltheory.cli.app.run` in its own temporary folder (the working directory)
with stdout and stderr captured and an alarm of ``FLTHEORY_CASE_SECONDS`` (a blocked ``open`` of
a named pipe is interrupted); the parent process (the test) bounds memory, kills a driver that
stops answering, and starts another one for the remaining cases.
"""

import contextlib
import io
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import EXAMPLES, materialise


class CaseTimeout(BaseException):
    """The alarm of one case went off (a BaseException: nothing in fltheory swallows it)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise CaseTimeout


def run_case(name: str, argv: list[str], files: dict[str, object], limit: float) -> dict:
    """One case's outcome: status (an exit status, "timeout" or "crash: ..."), output, time."""
    from fltheory.cli.app import run

    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        decoded = {
            k: bytes.fromhex(v[4:]) if str(v).startswith("hex:") else v for k, v in files.items()
        }
        materialise(Path(tmp), decoded)
        args = [a.replace("{tmp}", tmp).replace("{examples}", str(EXAMPLES)) for a in argv]
        out, err = io.StringIO(), io.StringIO()
        status: object
        os.chdir(tmp)
        start = time.process_time()  # CPU seconds: a loaded machine does not fail a case
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = run(args)
        except CaseTimeout:
            status = "timeout"
        except BaseException as exc:
            status = f"crash: {type(exc).__name__}: {exc}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            seconds = time.process_time() - start
            os.chdir(here)
    return {
        "name": name,
        "status": status,
        "stdout": out.getvalue()[:2000],
        "stderr": err.getvalue()[:2000],
        "seconds": seconds,
    }


def main() -> None:
    signal.signal(signal.SIGALRM, _alarm)
    from fltheory.cli.app import _register_commands

    _register_commands()
    limit = float(os.environ.get("FLTHEORY_CASE_SECONDS", "10"))
    for name, argv, files in json.load(sys.stdin):
        print(json.dumps(run_case(name, argv, files, limit)), flush=True)


if __name__ == "__main__":
    main()
