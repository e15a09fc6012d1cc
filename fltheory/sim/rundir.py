"""A simulation written to a result directory: crash-safe, resumable, traceable.

:func:`simulate_into` opens the directory as a transaction (:class:`~fltheory.resultdir.
ResultFolder`: checked before any work, locked against a second writer), marks it
``in_progress`` (``manifest.json``), runs the comparison with checkpoints
(:mod:`fltheory.sim.checkpoint`), writes the result files into the staging folder
(:func:`~fltheory.sim.results.result_contents`) and commits them with the ``complete`` manifest
(each file's size and SHA-256); the checkpoints are removed after that. A run killed at any
moment leaves an unfinished directory (never one that looks complete) that ``resume=True``
continues from its last checkpoint; the result files are then byte for byte those of an
uninterrupted run (``timing.json`` and the manifest's time stamp aside). ``resume=True`` on a
complete result keeps it only when its config hash, fltheory version and every checksum match.
"""

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from fltheory.provenance import config_hash, provenance
from fltheory.resultdir import ResultFolder
from fltheory.sim.checkpoint import Checkpointer
from fltheory.sim.config import SimConfig, run_config
from fltheory.sim.outfiles import CHECKPOINT_FOLDER, OWNED
from fltheory.sim.results import RunResult, result_contents

#: progress(algorithm label, rounds done)
Progress = Callable[[str, int], None]
#: extra(summary, models) → more result files by name, committed with the run's (``--theory``:
#: :meth:`fltheory.sim.theory.run.TheoryRun.files`); models: per label, ``eval_rounds`` and
#: the evaluated (R, E, P) models by name, as ``clients.npz`` stores them.
Extra = Callable[[dict[str, Any], Mapping[str, Mapping[str, np.ndarray]]], dict[str, bytes | str]]


def result_provenance(cfg: SimConfig) -> dict[str, Any]:
    """What produced a result, with nothing that changes between two runs of it (no clock, no
    command line): versions, git commit, the resolved config and its hash, seeds, device, dtype.

    >>> from fltheory.sim.config import build
    >>> cfg = build({"run": {"rounds": 2}, "device": "cpu", "seeds": 3,
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 1.0},
    ...              "algorithms": [{"name": "fedavg"}]})
    >>> record = result_provenance(cfg)
    >>> record["config"]["run"]["local_steps"], record["repetitions"], record["dtype"]
    (1, 3, 'float32')
    """
    record = provenance(
        config_file=cfg.source,
        config=cfg.resolved,
        config_hash=config_hash(cfg.resolved),
        seed=cfg.seed,
        repetitions=cfg.seeds,
        device=cfg.device,
        dtype=str(cfg.dtype).removeprefix("torch."),
        threads=cfg.threads,
    )
    for volatile in ("created", "command"):
        record.pop(volatile)
    return record


#: The summary's keys every reader of a kept result relies on (the CLI's table among them).
_SUMMARY_KEYS = {"name": str, "seeds": int, "rounds": int, "clients": int, "device": str,
                 "dtype": str}  # fmt: skip
_METRICS = [f"{m}{s}" for s in ("", "_client_mean") for m in ("objective", "accuracy", "distance")]


def _check_summary(summary: Any) -> None:
    """Raise TypeError when ``summary`` lacks what :func:`~fltheory.sim.results.write_results`
    writes (a forged or damaged summary.json whose checksum was made to match)."""
    if not isinstance(summary, dict):
        raise TypeError("the summary is not a table")
    for key, kind in _SUMMARY_KEYS.items():
        if not isinstance(summary.get(key), kind):
            raise TypeError(f"summary.{key} is not {kind.__name__}")
    algorithms = summary.get("algorithms")
    if not isinstance(algorithms, dict) or not algorithms:
        raise TypeError("summary.algorithms is not a table of algorithms")
    for label, entry in algorithms.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("inclusion_rate"), float):
            raise TypeError(f"summary.algorithms.{label} is not an algorithm's summary")
        for metric in _METRICS:
            stats = entry.get(metric)
            numbers = ("time_average", "final", "final_std")
            if stats is not None and not (
                isinstance(stats, dict)
                and all(isinstance(stats.get(k), (int, float)) for k in numbers)
            ):
                raise TypeError(f"summary.algorithms.{label}.{metric} is not a metric's summary")


def _stored_summary(folder: ResultFolder) -> dict[str, Any]:
    """The summary of a complete result, with its timings put back (a file whose content is
    not what :func:`write_results` wrote is refused in one line, even with a right checksum)."""
    name = "summary.json"
    try:
        summary: dict[str, Any] = folder.stored(name)["summary"]
        _check_summary(summary)
        name = "timing.json"
        seconds = folder.stored(name)["seconds"]
        for label in summary["algorithms"]:
            summary["algorithms"][label]["seconds"] = float(seconds.get(label, 0.0))
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise folder.garbage(name, exc) from None
    return summary


def _stored_models(folder: ResultFolder) -> dict[str, dict[str, np.ndarray]]:
    """The evaluated models of a complete result (its ``clients.npz``, checksum verified)."""
    from fltheory.sim.theory.compare import models_of_npz

    try:
        return models_of_npz(folder.path / "clients.npz")
    except (OSError, ValueError, KeyError) as exc:
        raise folder.garbage("clients.npz", exc) from None


def _add_files(folder: ResultFolder, record: dict[str, Any], files: dict[str, bytes | str]) -> None:
    """Commit ``files`` beside a kept result's own files (staged again, byte for byte)."""
    manifest = folder.manifest
    kept = [e["name"] for e in manifest["files"]] if manifest is not None else []
    for name in kept:
        if name not in files:
            folder.write(name, (folder.path / name).read_bytes())
    for name, data in files.items():
        folder.write(name, data)
    folder.commit([*kept, *(n for n in files if n not in kept)], provenance(**record))


def simulate_into(
    cfg: SimConfig,
    out: str | Path,
    *,
    overwrite: bool = False,
    resume: bool = False,
    checkpoint_every: int | None = None,
    progress: Progress | None = None,
    extra: Extra | None = None,
) -> tuple[dict[str, Any], list[RunResult] | None]:
    """Run ``cfg`` into the directory ``out``: (summary, runs). ``resume`` continues an
    unfinished run from its checkpoint, or keeps a complete result (then runs is None) once its
    config hash, fltheory version and every checksum match (a mismatch is refused, or with
    ``overwrite`` computed again); ``overwrite`` replaces what the directory holds;
    ``checkpoint_every``: K rounds, 0 for no checkpoints, None for the automatic choice (≤ 5 %
    overhead). The folder is locked while the run writes it (:mod:`fltheory.resultdir`).
    ``extra`` adds files to the result (to a kept one too, whose files are then committed
    again unchanged beside them).

    >>> import tempfile
    >>> from fltheory.atomic import is_complete
    >>> from fltheory.sim.config import build
    >>> cfg = build({"run": {"rounds": 3}, "device": "cpu",
    ...              "problem": {"kind": "fedpbc_quadratic", "n_clients": 3, "dim": 2},
    ...              "availability": {"kind": "bernoulli", "p": 0.5},
    ...              "algorithms": [{"name": "fedpbc"}]})
    >>> folder = Path(tempfile.mkdtemp()) / "out"
    >>> summary, runs = simulate_into(cfg, folder, checkpoint_every=1)
    >>> is_complete(folder), len(list(folder.iterdir()))  # RESULT_FILES and the manifest
    (True, 6)
    >>> simulate_into(cfg, folder, resume=True)[1] is None  # already complete: kept
    True
    """
    record = result_provenance(cfg)
    inputs = () if cfg.source is None else (cfg.source,)
    with ResultFolder(
        out,
        owned=OWNED,
        scratch=(CHECKPOINT_FOLDER,),
        overwrite=overwrite,
        resume=resume,
        inputs=inputs,
    ) as folder:
        expected = {k: record[k] for k in ("config_hash", "fltheory_version")}
        if folder.keep_or_clear(expected):
            summary = _stored_summary(folder)
            if extra is not None:
                _add_files(folder, record, extra(summary, _stored_models(folder)))
            return summary, None
        folder.begin(provenance(**record))
        key = {k: record[k] for k in ("config_hash", "fltheory_version", "git_commit")}
        checkpointer = Checkpointer(folder.path, every=checkpoint_every, key=key)
        summary, runs = run_config(cfg, progress=progress, checkpointer=checkpointer)
        saves = {"saves": checkpointer.saves, "seconds": checkpointer.save_seconds}
        contents = result_contents(record, summary, runs, {"checkpoints": saves})
        if extra is not None:
            from fltheory.sim.theory.compare import models_of_runs

            contents.update(extra(summary, models_of_runs(runs)))
        for name, data in contents.items():
            folder.write(name, data)
        folder.commit(list(contents), provenance(**record))
        checkpointer.remove()
    return summary, runs
