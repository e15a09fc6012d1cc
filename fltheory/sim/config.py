"""TOML configuration of a simulated comparison → problem, availability, algorithms, settings.

Layout (see ``examples/sim_*.toml``)::

    name = "..."; seed = 0; seeds = 10; device = "auto"; dtype = "float32"; threads = 1
    [run]          rounds, local_steps, batch_size (0: full), eval_every, and algorithm
                   defaults: lr, server_lr, lr_schedule, lr_t0, momentum, weight_decay,
                   diameter, estimator ("oracle" | "bayesian"), prior = [a, b]
    [problem]      kind = "synthetic_leaf" | "binary_synthetic" | "fedpbc_quadratic" |
                   "quadratic" | "digits" | "fashion_mnist" | "mnist" | "cifar10" (see
                   :mod:`fltheory.sim.config_images`), its parameters, alpha = "samples" |
                   "uniform" | [..]
    [availability] kind = "ca_fed" | "two_state" | "clients_csv" | "clustered" |
                   "bernoulli" | "uniform_noise" | "day_cycle" | "finite_chain" | "trace"
    [[algorithms]] name = "fedavg" | "unbiased" | "more_available" | "adafed" | "f3ast" |
                   "ca_fed" | "fedpbc" | "fedar" | "mifa" | "fedvarp" | "fedavg_is" |
                   "fedavg_sampled", optional label and per-algorithm overrides of the
                   [run] defaults

Every unknown key, missing value or wrong type raises :class:`InputError` naming it.
"""

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from fltheory.errors import InputError
from fltheory.sim import algorithms as algs
from fltheory.sim.settings import AlgorithmSpec, Schedule, ServerOptions, SimSettings

ALGORITHM_DEFAULTS = {
    "lr": 1.0,
    "server_lr": 1.0,
    "lr_schedule": "constant",
    "lr_t0": 1.0,
    "momentum": 0.0,
    "weight_decay": 0.0,
    "diameter": None,
    "estimator": "oracle",
}


class Section:
    """A TOML table whose keys are consumed one by one; leftovers are errors."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise InputError(f"[{where}] must be a table")
        self.data, self.where, self.used = data, where, set()

    def get(self, key: str, default: Any = ..., kind: type | None = None) -> Any:
        """The value of ``key`` (``default`` when absent; ... = required), of type ``kind``."""
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise InputError(f"[{self.where}] is missing '{key}'")
            return default
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise InputError(f"[{self.where}] '{key}' has the wrong type ({value!r})")
        return value

    def number(self, key: str, default: Any = ..., *, integer: bool = False) -> Any:
        value = self.get(key, default, int if integer else float)
        if value is not None and isinstance(value, float) and not math.isfinite(value):
            raise InputError(f"[{self.where}] '{key}' must be finite")
        return value

    def floats(self, key: str, default: Any = ...) -> np.ndarray | None:
        value = self.get(key, default)
        if value is None:
            return None
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise InputError(f"[{self.where}] '{key}' must be a list of numbers") from None
        if not np.isfinite(arr).all():
            raise InputError(f"[{self.where}] '{key}' must hold finite numbers")
        return arr

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise InputError(f"[{self.where}] has unknown key(s): {', '.join(extra)}")


@dataclass(eq=False)
class SimConfig:
    """A parsed configuration, ready to run (see :func:`build`)."""

    name: str
    seed: int
    seeds: int
    device: str
    dtype: torch.dtype
    threads: int | None
    settings: SimSettings
    problem: Any
    process: Any
    specs: list[AlgorithmSpec]
    prior: tuple[float, float]
    raw: dict[str, Any]
    groups: dict[str, np.ndarray] = field(default_factory=dict)


def load_config(
    path: str | Path,
    *,
    seeds: int | None = None,
    device: str | None = None,
    threads: int | None = None,
) -> SimConfig:
    """Read and build a TOML configuration (keyword arguments override the file)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"{path}: config file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: invalid TOML ({exc})") from None
    if seeds is not None:
        raw["seeds"] = seeds
    if device is not None:
        raw["device"] = device
    if threads is not None:
        raw["threads"] = threads
    return build(raw, base=path.parent)


def resolve_device(name: str) -> str:
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise InputError("device 'cuda' requested but CUDA is not available")
    if name not in ("cpu", "cuda"):
        raise InputError(f"device must be auto, cpu or cuda, got '{name}'")
    return name


def build(raw: dict[str, Any], base: Path = Path(".")) -> SimConfig:
    """Validate a configuration dictionary and build every object it names."""
    top = Section(raw, "top level")
    name = top.get("name", "simulation", str)
    seed = top.number("seed", 0, integer=True)
    seeds = top.number("seeds", 1, integer=True)
    if seed < 0 or seeds < 1:
        raise InputError(f"need seed >= 0 and seeds >= 1, got seed={seed}, seeds={seeds}")
    device = resolve_device(top.get("device", "auto", str))
    dtype_name = top.get("dtype", "float32", str)
    if dtype_name not in ("float32", "float64"):
        raise InputError(f"dtype must be float32 or float64, got '{dtype_name}'")
    dtype = getattr(torch, dtype_name)
    # One CPU thread by default: per-round tensors are small, and intra-op threads spin badly
    # when the cores are shared; 0 keeps torch's own setting.
    threads = top.number("threads", 1, integer=True)
    if threads < 0:
        raise InputError(f"threads must be >= 0 (0: torch's default), got {threads}")

    run = Section(top.get("run", {}), "run")
    settings = SimSettings(
        rounds=run.number("rounds", integer=True),
        local_steps=run.number("local_steps", 1, integer=True),
        batch_size=run.number("batch_size", 0, integer=True),
        eval_every=run.number("eval_every", 1, integer=True),
    )
    defaults = {k: run.get(k, v) for k, v in ALGORITHM_DEFAULTS.items()}
    prior_raw = run.floats("prior", [1.0, 1.0])
    if prior_raw.shape != (2,) or (prior_raw <= 0).any():
        raise InputError("[run] 'prior' must be two positive numbers [a, b]")
    prior = (float(prior_raw[0]), float(prior_raw[1]))
    run.done()

    from fltheory.sim.config_parts import build_availability, build_problem

    problem, extras = build_problem(Section(top.get("problem"), "problem"), seed, device, dtype)
    process, groups = build_availability(
        Section(top.get("availability"), "availability"), problem.n_clients, seed, base
    )
    items = top.get("algorithms", kind=list)
    if not items:
        raise InputError("[[algorithms]] must list at least one algorithm")
    specs = [
        _algorithm(Section(item, f"algorithms.{i}"), defaults, settings, process, problem, seed)
        for i, item in enumerate(items)
    ]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise InputError(f"algorithm labels must be distinct, got {labels}")
    top.done()
    return SimConfig(
        name=name,
        seed=seed,
        seeds=seeds,
        device=device,
        dtype=dtype,
        threads=threads or None,
        settings=settings,
        problem=problem,
        process=process,
        specs=specs,
        prior=prior,
        raw=raw,
        groups={**groups, **extras},
    )


def _algorithm(sec: Section, defaults: dict, settings: SimSettings, process, problem, seed: int):
    name = sec.get("name", kind=str)
    label = sec.get("label", name, str)
    hyper = {k: sec.get(k, v) for k, v in defaults.items()}
    n = problem.n_clients
    if name == "fedavg":
        rule = sec.get("rule", "mean", str)
        if rule not in ("mean", "fixed"):
            raise InputError(f"[{sec.where}] rule must be 'mean' or 'fixed', got '{rule}'")
        q = sec.floats("q", None)
        if q is not None and (q.shape != (n,) or (q < 0).any()):
            raise InputError(f"[{sec.where}] q must be {n} non-negative numbers")
        alg: algs.Algorithm = algs.FedAvg(rule=rule, q=q)
    elif name == "unbiased":
        alg = algs.Unbiased()
    elif name == "adafed":
        alg = algs.AdaFed()
    elif name == "more_available":
        threshold = sec.number("threshold", 0.5)
        members = np.asarray(process.pi) > threshold
        if not members.any():
            raise InputError(f"[{sec.where}] no client has availability above {threshold}")
        alg = algs.MoreAvailable(members=members)
    elif name == "f3ast":
        k = sec.number("k", round(0.45 * n), integer=True)
        beta = sec.number("beta", 1.0 / settings.rounds)
        r0 = sec.get("r0", "alpha", str)
        if not (1 <= k <= n and 0.0 < beta <= 1.0 and r0 in ("alpha", "pi")):
            raise InputError(f"[{sec.where}] needs 1 <= k <= {n}, beta in (0, 1], r0 alpha|pi")
        alg = algs.F3AST(k=k, beta=beta, r0=r0)
    elif name == "ca_fed":
        kappa2, tau = sec.number("kappa2", 1.0), sec.number("tau", 0.0)
        beta = sec.number("beta", 1.0)
        fstar_mode = sec.get("fstar", "running_min", str)
        if not (kappa2 >= 0 and tau >= 0 and 0.0 < beta <= 1.0):
            raise InputError(f"[{sec.where}] needs kappa2 >= 0, tau >= 0 and beta in (0, 1]")
        if fstar_mode not in ("running_min", "oracle"):
            raise InputError(f"[{sec.where}] fstar must be 'running_min' or 'oracle'")
        fstar = None
        if fstar_mode == "oracle":
            fstar = problem.local_minima
            if fstar is None:
                raise InputError(f"[{sec.where}] fstar='oracle' needs known local minima")
        alg = algs.CAFed(kappa2=kappa2, tau=tau, beta=beta, fstar=fstar)
    else:
        from fltheory.sim.config_images import build_memory_algorithm

        found = build_memory_algorithm(name, sec, seed)
        if found is None:
            raise InputError(f"[{sec.where}] unknown algorithm '{name}'")
        alg = found
    sec.done()
    for key in ("lr", "server_lr", "lr_t0", "momentum", "weight_decay", "diameter"):
        value = hyper[key]
        if (key != "diameter" or value is not None) and (
            not isinstance(value, int | float) or isinstance(value, bool)
        ):
            raise InputError(f"[{sec.where}] '{key}' must be a number")
    diameter = hyper["diameter"] or None  # 0 also means "no projection"
    return AlgorithmSpec(
        label=label,
        algorithm=alg,
        schedule=Schedule(float(hyper["lr"]), str(hyper["lr_schedule"]), float(hyper["lr_t0"])),
        server=ServerOptions(
            lr=float(hyper["server_lr"]),
            momentum=float(hyper["momentum"]),
            weight_decay=float(hyper["weight_decay"]),
            diameter=None if diameter is None else float(diameter),
        ),
        estimator=str(hyper["estimator"]),
    )
