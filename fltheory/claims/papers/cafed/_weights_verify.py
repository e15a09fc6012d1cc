"""Standalone verifications of the CA-Fed weight findings: the ``verify`` of the refuted claims
of App. D, App. E, §III-C and §III-D (:mod:`.app_d_prop2`, :mod:`.app_e2_duality`, …).

Each ``verify_*`` function recomputes both sides of one refuted statement from the paper's
quantities (exact rationals, or 50-digit mpmath where the optimum of problem (212) is
irrational) and returns ``{"lhs": …, "rhs": …, "holds": bool}``. The errata scripts
(:mod:`fltheory.claims.errata_script`) embed their source verbatim, so each one imports inside
its body, uses only ``fractions``, ``math``, ``itertools`` and ``mpmath``, and copies the few
lines it needs (the brute force over the supports of problem (212) is repeated on purpose).

>>> from fractions import Fraction as F
>>> verify_appe2_iota_nonneg_printed(pi=[F(1, 2), F(9, 10)], Q=F(1), y1=[F(10, 7), F(10, 7)],
...                                  s1=F(20, 7))["holds"]
False
"""


def verify_appd_prop2(pi, alpha, q, q2, zeta):  # type: ignore[no-untyped-def]
    """Prop. 2 (App. D): χ²(α‖p(q)), p_k = π_kq_k/πᵀq, is convex on {q > 0, ‖q‖₁ = Q}.
    Both points must lie on one slice; returns χ² at the ζ-mix against the chord."""
    from fractions import Fraction

    def chi2(x):  # type: ignore[no-untyped-def]
        d = sum(Fraction(a) * b for a, b in zip(pi, x, strict=True))
        terms = (
            Fraction(a) ** 2 * d / (Fraction(p) * b) for a, p, b in zip(alpha, pi, x, strict=True)
        )
        return sum(terms) - 1  # Σ(α − p)²/p = Σα²/p − 1 as Σα = Σp = 1

    if sum(alpha) != 1 or min(q) <= 0 or min(q2) <= 0 or sum(q) != sum(q2):
        raise ValueError("α must sum to 1, and q, q′ > 0 lie on one slice ‖q‖₁ = Q")
    zeta = Fraction(zeta)
    mid = [zeta * a + (1 - zeta) * b for a, b in zip(q, q2, strict=True)]
    lhs = chi2(mid)
    rhs = zeta * chi2(q) + (1 - zeta) * chi2(q2)
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs}


def verify_problem14_convex_in_q(pi, alpha, sigma, upsilon, gamma, q, q2, zeta):  # type: ignore[no-untyped-def]
    """Problem (14): f(q) = (½qᵀΣq + υ)/πᵀq + Γχ²(α‖p(q)) (+ ψ + φ/ln(1/λ), constant on the
    slice) is convex on {q ≥ 0, ‖q‖₁ = Q}; Σ = diag(sigma). Returns f at the ζ-mix against
    the chord (the constant cancels)."""
    from fractions import Fraction

    def f(x):  # type: ignore[no-untyped-def]
        d = sum(Fraction(a) * b for a, b in zip(pi, x, strict=True))
        quad = sum(Fraction(s) * b * b for s, b in zip(sigma, x, strict=True)) / 2
        chi2 = (
            sum(
                Fraction(a) ** 2 * d / (Fraction(p) * b)
                for a, p, b in zip(alpha, pi, x, strict=True)
            )
            - 1
        )
        return (quad + upsilon) / d + gamma * chi2

    if sum(alpha) != 1 or min(q) <= 0 or min(q2) <= 0 or sum(q) != sum(q2):
        raise ValueError("α must sum to 1, and q, q′ > 0 lie on one slice ‖q‖₁ = Q")
    zeta = Fraction(zeta)
    mid = [zeta * a + (1 - zeta) * b for a, b in zip(q, q2, strict=True)]
    lhs = f(mid)
    rhs = zeta * f(q) + (1 - zeta) * f(q2)
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs}


def verify_eq211_c(ln_2cph, lam, t_p, eta1, a):  # type: ignore[no-untyped-def]
    """Eq. (211): Σ_t J_tη²_{t−J_t} = Σ_t x_tη²_{t−J_t} with x_t = ln(2C_PHt)/ln(1/λ) and
    J_t = min(max(⌈x_t⌉, T_P), t) (eq. 132), η_t = η₁t^(−a), η₀ := η₁. Returns D_n = the partial
    sum of (J_t − x_t)η²_{t−J_t} to the horizon n (30-digit mpmath) and holds = (0 lies in
    [D_n, D_n + tail]): past n every term is ≥ 0 and their sum is ≤ the tail bound."""
    import mpmath as mp

    with mp.workdps(30):
        big_l = -mp.log(mp.mpf(lam.numerator) / lam.denominator)
        k = mp.mpf(ln_2cph.numerator) / ln_2cph.denominator
        e1, p = mp.mpf(eta1.numerator) / eta1.denominator, 2 * mp.mpf(a.numerator) / a.denominator
        n = 64  # past n: x_t ≥ 0 and J_t ≤ x_t + 1 + T_P ≤ t/2, so 0 ≤ J_t − x_t ≤ max(1, T_P)
        while not (
            n >= 2 / big_l and k + mp.log(n) >= 0 and n / 2 >= (k + mp.log(n)) / big_l + 1 + t_p
        ):
            n *= 2
        total = mp.mpf(0)
        for t in range(1, n + 1):
            x = (k + mp.log(t)) / big_l
            j = min(max(int(mp.ceil(x)), t_p), t)
            total += (j - x) * (e1 * mp.mpf(max(t - j, 1)) ** (-p / 2)) ** 2
        tail = max(1, t_p) * e1**2 * 2**p * mp.mpf(n) ** (1 - p) / (p - 1)
        return {"lhs": total, "rhs": 0, "holds": bool(total <= 0 <= total + tail)}


def verify_eq224_kkt_main(pi, A, B, Q):  # type: ignore[no-untyped-def]
    """§III-D: at the optimum of (212), q_k* = a(ι*π_k − θ*) with ONE constant a. Solves (212)
    by a 50-digit brute force over every support and returns the ratios a_k = q_k*/(ι*π_k − θ*)
    of the first two supported clients; holds iff all ratios on the support agree."""
    import itertools

    import mpmath as mp

    with mp.workdps(50):
        P = [mp.mpf(x.numerator) / x.denominator for x in pi]
        S = [mp.mpf(x.numerator) / x.denominator for x in A]
        V, QQ = mp.mpf(B.numerator) / B.denominator, mp.mpf(Q.numerator) / Q.denominator
        best = None
        for r in range(1, len(P) + 1):  # on a support X, (224) and the two constraints give q
            for face in itertools.combinations(range(len(P)), r):
                s0 = mp.fsum(1 / S[k] for k in face)
                pbar = mp.fsum(P[k] / S[k] for k in face) / s0
                var = (
                    mp.fsum(
                        (P[i] - P[j]) ** 2 / (S[i] * S[j])
                        for i, j in itertools.combinations(face, 2)
                    )
                    / s0
                )
                c = QQ**2 / (2 * s0) + V
                iota = 2 * c / (QQ * pbar + mp.sqrt((QQ * pbar) ** 2 + 2 * var * c))
                q = [mp.mpf(0)] * len(P)
                for k in face:
                    q[k] = (iota * (P[k] - pbar) + QQ / s0) / S[k]
                if all(q[k] > 0 for k in face) and (best is None or iota < best[0]):
                    best = (iota, q)
        _, q = best
        quad = mp.fsum(s * x * x for s, x in zip(S, q, strict=True)) / 2
        iota = (quad + V) / mp.fsum(p * x for p, x in zip(P, q, strict=True))  # ι* = J* − C
        theta = (V - quad) / QQ  # from ∂L/∂s = 0
        ratios = [q[k] / (iota * P[k] - theta) for k in range(len(P)) if q[k] > 0]
        if len(ratios) < 2:
            return {"lhs": ratios[0], "rhs": ratios[0], "holds": True}
        spread = max(abs(x - ratios[0]) for x in ratios) / max(abs(x) for x in ratios)
        return {"lhs": ratios[0], "rhs": ratios[1], "holds": bool(spread < mp.mpf(10) ** -30)}


def verify_eq225_227_closed_form(pi, A, B, Q):  # type: ignore[no-untyped-def]
    """Eq. (227) gives θ* in closed form: its denominator s*[S₀S₂ − S₁²] (sums of 1/A_kk,
    π_k/A_kk, π_k²/A_kk over the optimum's support) is non-zero. The support comes from a
    50-digit brute force over every support of (212); S₀S₂ − S₁² is then exact."""
    import itertools
    from fractions import Fraction

    import mpmath as mp

    with mp.workdps(50):
        P = [mp.mpf(x.numerator) / x.denominator for x in pi]
        S = [mp.mpf(x.numerator) / x.denominator for x in A]
        V, QQ = mp.mpf(B.numerator) / B.denominator, mp.mpf(Q.numerator) / Q.denominator
        best = None
        for r in range(1, len(P) + 1):
            for face in itertools.combinations(range(len(P)), r):
                s0 = mp.fsum(1 / S[k] for k in face)
                pbar = mp.fsum(P[k] / S[k] for k in face) / s0
                var = (
                    mp.fsum(
                        (P[i] - P[j]) ** 2 / (S[i] * S[j])
                        for i, j in itertools.combinations(face, 2)
                    )
                    / s0
                )
                c = QQ**2 / (2 * s0) + V
                iota = 2 * c / (QQ * pbar + mp.sqrt((QQ * pbar) ** 2 + 2 * var * c))
                q = {k: (iota * (P[k] - pbar) + QQ / s0) / S[k] for k in face}
                if all(x > 0 for x in q.values()) and (best is None or iota < best[0]):
                    best = (iota, face)
    support = best[1]
    s0 = sum(Fraction(1) / A[k] for k in support)
    s1 = sum(Fraction(pi[k]) / A[k] for k in support)
    s2 = sum(Fraction(pi[k]) ** 2 / A[k] for k in support)
    det = s0 * s2 - s1 * s1
    return {"lhs": det, "rhs": 0, "holds": det != 0}


def verify_appe2_iota_nonneg_printed(pi, Q, y1, s1):  # type: ignore[no-untyped-def]
    """App. E2: for a feasible (y′, s′) of the relaxed problem (πᵀy′ > 1, ‖y′‖₁ = Qs′), the
    printed y″ = y′/πᵀy′ (s′ unchanged) is feasible: ‖y″‖₁ = Qs′ (214e). Returns both sides."""
    from fractions import Fraction

    py = sum(Fraction(p) * y for p, y in zip(pi, y1, strict=True))
    if not (py > 1 and sum(y1) == Q * s1 and min(y1) >= 0 and s1 > 0):
        raise ValueError("(y′, s′) must be relaxed-feasible with πᵀy′ > 1")
    y2 = [y / py for y in y1]
    lhs, rhs = sum(y2), Q * s1
    return {"lhs": lhs, "rhs": rhs, "holds": lhs == rhs}


def verify_appe2_monotone_paper_a(pi, c, B, Q):  # type: ignore[no-untyped-def]
    """App. E2 with the paper's A (eq. 209, equal σ_k): A_kk = c·π_k. 'q_k* increases with
    π_k': solves (212) by a 50-digit brute force over every support and returns, for the pair
    π_i < π_j with the largest q_i* − q_j*, lhs = q_j* (the more available) and rhs = q_i*."""
    import itertools

    import mpmath as mp

    with mp.workdps(50):
        P = [mp.mpf(x.numerator) / x.denominator for x in pi]
        S = [mp.mpf(c.numerator) / c.denominator * p for p in P]
        V, QQ = mp.mpf(B.numerator) / B.denominator, mp.mpf(Q.numerator) / Q.denominator
        best = None
        for r in range(1, len(P) + 1):
            for face in itertools.combinations(range(len(P)), r):
                s0 = mp.fsum(1 / S[k] for k in face)
                pbar = mp.fsum(P[k] / S[k] for k in face) / s0
                var = (
                    mp.fsum(
                        (P[i] - P[j]) ** 2 / (S[i] * S[j])
                        for i, j in itertools.combinations(face, 2)
                    )
                    / s0
                )
                cc = QQ**2 / (2 * s0) + V
                iota = 2 * cc / (QQ * pbar + mp.sqrt((QQ * pbar) ** 2 + 2 * var * cc))
                q = [mp.mpf(0)] * len(P)
                for k in face:
                    q[k] = (iota * (P[k] - pbar) + QQ / s0) / S[k]
                if all(q[k] > 0 for k in face) and (best is None or iota < best[0]):
                    best = (iota, q)
        q = best[1]
        pairs = [(q[i] - q[j], i, j) for i in range(len(P)) for j in range(len(P)) if pi[i] < pi[j]]
        if not pairs:
            return {"lhs": q[0], "rhs": q[0], "holds": True}
        worst, i, j = max(pairs)
        return {"lhs": q[j], "rhs": q[i], "holds": bool(worst <= 0)}
