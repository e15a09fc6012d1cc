"""Figure: eq. 5 of CA-Fed (ToN), E(t) = max_ij |[Pᵗ]_ij − ρ_j| against C_P λ(P)ᵗ and λ̄₂ᵗ.

Three chains: a sticky 3-state chain (λ̄₂ ≈ 0.93), the 3-state chain with one Jordan block of
size 2 at 0.85 (Lemma 16 constants from the exact path: T_P = 46, T_P_safe = 48), and a
two-state client (eq. 236, π = 0.3, λ₂ = 0.9). E(t) from ``MarkovChain.envelope``; C_P, λ(P),
T_P, T_P_safe from ``MarkovChain.lemma16``. Vertical lines mark T_P and T_P_safe when > 0.

Writes ``lemma16_envelope.png`` and ``lemma16_envelope.csv`` (columns: chain, t, E, bound =
C_P λᵗ, slem_power = λ̄₂ᵗ, T_P, T_P_safe) into ``--out`` (default figures/out).
"""

import argparse
import csv
import math
import sys
from pathlib import Path

import numpy as np
import sympy
from matplotlib.figure import Figure

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.markov.chain import MarkovChain
from fltheory.markov.two_state import two_state_matrix
from fltheory.testing.chains import defective_chain

OUT = Path(__file__).resolve().parent / "out"
T_MAX = 400


def chains() -> list[tuple[str, MarkovChain, bool]]:
    sticky = MarkovChain.from_rational(
        [["96/100", "3/100", "1/100"], ["2/100", "95/100", "3/100"], ["1/100", "4/100", "95/100"]]
    )
    block = defective_chain([1, 1, 1], [(sympy.Integer(0), 2)], lazy=sympy.Rational(17, 20))
    two_state = MarkovChain(two_state_matrix(0.3, 0.9))
    return [
        ("sticky 3-state", sticky, True),
        ("Jordan block (0.85, size 2)", MarkovChain.from_rational(block.P), True),
        ("two-state, π = 0.3, λ₂ = 0.9", two_state, False),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(13, 4.2), layout="constrained")
    axes = fig.subplots(1, 3)
    rows = []
    for ax, (name, chain, exact) in zip(axes, chains(), strict=True):
        record = chain.lemma16(exact=exact)
        c = record.constants
        env = chain.envelope(T_MAX)
        t = np.arange(env.t_stop + 1)
        bound = np.exp(c.log_C_P + t * math.log(c.lam))
        slem_t = c.slem**t
        ax.semilogy(t, env.values, label="E(t) = max |Pᵗ − 1ρᵀ|", lw=2)
        ax.semilogy(t, bound, "--", label=f"C_P λ(P)ᵗ (C_P = {c.C_P:.3g}, λ = {c.lam:.4g})")
        ax.semilogy(t, slem_t, ":", label=f"λ̄₂ᵗ (λ̄₂ = {c.slem:.4g})")
        for value, style, label in ((c.T_P, "-", "T_P"), (c.T_P_safe, "-.", "T_P_safe")):
            if value > 0:
                ax.axvline(value, color="grey", ls=style, lw=1, label=f"{label} = {value}")
        ax.set_xlabel("t (rounds)")
        ax.set_ylabel("max_ij |[Pᵗ]_ij − ρ_j|")
        ax.set_title(f"{name}\n({c.method} path, T_entrywise = {record.T_entrywise})", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
        rows += [
            [name, int(k), float(e), float(b), float(s), c.T_P, c.T_P_safe]
            for k, e, b, s in zip(t, env.values, bound, slem_t, strict=True)
        ]
    fig.suptitle("Lemma 16 (eq. 5): the envelope E(t) stays below C_P λ(P)ᵗ from T_P on")
    fig.savefig(args.out / "lemma16_envelope.png", dpi=110, metadata={"Software": None})
    with open(args.out / "lemma16_envelope.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["chain", "t", "E", "bound", "slem_power", "T_P", "T_P_safe"])
        writer.writerows(rows)


if __name__ == "__main__":
    main()
