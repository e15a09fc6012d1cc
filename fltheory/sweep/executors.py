"""Where the runs of a sweep execute: local processes (default) or a Ray cluster.

An executor takes a function and a list of argument tuples and yields ``(index, result)`` as the
calls finish, in any order; :meth:`Executor.close` stops it, dropping what has not finished.
Each call is a pure function of its arguments (a config and a seed, randomness keyed by the
seed), so the results do not depend on the executor or on the number of workers. Every worker
first imports the plug-ins requested in this process (``--plugin``, ``FLTHEORY_PLUGINS``,
:func:`fltheory.load_plugins`; :func:`fltheory.plugins.call_with_plugins`); installed entry
points it finds itself.
"""

import ctypes
import logging
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Protocol

from fltheory.errors import FLTheoryError, InputError
from fltheory.plugins import call_with_plugins, requested

Task = tuple[Any, ...]
#: prctl(2) option: the signal a process gets when the thread that forked it ends.
PR_SET_PDEATHSIG = 1
#: Seconds between two looks at the parent where the system cannot wait on it (no pidfd).
POLL_SECONDS = 1.0


class Executor(Protocol):
    """Runs ``fn(*task)`` for every task, yielding (index of the task, result) as each ends."""

    def map_unordered(self, fn: Callable[..., Any], tasks: Sequence[Task]) -> Iterator[Any]: ...

    def close(self) -> None: ...


def _set_parent_death_signal() -> None:
    """Linux: SIGKILL this process when its parent (the forkserver) dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _wait_for_exit(pid: int) -> None:
    """Return when process ``pid`` has ended (a pidfd where Linux has one, else polling)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            except PermissionError:
                pass
            time.sleep(POLL_SECONDS)
    try:
        select.select([fd], [], [])  # a pidfd turns readable when its process ends
    finally:
        os.close(fd)


def _die_with(parent: int) -> None:
    """Kill this process (SIGKILL) as soon as the process ``parent`` ends, whatever ended it."""
    _wait_for_exit(parent)
    os.kill(os.getpid(), signal.SIGKILL)


def _worker_init(parent: int) -> None:
    """Each worker: leaves Ctrl-C to the parent (which stops the workers and keeps the store
    consistent), and dies with the sweep's process — even when that one is killed with
    SIGKILL and can clean nothing up — and with its own parent, the forkserver. With the
    workers gone, the forkserver and the resource tracker see their pipes close and exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _set_parent_death_signal()
    threading.Thread(target=_die_with, args=(parent,), daemon=True, name="die-with").start()


class LocalExecutor:
    """``workers`` local processes (``concurrent.futures``; forkserver where there is one).

    >>> with_pool = LocalExecutor(2)
    >>> sorted(with_pool.map_unordered(pow, [(2, 3), (3, 2)]))
    [(0, 8), (1, 9)]
    >>> with_pool.close()
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise InputError(f"--workers must be >= 1, got {workers}")
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if context.get_start_method() == "forkserver":
            # workers fork from a server that has imported the simulator (and torch) once
            context.set_forkserver_preload(["fltheory.sweep.run", "fltheory.sim.config"])
        self._pool = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
        )

    def map_unordered(
        self, fn: Callable[..., Any], tasks: Sequence[Task]
    ) -> Iterator[tuple[int, Any]]:
        """(index, fn(*tasks[index])) in the order the calls finish.

        >>> import os
        >>> pool = LocalExecutor(1)
        >>> list(pool.map_unordered(os._exit, [(1,)]))
        Traceback (most recent call last):
        ...
        fltheory.errors.FLTheoryError: a worker process died (killed, or out of memory?)...
        >>> pool.close()
        """
        call = partial(call_with_plugins, requested(), fn)
        pending: dict[Future[Any], int] = {
            self._pool.submit(call, *task): i for i, task in enumerate(tasks)
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise FLTheoryError(
                        "a worker process died (killed, or out of memory?); the finished runs "
                        "are stored: run the sweep again to resume"
                    ) from None
                yield pending.pop(future), result

    def close(self) -> None:
        """Drop the queued calls and stop the workers (runs in flight are lost, by design)."""
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()


class RayExecutor:
    """Ray tasks: ``address="auto"`` joins a running cluster, None starts Ray on this machine
    with ``workers`` CPUs. Ray is imported here only (the extra ``fltheory[ray]``)."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise InputError("the Ray executor needs ray: pip install 'fltheory[ray]'") from None
        self._ray = ray
        self._pending: dict[Any, int] = {}
        quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
        if not ray.is_initialized():
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, **quiet)
            else:
                ray.init(address=address, **quiet)

    def map_unordered(
        self, fn: Callable[..., Any], tasks: Sequence[Task]
    ) -> Iterator[tuple[int, Any]]:
        """(index, fn(*tasks[index])) in the order the Ray tasks finish."""
        remote = self._ray.remote(num_cpus=1)(call_with_plugins)
        plugins = requested()
        pending = self._pending
        pending.update({remote.remote(plugins, fn, *task): i for i, task in enumerate(tasks)})
        while pending:
            done, _ = self._ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), self._ray.get(ref)

    def close(self) -> None:
        """Cancel the unfinished tasks and disconnect (a cluster joined by address keeps
        running; a local Ray stops)."""
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending.clear()
        self._ray.shutdown()


def make_executor(kind: str, workers: int, address: str | None = None) -> Executor:
    """The executor named by ``--executor``.

    >>> make_executor("spark", 1)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: unknown executor 'spark'; choose local or ray
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"--workers must be >= 1, got {workers!r}")
    if kind == "local":
        if address is not None:
            raise InputError("--address is for --executor ray")
        return LocalExecutor(workers)
    if kind == "ray":
        return RayExecutor(workers, address)
    raise InputError(f"unknown executor '{kind}'; choose local or ray")
