"""Lemma 16 constants: exact path vs dense path, and the near-defective detector's verdicts.

Part 1 — random strictly positive rational chains (M = 3…6, integer weights 1..9, so complex
eigenvalues occur): λ̄₂, ln C_P (eq. 156) and T_P (eq. 157) from ``MarkovChain.constants``
with ``exact=True`` (Jordan structure decided over Q, basis at 50 digits) and ``exact=False``
(numpy eigendecomposition). They must agree: |Δλ̄₂| ≤ 1e-12, |Δ ln C_P| ≤ 1e-8, equal T_P.

Part 2 — chains built with a KNOWN Jordan structure (``fltheory.testing.chains``):
the dense path without fallback must refuse exact Jordan blocks and near-defective pairs
(a block split by a shift of 1e-10: distinct eigenvalues with condition ~1e10), and must accept
well-separated pairs and repeated semisimple eigenvalues (1ρᵀ-type and Kronecker squares),
where it then agrees with the exact path. With fallback, refused chains get the exact answer.

Prints both tables; ``--json PATH`` saves them. Exit status 1 on any disagreement.
"""

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import sympy

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.errors import NumericalError
from fltheory.markov.chain import MarkovChain
from fltheory.markov.jordan import numeric_jordan
from fltheory.rng import generator
from fltheory.testing.chains import defective_chain

R = sympy.Rational
SLEM_TOL, LOG_CP_TOL = 1e-12, 1e-8


def random_rational(rng: np.random.Generator, M: int) -> sympy.Matrix:
    W = rng.integers(1, 10, (M, M))
    return sympy.Matrix([[R(int(w), int(r.sum())) for w in r] for r in W])


def part1(count: int) -> list[dict]:
    rng = generator(0, "validation/jordan")
    rows = []
    for i in range(count):
        M = int(rng.integers(3, 7))
        chain = MarkovChain.from_rational(random_rational(rng, M))
        ex, de = chain.constants(exact=True), chain.constants(exact=False)
        complex_pair = bool(np.any(np.abs(chain.nonunit_spectrum.imag) > 1e-12))
        rows.append(
            {
                "chain": f"random M={M} #{i}",
                "complex": complex_pair,
                "slem_exact": ex.slem,
                "d_slem": abs(ex.slem - de.slem),
                "log_C_P_exact": ex.log_C_P,
                "d_log_C_P": abs(ex.log_C_P - de.log_C_P),
                "T_P_exact": ex.T_P,
                "T_P_dense": de.T_P,
            }
        )
    return rows


def constructed() -> list[tuple[str, sympy.Matrix, str]]:
    """(name, exact P, expected dense verdict)."""
    beta = R(1, 2)
    rho = [R(1, 10), R(2, 10), R(3, 10), R(15, 100), R(25, 100)]
    rank_one = beta * sympy.eye(5) + (1 - beta) * sympy.ones(5, 1) * sympy.Matrix([rho])
    P1 = sympy.Matrix(
        [[R(1, 2), R(3, 10), R(1, 5)], [R(1, 10), R(3, 5), R(3, 10)], [R(2, 5), R(1, 10), R(1, 2)]]
    )
    two = [
        sympy.Matrix([[R(3, 4), R(1, 4)], [R(1, 4), R(3, 4)]]),
        sympy.Matrix([[R(4, 5), R(1, 5)], [R(3, 10), R(7, 10)]]),
    ]
    return [
        (
            "one Jordan block of size 2",
            defective_chain([2, 1, 1], [(R(1, 2), 2)], lazy=R(1, 4)).P,
            "refused",
        ),
        (
            "one Jordan block of size 3",
            defective_chain([2, 1, 3, 1], [(R(-1, 2), 3)], lazy=R(1, 4)).P,
            "refused",
        ),
        (
            "size-2 block at 0.85 (Lemma 16 check)",
            defective_chain([1, 1, 1], [(0, 2)], lazy=R(17, 20)).P,
            "refused",
        ),
        (
            "pair split by 1e-10 (κ ~ 1e10)",
            defective_chain([2, 1, 1], [(R(1, 2), 2)], lazy=R(1, 4), shifts=[0, R(1, 10**10)]).P,
            "refused",
        ),
        (
            "pair split by 1e-2",
            defective_chain([2, 1, 1], [(R(1, 2), 2)], lazy=R(1, 4), shifts=[0, R(1, 100)]).P,
            "accepted",
        ),
        ("βI + (1−β)1ρᵀ, β = 1/2 (4-fold 1/2)", rank_one, "accepted"),
        ("P₁ ⊗ P₁ (repeated products)", sympy.kronecker_product(P1, P1), "accepted"),
        ("two-state ⊗ two-state, equal λ₂", sympy.kronecker_product(*two), "accepted"),
    ]


def part2() -> list[dict]:
    rows = []
    for name, P, expected in constructed():
        chain = MarkovChain.from_rational(P)
        exact = chain.lemma16(exact=True)
        sizes = sorted((n for _, n in exact.blocks[1:]), reverse=True)
        row = {
            "chain": name,
            "expected": expected,
            "exact_block_sizes": sizes,
            "exact_blocks": ", ".join(
                f"{n}×{c}" if c > 1 else str(n)
                for n, c in sorted(Counter(sizes).items(), reverse=True)
            ),
        }
        try:
            numeric_jordan(np.asarray(chain.P), fallback=False)
            row["dense"] = "accepted"
            dense = chain.constants(exact=False)
            row["d_log_C_P"] = abs(dense.log_C_P - exact.constants.log_C_P)
            row["d_slem"] = abs(dense.slem - exact.constants.slem)
        except NumericalError as err:
            row["dense"] = "refused"
            row["reason"] = str(err).split(": ", 1)[-1].split(";")[0]
            fallback = chain.constants()  # dense with exact fallback
            row["fallback_method"] = fallback.method
            row["d_log_C_P"] = abs(fallback.log_C_P - exact.constants.log_C_P)
            row["d_slem"] = abs(fallback.slem - exact.constants.slem)
        row["ok"] = bool(
            row["dense"] == expected
            and row["d_log_C_P"] <= LOG_CP_TOL
            and row["d_slem"] <= SLEM_TOL
            and (expected == "accepted" or row.get("fallback_method") == "exact")
        )
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer random chains")
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the results as JSON")
    args = parser.parse_args(argv)
    rows1 = part1(4 if args.quick else 20)
    print(
        f"{'chain':<18}{'complex':>8}{'λ̄₂':>12}{'|Δλ̄₂|':>10}{'ln C_P':>10}"
        f"{'|Δ ln C_P|':>12}{'T_P ex/de':>11}"
    )
    for r in rows1:
        print(
            f"{r['chain']:<18}{r['complex']!s:>8}{r['slem_exact']:>12.6f}{r['d_slem']:>10.1e}"
            f"{r['log_C_P_exact']:>10.4f}{r['d_log_C_P']:>12.1e}"
            f"{r['T_P_exact']:>6}/{r['T_P_dense']:<4}"
        )
    worst1 = {k: max(r[k] for r in rows1) for k in ("d_slem", "d_log_C_P")}
    ok1 = (
        worst1["d_slem"] <= SLEM_TOL
        and worst1["d_log_C_P"] <= LOG_CP_TOL
        and all(r["T_P_exact"] == r["T_P_dense"] for r in rows1)
    )
    print(
        f"max |Δλ̄₂| {worst1['d_slem']:.1e}, max |Δ ln C_P| {worst1['d_log_C_P']:.1e}, "
        f"T_P equal: {all(r['T_P_exact'] == r['T_P_dense'] for r in rows1)}\n"
    )
    rows2 = part2()
    print(
        f"{'constructed chain':<38}{'exact sizes':>14}{'expected':>10}{'dense':>10}"
        f"{'|Δ ln C_P|':>12}  reason"
    )
    for r in rows2:
        print(
            f"{r['chain']:<38}{r['exact_blocks']:>14}{r['expected']:>10}"
            f"{r['dense']:>10}{r['d_log_C_P']:>12.1e}  {r.get('reason', '')}"
        )
    ok2 = all(r["ok"] for r in rows2)
    print(f"detector verdicts as expected (and answers agree): {'yes' if ok2 else 'NO'}")
    if args.json:
        args.json.write_text(
            json.dumps({"random": rows1, "constructed": rows2, "ok": ok1 and ok2}, indent=1)
        )
    return 0 if ok1 and ok2 and all(math.isfinite(r["d_log_C_P"]) for r in rows2) else 1


if __name__ == "__main__":
    sys.exit(main())
