"""``fltheory limit``: where FedAvg-type aggregation converges (in expectation) on quadratics.

Clients hold F_k = ½‖x − u_k‖² (FedPBC paper eq. 2); the limit is lim E[x_t] (equivalently the
long-run time average of one run), not a limit of the iterate itself.

Availability — exactly one of:

* ``--p``: independent Bernoulli links (FedPBC Section III). A comma list (fractions allowed,
  ``0.1,1/3``), or a file: ``.npy``, or text with one number per line.
* ``--chain FILE``: any finite Markov chain (format of ``fltheory.markov.io.read_matrix``); its
  state→clients map comes from the JSON's ``state_clients`` or from ``--states FILE``. Or a
  clients CSV, or a TOML file with an ``[availability]`` table (``docs/plugins.md``; a
  simulation config, a problem or report file), N from the rows of u.
* ``--chain-clients PI:LAMBDA2,...``: independent two-state clients (CA-Fed ToN eq. 236), one
  pair per client in the order of the rows of u.

Aggregation (:class:`fltheory.limits.aggregation.Aggregation`, same defaults): FedAvg
(Algorithm 1) unless ``--q`` is given; with ``--q`` the server applies x ← x + η̄ Σ_{k∈A} q_k Δ_k
(CA-Fed eq. 3), or with ``--normalise`` q_k/Σ_{j∈A} q_j. ``--no-normalise`` without ``--q`` is
the simulator's fixed FedAvg rule, q = α (uniform α = 1/N without ``--alpha``). The local update
is s = ``--local-steps`` exact gradient steps of size η = ``--lr``; the defaults of η, s and η̄
are those of :mod:`fltheory.limits`.

The optimum is the plain mean of the u_k (eq. 2) unless ``--alpha`` gives target importances
(CA-Fed eq. 1); the JSON key ``optimum_kind`` says which.
"""

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer

from fltheory import checks
from fltheory.cli.output import Col, console, emit_json, print_table, warn
from fltheory.config.files import load_npy, read_text
from fltheory.config.numbers import parse_float, parse_table
from fltheory.errors import InputError
from fltheory.limits import DEFAULT_LOCAL_STEPS, DEFAULT_LR, DEFAULT_SERVER_LR

if TYPE_CHECKING:
    from fltheory.api.limit import LimitReport


def _names_file(spec: str) -> bool:
    """Whether ``spec`` names something in the file system (a file, pipe, broken link...)."""
    try:
        os.lstat(spec)
    except (OSError, ValueError):
        return False
    return True


def read_vector(spec: str, what: str) -> np.ndarray:
    """A vector from a comma list, a .npy file (1-D, real), or a text file with one number per
    line (``#`` comments allowed); every number finite, its exponent bounded.

    >>> read_vector("0.5, 1/4", "--p").tolist()
    [0.5, 0.25]
    """
    path = Path(spec)
    if _names_file(spec) or path.suffix.lower() in (".npy", ".csv", ".txt"):
        if path.suffix.lower() == ".npy":
            array = load_npy(path, f"{what} file", ndim=1)
            values = np.asarray(array, dtype=float)
            if not np.isfinite(values).all():
                raise InputError(f"{what}: {path} holds a non-finite number")
            return values
        text = read_text(path, f"{what} file")
        values, _ = parse_table(text, f"{what} ({path})")
        if values.shape[1] != 1:
            raise InputError(f"{what}: {path} must hold one number per line")
        return values[:, 0]
    where = f"{what} (not a file, read as a list)"
    values = np.array([parse_float(x, where) for x in spec.split(",") if x.strip()])
    if values.size == 0:
        raise InputError(f"{what}: empty list")
    return values


def read_points(path: Path) -> np.ndarray:
    """The client optima u: an N×d matrix from .npy (1-D or 2-D, real) or CSV (one row per
    client); every entry finite."""
    what = "--u file"
    if path.suffix.lower() == ".npy":
        arr = np.asarray(load_npy(path, what, ndim=(1, 2)), dtype=float)
        if not np.isfinite(arr).all():
            raise InputError(f"--u {path}: holds a non-finite number")
    else:
        arr, _ = parse_table(read_text(path, what), f"--u {path}")
    return arr[:, None] if arr.ndim == 1 else arr


def _target(spec: str, n: int) -> np.ndarray:
    """α from ``--alpha``: n non-negative numbers (the API scales them to sum 1, eq. 1)."""
    return checks.nonnegative_vector(read_vector(spec, "--alpha"), "--alpha", n)


def _compute(options: dict[str, Any]) -> "LimitReport":
    """Parse the options into the arguments of :func:`fltheory.api.limit.aggregation_limit`."""
    from fltheory.api.limit import aggregation_limit

    u = read_points(options["u"])
    n = u.shape[0]
    sources = [k for k in ("p", "chain", "chain_clients") if options[k] is not None]
    if len(sources) != 1:
        named = ", ".join(f"--{s.replace('_', '-')}" for s in sources) or "none"
        raise InputError(f"give exactly one of --p, --chain, --chain-clients (got {named})")
    if options["states"] is not None and options["chain"] is None:
        raise InputError("--states only applies to --chain")
    chain: Any = options["chain"]
    if options["chain_clients"] is not None:
        from fltheory.markov.io import parse_client_spec
        from fltheory.markov.product import ProductChain

        pairs = [parse_client_spec(c) for c in options["chain_clients"].split(",") if c.strip()]
        if len(pairs) != n:
            raise InputError(f"--chain-clients lists {len(pairs)} clients, but u has {n} rows")
        chain = ProductChain([pi for pi, _ in pairs], [lam for _, lam in pairs])
    return aggregation_limit(
        u,
        p=None if options["p"] is None else read_vector(options["p"], "--p"),
        chain=chain,
        states=options["states"],
        q=None if options["q"] is None else read_vector(options["q"], "--q"),
        normalised=options["normalise"],
        alpha=None if options["alpha"] is None else _target(options["alpha"], n),
        lr=options["lr"],
        local_steps=options["local_steps"],
        server_lr=options["server_lr"],
    )


def _print_report(report: "LimitReport") -> None:
    vec = lambda v: ", ".join(f"{x:.6g}" for x in v)  # noqa: E731
    rows = [
        ("method", report.method),
        ("limit", vec(report.limit)),
        ("optimum", f"{vec(report.optimum)}  [{report.optimum_kind}]"),
        ("distance ‖limit − x*‖", f"{report.distance:.6g}"),
        ("rate of E[x_t]", f"{report.rate:.6g}"),
        ("local gain γ = 1 − (1 − η)^s", f"{report.local_gain:.6g}"),
    ]
    if report.stationary_mse is not None and report.expected_sq_distance is not None:
        rows.append(("E‖x − limit‖² (stationary)", f"{report.stationary_mse:.6g}"))
        rows.append(("E‖x − x*‖² (stationary)", f"{report.expected_sq_distance:.6g}"))
    out = console()
    print_table(
        out,
        "lim E[x_t] on F_k = ½‖x − u_k‖² (FedPBC Prop. 1 and extensions)",
        [Col("quantity"), Col("value")],
        rows,
    )
    w = report.weights
    if w is not None:
        out.print(f"weights w_k: min {w.min():.6g}, max {w.max():.6g} over {w.size} clients")
    if report.note:
        warn(report.note)


def limit_command(
    u: Annotated[Path, typer.Option("--u", help="Client optima u_k: N×d .npy or CSV.")],
    p: Annotated[str | None, typer.Option("--p", help="Link probabilities (list or file).")] = None,
    chain: Annotated[
        Path | None,
        typer.Option(
            help="Markov chain file (.csv/.npy/.json), a clients CSV, or a TOML file with an "
            "\\[availability] table."
        ),
    ] = None,
    states: Annotated[Path | None, typer.Option(help="State→clients map for --chain.")] = None,
    chain_clients: Annotated[
        str | None, typer.Option(help="Two-state clients PI:LAMBDA2,... (one per row of u).")
    ] = None,
    q: Annotated[str | None, typer.Option(help="Aggregation weights q_k (list or file).")] = None,
    normalise: Annotated[
        bool | None,
        typer.Option(
            "--normalise/--no-normalise",
            help="Renormalise q over the active set each round. Default: normalised without "
            "--q (FedAvg), not with --q (CA-Fed eq. 3). --no-normalise without --q uses q = α, "
            "uniform α = 1/N without --alpha (the simulator's fixed FedAvg rule).",
        ),
    ] = None,
    server_lr: Annotated[
        float, typer.Option(help="Server learning rate η̄ (CA-Fed eq. 3).")
    ] = DEFAULT_SERVER_LR,
    local_steps: Annotated[int, typer.Option(help="Local gradient steps s.")] = DEFAULT_LOCAL_STEPS,
    lr: Annotated[float, typer.Option(help="Local learning rate η in (0, 2).")] = DEFAULT_LR,
    alpha: Annotated[
        str | None,
        typer.Option(
            help="Target importances α_k (list or file, scaled to sum 1) for the optimum, and q "
            "of --no-normalise without --q."
        ),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Expected limit of FedAvg-type aggregation and its distance to the optimum."""
    report = _compute(
        {
            "u": u, "p": p, "chain": chain, "states": states, "chain_clients": chain_clients,
            "q": q, "normalise": normalise, "server_lr": server_lr, "local_steps": local_steps,
            "lr": lr, "alpha": alpha,
        }
    )  # fmt: skip
    if json_out:
        emit_json(report.to_dict())
    else:
        _print_report(report)
