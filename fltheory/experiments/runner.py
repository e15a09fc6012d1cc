"""Run a registered experiment through the simulator, judge it, and write its result directory.

:func:`run_experiment` builds the setup's configuration for the mode, runs it with
:func:`fltheory.api.simulation.simulate`, gathers :class:`~fltheory.experiments.model.Measurements`
and returns a :class:`Reproduction` (the verdict record, per-panel tables and the runs).
:func:`write_reproduction` writes, as one transaction (:mod:`fltheory.resultdir`), one CSV per
panel (and its PNG, drawn by :mod:`fltheory.experiments.plots` when the caller passes
:func:`~fltheory.experiments.plots.panel_png`), ``verdict.json``, ``summary.md`` and the
manifest with provenance;
:func:`reproduction_identity` is what ``--resume`` compares with that provenance.
"""

import csv
import inspect
import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory.errors import InputError
from fltheory.experiments.data_sources import resolve
from fltheory.experiments.grid import (
    CACHE_DIR,
    caching,
    cpu_seconds_before,
    remembering,
    without_objective,
)
from fltheory.experiments.judges import (
    exclusion_by_group,
    metrics_table,
    participation,
    verdict,
)
from fltheory.experiments.model import MODES, Experiment, Measurements, Panel, get
from fltheory.jsonable import to_jsonable

if TYPE_CHECKING:
    from fltheory.resultdir import ResultFolder

#: progress(label, rounds done, rounds in all)
Progress = Callable[[str, int, int], None]
VERDICT_FILE, SUMMARY_FILE = "verdict.json", "summary.md"


@dataclass(frozen=True, eq=False)
class Reproduction:
    """A judged run: ``record`` is the verdict JSON object; ``tables`` the CSV rows per panel."""

    experiment: Experiment
    record: dict[str, Any]
    measurements: Measurements
    tables: dict[str, list[list[Any]]]
    seconds: float


def check_runnable(experiment: Experiment, setup: str, mode: str) -> None:
    """Refuse, in one line, a setup/mode the simulator cannot run yet.

    >>> check_runnable(get("fedar:fig1"), "authors", "quick")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: fedar:fig1 --setup authors cannot run yet: needs ...
    """
    if mode not in MODES:
        raise InputError(f"unknown mode '{mode}' (choose from: {', '.join(MODES)})")
    missing = experiment.missing(setup, mode)
    if missing:
        raise InputError(
            f"{experiment.id} --setup {setup} cannot run yet: needs " + "; ".join(missing)
        )


def measurements_of(report: Any) -> Measurements:
    """:class:`Measurements` of a :class:`~fltheory.api.simulation.SimulationReport`; the
    availability trace is redrawn from the config's seed exactly as the simulator draws it."""
    cfg = report.config
    trace = np.asarray(cfg.process.sample(cfg.seed, cfg.seeds, cfg.settings.rounds), dtype=bool)
    runs = report.runs
    first = runs[0]
    if not np.array_equal(trace.sum(axis=2), first.n_active):
        raise RuntimeError("the redrawn availability trace differs from the simulator's")
    alpha = getattr(cfg.problem, "alpha", None)
    return Measurements(
        eval_rounds=np.asarray(first.eval_rounds),
        accuracy={r.label: np.asarray(r.accuracy) for r in runs if r.accuracy is not None},
        included={r.label: np.asarray(r.included, dtype=bool) for r in runs},
        weights={r.label: np.asarray(r.weights) for r in runs},
        active=trace,
        groups={k: np.asarray(v, dtype=bool) for k, v in cfg.groups.items()},
        alpha=None if alpha is None else np.asarray(alpha, dtype=float),
    )


def merge(parts: list[tuple[str, Measurements]]) -> Measurements:
    """One :class:`Measurements` of a sweep: labels ``tag/label``; the activity trace is kept
    when every comparison drew the same one (None otherwise).

    >>> a = Measurements(np.array([0]), {"x": np.ones((2, 1))})
    >>> sorted(merge([("g=0", a), ("g=1", a)]).accuracy)
    ['g=0/x', 'g=1/x']
    """
    first = parts[0][1]
    for _, m in parts[1:]:
        if not np.array_equal(m.eval_rounds, first.eval_rounds):
            raise ValueError("the comparisons of a sweep must evaluate the same rounds")
    same_trace = all(
        m.active is not None and first.active is not None and np.array_equal(m.active, first.active)
        for _, m in parts
    )
    return Measurements(
        eval_rounds=first.eval_rounds,
        accuracy={f"{t}/{k}": v for t, m in parts for k, v in m.accuracy.items()},
        included={f"{t}/{k}": v for t, m in parts for k, v in m.included.items()},
        weights={f"{t}/{k}": v for t, m in parts for k, v in m.weights.items()},
        active=first.active if same_trace else None,
        groups=first.groups,
        alpha=first.alpha,
    )


def _measured(m: Measurements, prefix: str = "acc") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label, acc in m.accuracy.items():
        end = m.final(label)
        entry: dict[str, Any] = {
            f"{prefix}_end_mean": round(float(end.mean()), 5),
            f"{prefix}_end_sd": round(float(end.std(ddof=1)) if end.size > 1 else 0.0, 5),
            f"{prefix}_time_average": round(float(acc.mean()), 5),
        }
        if m.active is not None and label in m.included:
            entry["participants_over_active"] = round(participation(m, label), 4)
            entry["exclusion_by_group"] = exclusion_by_group(m, label)
        out[label] = entry
    return out


def panel_rows(panel: Panel, m: Measurements) -> list[list[Any]]:
    """The CSV rows (header first) of one panel."""
    if panel.kind in ("accuracy", "curve"):
        name = "accuracy" if panel.kind == "accuracy" else "value"
        rows: list[list[Any]] = [["algorithm", "round", f"{name}_mean", f"{name}_sd", "seeds"]]
        for label, acc in m.accuracy.items():
            mean, sd = acc.mean(axis=0), acc.std(axis=0)
            for t, a, s in zip(m.eval_rounds + 1, mean, sd, strict=True):
                rows.append([label, int(t), f"{a:.6f}", f"{s:.6f}", acc.shape[0]])
        return rows
    if panel.kind == "group_exclusion":
        rows = [["algorithm", "group", "exclusion_rate"]]
        for label in m.included:
            for group, rate in exclusion_by_group(m, label).items():
                rows.append([label, group, f"{rate:.6f}"])
        return rows
    if panel.kind == "raster":
        # Seed 0 of every CA-Fed run: 0 inactive, 1 active but left out, 2 included.
        rows = [["algorithm", "client", "round", "state"]]
        if m.active is None:
            return rows
        for label in [k for k in m.included if k.split("/")[-1] == "ca_fed"]:
            state = m.active[0].astype(int) + (m.active[0] & m.included[label][0])
            for t, k in np.ndindex(state.shape):
                rows.append([label, k, t + 1, int(state[t, k])])
        return rows
    if panel.kind == "grid":
        rows = [["algorithm", "lr", "server_lr", "acc_end_mean", "acc_end_sd", "repetitions"]]
        for label, acc in m.accuracy.items():
            if "|" in label:
                end = acc[:, -1]
                rows.append([*label.split("|"), f"{end.mean():.6f}", f"{end.std():.6f}", end.size])
        return rows
    if panel.kind == "histogram":
        return histogram_rows(getattr(m, "per_seed", {}))
    if panel.kind == "group_shares":
        rows = [["algorithm", "group", "share", "alpha_share"]]
        if m.alpha is None:
            return rows
        for label, w in m.weights.items():
            per_client = w.sum(axis=(0, 1))
            for group, mask in m.groups.items():
                share = per_client[mask].sum() / per_client.sum()
                a = m.alpha[mask].sum() / m.alpha.sum()
                rows.append([label, group, f"{share:.6f}", f"{a:.6f}"])
        return rows
    raise ValueError(f"unknown panel kind {panel.kind!r}")


#: Bins of a ``histogram`` panel (values in %, as the per-client accuracies are).
HISTOGRAM_BINS = np.linspace(0.0, 100.0, 21)


def histogram_rows(per_seed: dict[str, np.ndarray]) -> list[list[Any]]:
    """Rows of a ``histogram`` panel: per algorithm (a ``per_seed`` entry of shape (S, N)), the
    density of its per-client values in each bin of :data:`HISTOGRAM_BINS`, pooled over seeds.

    >>> rows = histogram_rows({"a": np.array([[2.0, 7.0], [12.0, 100.0]])})
    >>> rows[0], rows[1], rows[-1][-1]
    (['algorithm', 'bin_low', 'bin_high', 'density'], ['a', '0', '5', '0.050000'], '0.050000')
    """
    rows: list[list[Any]] = [["algorithm", "bin_low", "bin_high", "density"]]
    for label, values in per_seed.items():
        x = np.asarray(values, dtype=float)
        if x.ndim != 2:
            continue
        counts, edges = np.histogram(x.ravel(), bins=HISTOGRAM_BINS, density=True)
        for lo, hi, d in zip(edges[:-1], edges[1:], counts, strict=True):
            rows.append([label, f"{lo:g}", f"{hi:g}", f"{d:.6f}"])
    return rows


def _tagged(progress: Progress | None, tag: str) -> Progress | None:
    """``progress`` with the sweep's tag in front of each label."""
    if progress is None or not tag:
        return progress
    report = progress

    def tick(label: str, done: int, total: int) -> None:
        report(f"{tag}/{label}", done, total)

    return tick


def resolved_config(
    experiment: Experiment, setup: str, mode: str, data_dir: Path | None = None
) -> tuple[Any, str]:
    """(the setup's config for ``mode`` reading its data from ``data_dir`` or the stand-in,
    the label of the data read); absent data: a one-line InputError naming what and where.

    >>> resolved_config(get("cafed:fig1c"), "paper", "quick")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: cafed:fig1c --setup paper needs data: cifar10: no data_dir ...
    """
    spec = experiment.setup(setup)
    try:
        config, label = resolve(spec.configs[mode](), data_dir)
    except InputError as exc:
        raise InputError(f"{experiment.id} --setup {setup} {exc}") from None
    if isinstance(config, list):
        return [(tag, without_objective(tables)) for tag, tables in config], label or spec.data
    return without_objective(config), label or spec.data


def preflight(
    experiment_id: str,
    *,
    setup: str = "paper",
    mode: str = "quick",
    seeds: int | None = None,
    data_dir: Path | None = None,
) -> None:
    """Refuse, before any work, a run that cannot be done: a setup the simulator cannot run
    yet, data that are absent, fewer than 2 seeds, or configs whose arrays would not fit in
    memory.

    >>> preflight("cafed:fig1a", seeds=10**9)
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: would need ~516 TiB for a run of 100 clients × 610 parameters ...
    """
    from fltheory.sim.budget import check_config_size

    experiment = get(experiment_id)
    check_runnable(experiment, setup, mode)
    if seeds is not None and seeds < 2:
        raise InputError(f"--seeds must be >= 2 (a verdict pairs seeds), got {seeds}")
    spec = experiment.setup(setup)
    if mode in spec.measure:
        return
    n_seeds = seeds if seeds is not None else experiment.seeds[mode]
    config, _ = resolved_config(experiment, setup, mode, data_dir)
    for _, tables in config if isinstance(config, list) else [("", config)]:
        check_config_size({**tables, "seeds": n_seeds})


def run_experiment(
    experiment_id: str,
    *,
    setup: str = "paper",
    mode: str = "quick",
    seeds: int | None = None,
    device: str | None = "cpu",
    progress: Progress | None = None,
    cache_dir: Path | None = None,
    data_dir: Path | None = None,
) -> Reproduction:
    """Run ``experiment_id`` under ``setup`` in ``mode`` and judge it (``tests/experiments``
    run ``cafed:fig1b`` end to end; a setup the simulator cannot run yet is refused first).
    Grid searches the setup runs are cached in ``cache_dir`` (:mod:`fltheory.experiments.grid`)
    and summarised in the record's ``grid``. File data sets are read from ``data_dir`` (MNIST:
    Fashion-MNIST stands in without it); the record's ``data`` names what was read.

    >>> run_experiment("fedar:fig1", setup="authors")
    Traceback (most recent call last):
    ...
    fltheory.errors.InputError: fedar:fig1 --setup authors cannot run yet: needs ...
    """

    with remembering():  # preflight's grid searches are the run's
        return _run_experiment(experiment_id, setup, mode, seeds, device, progress, cache_dir,
                               data_dir)  # fmt: skip


def _run_experiment(
    experiment_id: str,
    setup: str,
    mode: str,
    seeds: int | None,
    device: str | None,
    progress: Progress | None,
    cache_dir: Path | None,
    data_dir: Path | None,
) -> Reproduction:
    from fltheory.api.simulation import simulate

    experiment = get(experiment_id)
    spec = experiment.setup(setup)
    data = spec.data
    n_seeds = seeds if seeds is not None else experiment.seeds[mode]
    start, cpu_start = time.perf_counter(), time.process_time()
    config: Any
    with caching(cache_dir, device) as searches:
        preflight(experiment_id, setup=setup, mode=mode, seeds=seeds, data_dir=data_dir)
        if mode in spec.measure:
            config = planned_config(experiment, setup, mode, data_dir)
            fn = spec.measure[mode]
            accepted = inspect.signature(fn).parameters  # data_dir, device: when it takes them
            extra = {"data_dir": data_dir, "device": device}
            m = fn(n_seeds, **{k: v for k, v in extra.items() if k in accepted})
        else:
            config, data = resolved_config(experiment, setup, mode, data_dir)
            sweep = config if isinstance(config, list) else [("", config)]
            parts = []
            for tag, tables in sweep:
                report = simulate(
                    tables, seeds=n_seeds, device=device, threads=1, progress=_tagged(progress, tag)
                )
                parts.append((tag, measurements_of(report)))
            m = merge(parts) if isinstance(config, list) else parts[0][1]
    seconds = time.perf_counter() - start
    # Grid points scored before this run (the caller's preflight or folder identity) count.
    cpu_seconds = time.process_time() - cpu_start + cpu_seconds_before(cpu_start)
    assert experiment.judge is not None  # check_runnable refused it otherwise
    checks = experiment.judge(m, mode)
    record = {
        "id": experiment.id,
        "source": experiment.source_record(),
        "setup": setup,
        "mode": mode,
        "verdict": verdict(checks, mode),
        "paper": experiment.paper_record(),
        "measured": _measured(m, "value" if mode in spec.measure else "acc"),
        "checks": [c.to_dict() for c in checks],
        "data": data,
        "seeds": n_seeds,
        "rounds": int(m.eval_rounds[-1]) + 1,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "config": config,
        "level": "one-sided 80 %, direction only" if mode == "quick" else "95 %",
    }
    if searches:
        record["grid"] = [g.summary() for g in searches]
    if setup.startswith("authors") and mode not in spec.measure:
        record["authors_logging"] = metrics_table(m)  # the code's logged points (C.15)
    if experiment.notes:
        record["notes"] = experiment.notes  # e.g. a diagnosis measured outside the judge
    tables = {p.name: panel_rows(p, m) for p in experiment.panels}
    return Reproduction(experiment, to_jsonable(record), m, tables, seconds)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items())
    return str(value)


#: What a quick run's outcome means (summary, CLI).
SMOKE_NOTE = (
    "Quick mode is a smoke test (reduced sizes; direction only, one-sided 80 %): it says whether "
    "the direction agrees, never reproduced or contradicted. The verdict of record is the full "
    "run (--full)."
)


def summary_markdown(record: dict[str, Any]) -> str:
    """The Markdown summary of a verdict record (a quick run's says it is a smoke test)."""
    src = record["source"]
    lines = [
        f"# {record['id']}: {record['verdict']}",
        "",
        f"{src['paper']}, {src['figure']} (section {src['section']}; {src['seed_file']} "
        f"lines {src['lines']}).",
        f"Setup `{record['setup']}`, mode `{record['mode']}` ({record['level']}); data: "
        f"{record['data']}; {record['seeds']} seeds × {record['rounds']} rounds; "
        f"{record['seconds']} s.",
    ]
    if record["mode"] == "quick":
        lines += ["", SMOKE_NOTE]
    lines += [
        "",
        "| claim | paper | measured | CI | holds | role |",
        "|---|---|---|---|---|---|",
    ]
    for c in record["checks"]:
        ci = "" if c["ci"] is None else f"[{c['ci'][0]:.4g}, {c['ci'][1]:.4g}]"
        holds = {True: "yes", False: "no", None: "—"}[c["holds"]]
        if c["opposite"]:
            holds = "contrary"
        lines.append(
            f"| {c['claim']} | {_fmt(c['paper'])} | {_fmt(c['measured'])} | {ci} | {holds} "
            f"| {c['role']} |"
        )
    for search in record.get("grid", []):
        chosen = ", ".join(f"{a} {lr:g}/{slr:g}" for a, (lr, slr) in search["selected"].items())
        lines += [
            "",
            f"Grid search `{search['purpose']}` (η/η̄ by {search['criterion']} on tuning draws "
            f"of seed {search['tuning_seed']}, {search['repetitions']} repetitions): {chosen}.",
        ]
    lines += ["", "## Paper's numbers", ""]
    for n in record["paper"]["numbers"]:
        value = "lost in extraction" if n["value"] is None else f"{n['value']:g} {n['unit']}"
        lines.append(
            f"- {n['name']}: {value} ({n['where']}){' — ' + n['note'] if n['note'] else ''}"
        )
    return "\n".join(lines) + "\n"


def owned_files(experiment: Experiment) -> tuple[str, ...]:
    """Every file a reproduction of ``experiment`` writes (for the result-directory checks)."""
    panels = [f"{p.name}.{ext}" for p in experiment.panels for ext in ("csv", "png")]
    return (VERDICT_FILE, SUMMARY_FILE, CACHE_DIR, *panels)


def planned_config(
    experiment: Experiment, setup: str, mode: str, data_dir: Path | None = None
) -> Any:
    """The config a run of ``experiment`` under ``setup`` in ``mode`` records (the record's
    ``config``), known before it runs: what its result folder's config hash is computed from."""
    spec = experiment.setup(setup)
    if mode in spec.measure:
        fn = spec.measure[mode]
        return {"measure": f"{fn.__module__}.{fn.__name__}"}
    return resolved_config(experiment, setup, mode, data_dir)[0]


def reproduction_identity(
    experiment_id: str,
    *,
    setup: str,
    mode: str,
    seeds: int | None,
    data_dir: Path | None = None,
) -> dict[str, Any]:
    """What a reproduction's manifest records about the run (its provenance keys), for
    ``--resume`` to tell the same run from another one: experiment, setup, mode, seeds, config
    hash and fltheory version.

    >>> identity = reproduction_identity("cafed:fig4a", setup="paper", mode="quick", seeds=3)
    >>> identity["seeds"], len(identity["config_hash"])
    (3, 64)
    """
    from fltheory._version import __version__
    from fltheory.provenance import config_hash

    experiment = get(experiment_id)
    config = to_jsonable(planned_config(experiment, setup, mode, data_dir))
    return {
        "experiment": experiment.id,
        "setup": setup,
        "mode": mode,
        "seeds": seeds if seeds is not None else experiment.seeds[mode],
        "config_hash": config_hash(config),
        "fltheory_version": __version__,
    }


#: draw(panel, rows, title) -> PNG bytes (:func:`fltheory.experiments.plots.panel_png`).
Draw = Callable[[Panel, list[list[Any]], str], bytes]


def write_reproduction(
    rep: Reproduction, folder: "ResultFolder", draw: Draw | None = None
) -> list[Path]:
    """Stage the panels (CSV, and a PNG drawn by ``draw`` when given: the command line passes
    :func:`fltheory.experiments.plots.panel_png`), verdict.json and summary.md in ``folder``
    (opened by the caller) and commit them with the manifest."""
    from fltheory.provenance import config_hash, provenance

    record = rep.record
    prov = provenance(
        experiment=record["id"],
        setup=record["setup"],
        mode=record["mode"],
        config=record["config"],
        config_hash=config_hash(record["config"]),
        seeds=record["seeds"],
    )
    names: list[str] = []
    title = f"{record['id']} ({record['setup']}, {record['mode']}): {record['data']}"
    for panel in rep.experiment.panels:
        rows = rep.tables[panel.name]
        text = io.StringIO()
        text.write(f"# {title}; {record['seeds']} seeds\n")
        csv.writer(text, lineterminator="\n").writerows(rows)
        folder.write(f"{panel.name}.csv", text.getvalue())
        names.append(f"{panel.name}.csv")
        if draw is not None:
            folder.write(f"{panel.name}.png", draw(panel, rows, f"{panel.title}\n{title}"))
            names.append(f"{panel.name}.png")
    folder.write(VERDICT_FILE, json.dumps(record, indent=2, allow_nan=False) + "\n")
    folder.write(SUMMARY_FILE, summary_markdown(record))
    names += [VERDICT_FILE, SUMMARY_FILE]
    return folder.commit(names, prov)
