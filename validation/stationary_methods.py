"""Stationary distribution: GTH vs eigenvector vs linear solve, against exact rationals.

Chains are built in exact rationals (sympy), so the reference ρ is exact
(``exact_stationary``: a rational null space); the float methods see the rounded matrix, whose
entries are off by at most half an ulp. For such relative perturbations of the entries the
componentwise condition of ρ is O(M), however sticky the chain (O'Cinneide 1993), so a
subtraction-free method must stay at ~1e-15 relative error componentwise:

* ``gth``: :func:`fltheory.markov.stationary.gth_stationary` (the library's method);
* ``eig``: eigenvector of Pᵀ for the eigenvalue nearest 1 (``numpy.linalg.eig``), normalised;
* ``solve``: (Pᵀ − I)ρ = 0 with the last equation replaced by Σρ = 1 (``numpy.linalg.solve``).

Families: random dense chains (integer weights 1..9), lazy sticky chains (1 − ε)I + εR, and
nearly decoupled chains (two blocks coupled with mass ε), ε = 10⁻³ … 10⁻¹².
Prints one row per chain and the worst relative error per method; ``--json PATH`` saves
everything. Exit status 1 if GTH's error exceeds 1e-13 (the claim being validated).
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import sympy

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.markov.stationary import exact_stationary, gth_stationary
from fltheory.rng import generator

GTH_TOL = 1e-13
METHODS = ("gth", "eig", "solve")


def by_eig(P: np.ndarray) -> np.ndarray:
    values, vectors = np.linalg.eig(P.T)
    v = np.real(vectors[:, np.argmin(np.abs(values - 1.0))])
    return v / v.sum()


def by_solve(P: np.ndarray) -> np.ndarray:
    M = P.shape[0]
    A = P.T - np.eye(M)
    A[-1] = 1.0
    b = np.zeros(M)
    b[-1] = 1.0
    return np.linalg.solve(A, b)


def random_rows(rng: np.random.Generator, m: int, n: int) -> sympy.Matrix:
    W = rng.integers(1, 10, (m, n))
    return sympy.Matrix([[sympy.Rational(int(w), int(r.sum())) for w in r] for r in W])


def sticky(rng: np.random.Generator, M: int, eps: sympy.Rational) -> sympy.Matrix:
    return (1 - eps) * sympy.eye(M) + eps * random_rows(rng, M, M)


def decoupled(rng: np.random.Generator, M: int, eps: sympy.Rational) -> sympy.Matrix:
    """Two dense blocks of sizes ⌈M/2⌉, ⌊M/2⌋; each row moves mass ε to the other block."""
    a = (M + 1) // 2
    P = sympy.zeros(M, M)
    for lo, hi, olo, ohi in ((0, a, a, M), (a, M, 0, a)):
        inside = random_rows(rng, hi - lo, hi - lo)
        across = random_rows(rng, hi - lo, ohi - olo)
        P[lo:hi, lo:hi] = (1 - eps) * inside
        P[lo:hi, olo:ohi] = eps * across
    return P


def chains(quick: bool) -> list[tuple[str, sympy.Matrix]]:
    rng = generator(0, "validation/stationary")
    out = []
    for i in range(3 if quick else 10):
        M = int(rng.integers(2, 9))
        out.append((f"random M={M} #{i}", random_rows(rng, M, M)))
    exponents = (3, 9, 12) if quick else (3, 6, 9, 12)
    for k in exponents:
        eps = sympy.Rational(1, 10**k)
        for family, build in (("sticky", sticky), ("decoupled", decoupled)):
            M = 4 if quick else 6
            out.append((f"{family} M={M} ε=1e-{k}", build(rng, M, eps)))
    return out


def compare(R: sympy.Matrix) -> dict[str, float]:
    exact = np.array([float(x) for x in exact_stationary(R)])
    P = np.array(R.tolist(), dtype=np.float64)
    found = {"gth": gth_stationary(P), "eig": by_eig(P), "solve": by_solve(P)}
    return {m: float(np.max(np.abs(found[m] - exact) / exact)) for m in METHODS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, smaller chains")
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    args = parser.parse_args(argv)
    rows = []
    print(f"{'chain':<28}" + "".join(f"{m:>12}" for m in METHODS))
    for name, R in chains(args.quick):
        errors = compare(R)
        rows.append({"chain": name, **errors})
        print(f"{name:<28}" + "".join(f"{errors[m]:>12.2e}" for m in METHODS))
    worst = {m: max(r[m] for r in rows) for m in METHODS}
    print(
        "max relative error (componentwise, vs exact rationals): "
        + ", ".join(f"{m} {v:.2e}" for m, v in worst.items())
    )
    ok = worst["gth"] <= GTH_TOL
    print(f"GTH within {GTH_TOL:g}: {'yes' if ok else 'NO'}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "max": worst, "ok": ok}, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
