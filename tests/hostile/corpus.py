"""A corpus of hostile inputs for every command: each must end in exit 2 and one line on stderr,
fast, with nothing on stdout — never a traceback, a hang, an out-of-memory kill or a silent
default. :func:`controls` lists valid inputs of the same commands, which must exit 0.

A case is (name, argv, files): ``argv`` may contain ``{tmp}`` (the case's temporary folder) and
``{examples}``; ``files`` maps a name in that folder to its content — bytes/str, or one of the
special markers FIFO (a named pipe), DIR (a directory), ZERO (a symlink to /dev/zero), NULL (a
symlink to /dev/null), LOOP (a symlink to itself).

``python tests/hostile/corpus.py`` prints the number of cases and the first names.
"""

import json
from pathlib import Path

import numpy as np

FIFO, DIR, ZERO, NULL, LOOP = "<fifo>", "<dir>", "<zero>", "<null>", "<loop>"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

QUAD = (EXAMPLES / "quadratic_small.toml").read_text()
SIM = """
name = "tiny"
seed = 3
seeds = 2
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


def _npy(array: np.ndarray) -> bytes:
    import io

    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _lying_npy() -> bytes:
    """A header claiming a (1000, 1000) float64 array followed by 16 bytes of data."""
    good = _npy(np.zeros((2, 1)))
    header_end = good.index(b"\n") + 1
    header = good[:header_end].replace(b"(2, 1)", b"(1000, 1000)")
    pad = len(good[:header_end]) - len(header)
    header = header[:-1] + b" " * pad + b"\n" if pad > 0 else header
    return header + b"\x00" * 16


def _nested_json(depth: int) -> str:
    return "[" * depth + "]" * depth


def _nested_toml(depth: int) -> str:
    return "a = " + "[" * depth + "]" * depth + "\n"


BAD_NUMBERS = [
    "1e400",
    "-1e400",
    "1e-99999999",
    "nan",
    "inf",
    "-inf",
    "0x1p3",
    "1/0",
    "",
    " ",
    "1e",
    "--1",
    "9" * 5000,
    "1e99999999999",
    "½",
]

BAD_FILES = {
    "fifo": FIFO,
    "dir": DIR,
    "devzero": ZERO,
    "devnull": NULL,
    "loop": LOOP,
    "empty": b"",
    "binary": b"\x00\xff\xfe\x80" * 64,
    "latin1": "pi,lambda2\n0.5,0.5\xe9".encode("latin-1"),
}


def cases() -> list[tuple[str, list[str], dict[str, object]]]:
    out: list[tuple[str, list[str], dict[str, object]]] = []
    add = out.append

    # --- chain ----------------------------------------------------------------------------
    for i, bad in enumerate(BAD_NUMBERS):
        add((f"chain-client-pi-{i}", ["chain", "--client", f"{bad}:0.5"], {}))
        add((f"chain-client-lambda-{i}", ["chain", "--client", f"0.5:{bad}"], {}))
        add(
            (
                f"chain-csv-{i}",
                ["chain", "--clients-file", "{tmp}/c.csv"],
                {"c.csv": f"pi,lambda2\n0.5,0.5\n{bad},0.2\n"},
            )
        )
        add(
            (
                f"chain-matrix-{i}",
                ["chain", "--matrix", "{tmp}/P.csv"],
                {"P.csv": f"0.5,0.5\n{bad},0.5\n"},
            )
        )
    for name, content in BAD_FILES.items():
        add((f"chain-clients-file-{name}", ["chain", "--clients-file", "{tmp}/x"], {"x": content}))
        add((f"chain-matrix-csv-{name}", ["chain", "--matrix", "{tmp}/x.csv"], {"x.csv": content}))
        add(
            (
                f"chain-matrix-json-{name}",
                ["chain", "--matrix", "{tmp}/x.json"],
                {"x.json": content},
            )
        )
        add((f"chain-matrix-npy-{name}", ["chain", "--matrix", "{tmp}/x.npy"], {"x.npy": content}))
        add(
            (
                f"chain-states-{name}",
                ["chain", "--matrix", "{examples}/chain_sticky3.csv", "--states", "{tmp}/s.json"],
                {"s.json": content},
            )
        )
    add(
        ("chain-json-deep", ["chain", "--matrix", "{tmp}/P.json"], {"P.json": _nested_json(100000)})
    )
    add(
        (
            "chain-json-deep-states",
            ["chain", "--matrix", "{examples}/chain_sticky3.csv", "--states", "{tmp}/s.json"],
            {"s.json": _nested_json(100000)},
        )
    )
    for name, array in {
        "0d": np.array(0.5),
        "empty": np.zeros((0, 0)),
        "complex": np.eye(2) * (1 + 1j),
        "object": np.array([[0.5, "a"], [0.5, 0.5]], dtype=object),
        "3d": np.ones((2, 2, 2)) / 2,
        "int-huge": np.full((2, 2), 2**62, dtype=np.int64),
        "bool": np.eye(2, dtype=bool),
        "nonsquare": np.full((2, 3), 1 / 3),
    }.items():
        try:
            content: object = _npy(array)
        except ValueError:
            continue
        add((f"chain-npy-{name}", ["chain", "--matrix", "{tmp}/P.npy"], {"P.npy": content}))
    add(("chain-npy-lying-header", ["chain", "--matrix", "{tmp}/P.npy"], {"P.npy": _lying_npy()}))
    add(
        (
            "chain-npy-truncated",
            ["chain", "--matrix", "{tmp}/P.npy"],
            {"P.npy": _npy(np.full((3, 3), 1 / 3))[:-8]},
        )
    )
    for n in ("1000000000", "-1", "0", "3.5", "1e9", "99999999999999999999999"):
        add((f"chain-preset-n-{n}", ["chain", "--preset", "ca-fed", "--n", n], {}))
    add(("chain-preset-g", ["chain", "--preset", "ca-fed", "--g", "nan"], {}))
    add(("chain-preset-eps", ["chain", "--preset", "ca-fed", "--eps", "1e400"], {}))
    add(
        (
            "chain-matrix-huge-dims",
            ["chain", "--matrix", "{tmp}/P.csv"],
            {"P.csv": ",".join(["0"] * 5000) + "\n"},
        )
    )

    # --- bound / optimize-q ---------------------------------------------------------------
    for cmd in (["bound"], ["optimize-q"]):
        tag = cmd[0]
        for name, content in BAD_FILES.items():
            add((f"{tag}-config-{name}", [*cmd, "--config", "{tmp}/x.toml"], {"x.toml": content}))
        add(
            (f"{tag}-toml-deep", [*cmd, "--config", "{tmp}/x.toml"], {"x.toml": _nested_toml(5000)})
        )
        edits = {
            "inf": ("eta1 = 0.02", "eta1 = inf"),
            "huge": ("eta1 = 0.02", "eta1 = 1e400"),
            "rounds-huge": ("rounds = 500", "rounds = 1000000000000000000"),
            "rounds-bool": ("rounds = 500", "rounds = true"),
            "misspelt": ('alpha = "uniform"', 'alhpa = "uniform"'),
            "sigma-str": ("sigma = [0.5, 0.5, 1.0, 1.0, 2.0]", 'sigma = "big"'),
            "pi-nan": ("pi = [0.9, 0.8, 0.6, 0.4, 0.2]", "pi = [nan, 0.8, 0.6, 0.4, 0.2]"),
            "pi-short": ("pi = [0.9, 0.8, 0.6, 0.4, 0.2]", "pi = [0.9]"),
            "preset-huge": (
                "pi = [0.9, 0.8, 0.6, 0.4, 0.2]\nlambda2 = [0.1, 0.5, 0.0, 0.7, 0.9]",
                'preset = "ca-fed"\nn = 1000000000',
            ),
            "matrix-fifo": (
                "pi = [0.9, 0.8, 0.6, 0.4, 0.2]\nlambda2 = [0.1, 0.5, 0.0, 0.7, 0.9]",
                'matrix = "pipe.csv"',
            ),
            "diameter-neg": ("diameter = 8.0", "diameter = -8.0"),
            "hessian-huge": ("[[2.0, 0.5], [0.5, 1.0]]", "[[1e308, 0.5], [0.5, 1e308]]"),
        }
        for name, (old, new) in edits.items():
            files: dict[str, object] = {"x.toml": QUAD.replace(old, new)}
            if name == "matrix-fifo":
                files["pipe.csv"] = FIFO
            add((f"{tag}-{name}", [*cmd, "--config", "{tmp}/x.toml"], files))
    add(
        (
            "optimize-kappa2-nan",
            ["optimize-q", "--config", "{examples}/quadratic_small.toml", "--kappa2", "nan"],
            {},
        )
    )
    add(
        (
            "optimize-kappa2-inf",
            ["optimize-q", "--config", "{examples}/quadratic_small.toml", "--kappa2", "1e400"],
            {},
        )
    )
    add(
        (
            "optimize-problem-bad",
            ["optimize-q", "--config", "{examples}/quadratic_small.toml", "--problem", "13"],
            {},
        )
    )

    # --- limit ----------------------------------------------------------------------------
    u = "{examples}/u_ten_clients.csv"
    ten = lambda x: ",".join([x] * 10)  # noqa: E731
    for i, bad in enumerate(BAD_NUMBERS[:10]):
        add((f"limit-p-{i}", ["limit", "--u", u, "--p", ten(bad)], {}))
        add((f"limit-q-{i}", ["limit", "--u", u, "--p", ten("0.5"), "--q", ten(bad)], {}))
        add((f"limit-alpha-{i}", ["limit", "--u", u, "--p", ten("0.5"), "--alpha", ten(bad)], {}))
        add(
            (
                f"limit-u-{i}",
                ["limit", "--u", "{tmp}/u.csv", "--p", "0.5,0.5"],
                {"u.csv": f"0.1,0.2\n{bad},0.3\n"},
            )
        )
        add(
            (
                f"limit-chain-clients-{i}",
                ["limit", "--u", u, "--chain-clients", ",".join([f"{bad}:0.5"] * 10)],
                {},
            )
        )
    for name, content in BAD_FILES.items():
        add((f"limit-u-{name}", ["limit", "--u", "{tmp}/u.csv", "--p", "0.5"], {"u.csv": content}))
        add((f"limit-p-file-{name}", ["limit", "--u", u, "--p", "{tmp}/p.csv"], {"p.csv": content}))
        add(
            (
                f"limit-chain-{name}",
                ["limit", "--u", u, "--chain", "{tmp}/P.json"],
                {"P.json": content},
            )
        )
    add(
        (
            "limit-u-npy-complex",
            ["limit", "--u", "{tmp}/u.npy", "--p", "0.5,0.5"],
            {"u.npy": _npy(np.ones((2, 2)) * 1j)},
        )
    )
    add(
        (
            "limit-u-npy-lying",
            ["limit", "--u", "{tmp}/u.npy", "--p", "0.5,0.5"],
            {"u.npy": _lying_npy()},
        )
    )
    add(("limit-lr-nan", ["limit", "--u", u, "--p", ten("0.5"), "--lr", "nan"], {}))
    add(("limit-lr-huge", ["limit", "--u", u, "--p", ten("0.5"), "--lr", "1e400"], {}))
    add(
        (
            "limit-steps-huge",
            ["limit", "--u", u, "--p", ten("0.5"), "--local-steps", "100000000000000000000"],
            {},
        )
    )
    add(
        (
            "limit-chain-clients-many",
            ["limit", "--u", u, "--chain-clients", ",".join(["0.5:0.5"] * 40)],
            {},
        )
    )

    # --- report ---------------------------------------------------------------------------
    # (an empty report file is valid: every key has a default)
    bad_reports = {k: v for k, v in BAD_FILES.items() if k != "empty"}
    for name, content in {**bad_reports, "deep": _nested_toml(5000)}.items():
        add((f"report-config-{name}", ["report", "--config", "{tmp}/r.toml"], {"r.toml": content}))
    add(("report-out-is-file", ["report", "--out", "{tmp}/f"], {"f": b"x"}))

    # --- simulate -------------------------------------------------------------------------
    for name, content in BAD_FILES.items():
        add(
            (
                f"simulate-config-{name}",
                ["simulate", "--config", "{tmp}/s.toml"],
                {"s.toml": content},
            )
        )
    add(
        (
            "simulate-toml-deep",
            ["simulate", "--config", "{tmp}/s.toml"],
            {"s.toml": _nested_toml(5000)},
        )
    )
    sim_edits = {
        "rounds-huge": ("rounds = 4", "rounds = 1000000000"),
        "seeds-huge": ("seeds = 2", "seeds = 1000000000"),
        "rounds-bigint": ("rounds = 4", "rounds = 100000000000000000000"),
        "lr-inf": ("lr = 0.1", "lr = inf"),
        "lr-str": ("lr = 0.1", 'lr = "0.1"'),
        "misspelt": ("local_steps = 1", "local_stesp = 1"),
        "p-nan": ("p = [0.5, 0.5, 0.9]", "p = [nan, 0.5, 0.9]"),
        "p-huge": ("p = [0.5, 0.5, 0.9]", "p = [1e400, 0.5, 0.9]"),
        "leaf-huge": (
            'kind = "quadratic"\nu = [[0.0], [1.0], [2.0]]',
            'kind = "synthetic_leaf"\ngamma = 0.5\ndelta = 0.5\nn_clients = 1000000000',
        ),
        "trace-fifo": ('kind = "bernoulli"\np = [0.5, 0.5, 0.9]', 'kind = "trace"\npath = "t.npy"'),
        "csv-fifo": (
            'kind = "bernoulli"\np = [0.5, 0.5, 0.9]',
            'kind = "clients_csv"\npath = "c.csv"',
        ),
        "unknown-algorithm": ('name = "fedavg"', 'name = "fedavgg"'),
        "device-bad": ('dtype = "float64"', 'dtype = "float64"\ndevice = "tpu"'),
    }
    for name, (old, new) in sim_edits.items():
        files = {"s.toml": SIM.replace(old, new)}
        if name == "trace-fifo":
            files["t.npy"] = FIFO
        if name == "csv-fifo":
            files["c.csv"] = FIFO
        add((f"simulate-{name}", ["simulate", "--config", "{tmp}/s.toml"], files))
    add(
        (
            "simulate-seeds-flag-huge",
            ["simulate", "--config", "{tmp}/s.toml", "--seeds", "1000000000"],
            {"s.toml": SIM},
        )
    )
    add(
        (
            "simulate-seeds-flag-zero",
            ["simulate", "--config", "{tmp}/s.toml", "--seeds", "0"],
            {"s.toml": SIM},
        )
    )
    add(
        (
            "simulate-threads-neg",
            ["simulate", "--config", "{tmp}/s.toml", "--threads", "-3"],
            {"s.toml": SIM},
        )
    )

    # --- check ----------------------------------------------------------------------------
    add(("check-budget-zero", ["check", "--budget", "0"], {}))
    add(("check-budget-huge", ["check", "--budget", "100000000000000000000000"], {}))
    add(("check-seconds-nan", ["check", "--seconds", "nan"], {}))
    add(("check-unknown-id", ["check", "cafed:nope"], {}))
    add(("check-out-is-file", ["check", "--out", "{tmp}/f"], {"f": b"x"}))
    add(("check-seed-negative", ["check", "cafed:prop3", "--seed", "-1"], {}))
    add(("check-list-with-ids", ["check", "--list", "cafed:prop3"], {}))

    # --- reproduce ------------------------------------------------------------------------
    add(("reproduce-unknown-id", ["reproduce", "cafed:fig99"], {}))
    add(("reproduce-unknown-setup", ["reproduce", "cafed:fig1a", "--setup", "nope"], {}))
    add(("reproduce-not-runnable", ["reproduce", "cafed:fig1c", "--quick"], {}))
    add(("reproduce-seeds-one", ["reproduce", "cafed:fig1a", "--quick", "--seeds", "1"], {}))
    add(
        (
            "reproduce-seeds-huge",
            ["reproduce", "cafed:fig1a", "--quick", "--seeds", "1000000000"],
            {},
        )
    )
    add(("reproduce-seeds-overflow", ["reproduce", "cafed:fig1a", "--seeds", "1e400"], {}))
    add(("reproduce-out-is-file", ["reproduce", "cafed:fig1a", "--out", "{tmp}/f"], {"f": b"x"}))
    add(("reproduce-out-in-file", ["reproduce", "cafed:fig1a", "--out", "{tmp}/f/c"], {"f": b"x"}))
    add(("reproduce-no-id", ["reproduce"], {}))
    return out


def out_cases() -> list[tuple[str, list[str], dict[str, object]]]:
    """``simulate --out`` refusals (an existing file, a parent that is a file, an unwritable
    place, a folder of foreign files; a missing parent is created, issue 24): issue 10 section
    2, handled with the crash-safe result folders."""
    out = [
        ("simulate-out-is-file", ["--out", "{tmp}/f"], {"f": b"x"}),
        ("simulate-out-under-a-file", ["--out", "{tmp}/f/such/dir"], {"f": b"x"}),
        ("simulate-out-unwritable", ["--out", "/proc/fltheory-results"], {}),
        ("simulate-out-foreign", ["--out", "{tmp}/o"], {"o": DIR, "o/notes.txt": b"mine"}),
    ]
    return [
        (name, ["simulate", "--config", "{tmp}/s.toml", *argv], {"s.toml": SIM, **files})
        for name, argv, files in out
    ]


def controls() -> list[tuple[str, list[str], dict[str, object]]]:
    """Valid inputs next to the hostile ones: each must exit 0 (the refusals are not blanket)."""
    u = "{examples}/u_ten_clients.csv"
    ten = ",".join(["0.5"] * 10)
    clients = "name,lambda2,pi\na,0.9,0.1\nb,-0.05,0.9\n\nc,0,0.5\n"
    return [
        ("ok-chain-client", ["chain", "--client", "0.9:0.5", "--client", "1/3:1e-3", "--json"], {}),
        ("ok-chain-clients-file", ["chain", "--clients-file", "{tmp}/c.csv"], {"c.csv": clients}),
        (
            "ok-chain-clients-plain",
            ["chain", "--clients-file", "{tmp}/c.csv", "--json"],
            {"c.csv": "pi,lambda2\n0.9,0.5\n0.25,1e-300\n"},
        ),
        (
            "ok-chain-matrix-csv",
            [
                "chain",
                "--matrix",
                "{examples}/chain_sticky3.csv",
                "--states",
                "{examples}/chain_sticky3_states.json",
                "--json",
            ],
            {},
        ),
        (
            "ok-chain-matrix-npy",
            ["chain", "--matrix", "{tmp}/P.npy", "--json"],
            {"P.npy": _npy(np.array([[0.5, 0.5], [0.25, 0.75]]))},
        ),
        (
            "ok-chain-matrix-json",
            ["chain", "--matrix", "{tmp}/P.json", "--json"],
            {"P.json": '{"P": [["1/2", 0.5], [0.25, "3/4"]], "state_clients": [[0], [1]]}'},
        ),
        ("ok-chain-preset", ["chain", "--preset", "ca-fed", "--n", "1000", "--json"], {}),
        ("ok-bound", ["bound", "--config", "{examples}/quadratic_small.toml", "--json"], {}),
        ("ok-optimize-q", ["optimize-q", "--config", "{examples}/quadratic_small.toml"], {}),
        ("ok-limit-list", ["limit", "--u", u, "--p", ten, "--json"], {}),
        (
            "ok-limit-files",
            ["limit", "--u", "{tmp}/u.npy", "--p", "{tmp}/p.txt"],
            {"u.npy": _npy(np.array([[0.0], [1.0]])), "p.txt": "# p\n0.5\n1/4\n"},
        ),
        (
            "ok-limit-chain-clients",
            ["limit", "--u", u, "--chain-clients", ",".join(["0.5:0.5"] * 10)],
            {},
        ),
        ("ok-simulate", ["simulate", "--config", "{tmp}/s.toml", "--json"], {"s.toml": SIM}),
        (
            "ok-simulate-trace",
            ["simulate", "--config", "{tmp}/s.toml", "--json"],
            {
                "s.toml": SIM.replace(
                    'kind = "bernoulli"\np = [0.5, 0.5, 0.9]', 'kind = "trace"\npath = "t.csv"'
                ),
                "t.csv": "a,b,c\n1,0,1\n1,1,1\n0,1,1\n1,1,0\n",
            },
        ),
    ]


def materialise(tmp: Path, files: dict[str, object]) -> None:
    import os

    for name, content in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == FIFO:
            os.mkfifo(path)
        elif content == DIR:
            path.mkdir(exist_ok=True)
        elif content == ZERO:
            path.symlink_to("/dev/zero")
        elif content == NULL:
            path.symlink_to("/dev/null")
        elif content == LOOP:
            path.symlink_to(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(str(content))


if __name__ == "__main__":
    print(len(cases()), "cases,", len(controls()), "controls,", len(out_cases()), "--out cases")
    print(json.dumps([c[0] for c in cases()][:10]))
