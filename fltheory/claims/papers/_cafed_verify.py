"""Standalone checks of the CA-Fed findings (the errata scripts, ``docs/errata/cafed/*.py``).

Each function recomputes both sides of one refuted statement from the paper's quantities with
nothing but the standard library and mpmath: imports inside the body, no names from this module
(:func:`fltheory.claims.errata_script.standalone_source` embeds the source verbatim). That is why
this module imports nothing and its functions carry no annotations (the generated scripts
evaluate them): a module-level name that a function's byte code mentions
(``Fraction`` of ``from fractions import Fraction``) would count as a global.
"""


def verify_thm1(form, h, R, u, alpha, pi, q, w):
    """Both sides of eq. (10) as printed without the bracket (``form`` "eq10-b": ε ≤ 2κ²ε_opt +
    ε_bias) or of §III-C's title with 000's ε̄_bias := χ² (``form`` "sec3c-main": ε ≤ 2κ²(ε_opt
    + χ²)), for F_k(w) = ½(w − u_k)ᵀH_k(w − u_k), H_k = R_k diag(h_k) R_kᵀ, at the point w,
    in exact rationals."""
    from fractions import Fraction

    n, d = len(h), len(h[0])
    H = [
        [[sum((R[k][i][m] * h[k][m] * R[k][j][m] for m in range(d)), Fraction(0))
          for j in range(d)] for i in range(d)]
        for k in range(n)
    ]  # fmt: skip

    def solve(A, b):
        M = [[*row, bi] for row, bi in zip(A, b, strict=True)]
        for c in range(d):
            piv = next(r for r in range(c, d) if M[r][c] != 0)
            M[c], M[piv] = M[piv], M[c]
            for r in range(d):
                if r != c and M[r][c] != 0:
                    f = M[r][c] / M[c][c]
                    M[r] = [x - f * y for x, y in zip(M[r], M[c], strict=True)]
        return [M[i][d] / M[i][i] for i in range(d)]

    def minimiser(weights):
        A = [[sum((wk * H[k][i][j] for k, wk in enumerate(weights)), Fraction(0))
              for j in range(d)] for i in range(d)]  # fmt: skip
        b = [sum((wk * H[k][i][j] * u[k][j] for k, wk in enumerate(weights) for j in range(d)),
                 Fraction(0)) for i in range(d)]  # fmt: skip
        return solve(A, b)

    def loss(weights, x):
        total = Fraction(0)
        for k, wk in enumerate(weights):
            e = [x[i] - u[k][i] for i in range(d)]
            total += wk * sum(e[i] * H[k][i][j] * e[j] for i in range(d) for j in range(d)) / 2
        return total

    pq = sum((a * b for a, b in zip(pi, q, strict=True)), Fraction(0))
    p = [a * b / pq for a, b in zip(pi, q, strict=True)]
    w_star, w_B = minimiser(alpha), minimiser(p)
    kappa = max(max(x) for x in h) / min(min(x) for x in h)
    eps = loss(alpha, w) - loss(alpha, w_star)
    eps_opt = loss(p, w) - loss(p, w_B)
    eps_bias = loss(alpha, w_B) - loss(alpha, w_star)
    if form == "eq10-b":
        rhs = 2 * kappa**2 * eps_opt + eps_bias
    else:
        chi2 = sum(((a - b) ** 2 / b for a, b in zip(alpha, p, strict=True)), Fraction(0))
        rhs = 2 * kappa**2 * (eps_opt + chi2)
    return {"lhs": eps, "rhs": rhs, "holds": eps <= rhs}


def verify_lemma3(
    form,
    h,
    R,
    u,
    pi,
    q,
    active,
    E,
    eta,
    w0,
    lo,
    hi,
):
    """Lemma 3, eq. (53), for one round without batch noise (σ_k = 0, so g_t = ḡ_t and the
    Lemma 6 and 7 terms vanish): E clients' local gradient steps of size η from w_{t,0} on
    F_k(w) = ½(w − u_k)ᵀH_k(w − u_k), ḡ_t = Σ_{k∈A_t}q_kΣ_{j<E}∇F_k(w_{t,j}^k), the server step
    w_{t+1,0} = Proj_W(w_{t,0} − ηḡ_t) onto the box W = [lo, hi]. ``form`` "printed": the third
    term is η‖ḡ_t‖² (as printed); "proved": η²‖ḡ_t‖² (eq. 57). Exact rationals."""
    from fractions import Fraction

    n, d = len(h), len(h[0])
    H = [
        [[sum((R[k][i][m] * h[k][m] * R[k][j][m] for m in range(d)), Fraction(0))
          for j in range(d)] for i in range(d)]
        for k in range(n)
    ]  # fmt: skip

    def grad(k, x):
        return [sum((H[k][i][j] * (x[j] - u[k][j]) for j in range(d)), Fraction(0))
                for i in range(d)]  # fmt: skip

    pq = sum((a * b for a, b in zip(pi, q, strict=True)), Fraction(0))
    p = [a * b / pq for a, b in zip(pi, q, strict=True)]
    A = [[sum((p[k] * H[k][i][j] for k in range(n)), Fraction(0)) for j in range(d)]
         for i in range(d)]  # fmt: skip
    b = [sum((p[k] * H[k][i][j] * u[k][j] for k in range(n) for j in range(d)), Fraction(0))
         for i in range(d)]  # fmt: skip
    M = [[*row, bi] for row, bi in zip(A, b, strict=True)]
    for c in range(d):
        piv = next(r for r in range(c, d) if M[r][c] != 0)
        M[c], M[piv] = M[piv], M[c]
        for r in range(d):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c], strict=True)]
    w_B = [M[i][d] / M[i][i] for i in range(d)]
    g_bar = [Fraction(0)] * d
    for k in active:
        x = list(w0)
        for _ in range(E):
            g = grad(k, x)
            g_bar = [a + q[k] * b for a, b in zip(g_bar, g, strict=True)]
            x = [a - eta * b for a, b in zip(x, g, strict=True)]
    step = [a - eta * b for a, b in zip(w0, g_bar, strict=True)]
    w1 = [min(max(x, a), b) for x, a, b in zip(step, lo, hi, strict=True)]
    e0 = [a - b for a, b in zip(w0, w_B, strict=True)]
    e1 = [a - b for a, b in zip(w1, w_B, strict=True)]
    lhs = sum((x * x for x in e1), Fraction(0))
    sq = sum((x * x for x in g_bar), Fraction(0))
    cross = sum((x * y for x, y in zip(e0, g_bar, strict=True)), Fraction(0))
    factor = eta if form == "printed" else eta * eta
    rhs = sum((x * x for x in e0), Fraction(0)) - 2 * eta * cross + factor * sq
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs}


def verify_lemma12(form, h, R, u, v, w):
    """The convexity sandwich in the proof of Lemma 12 for one client, F(x) = ½(x − u)ᵀH(x − u)
    with H = R diag(h) Rᵀ: ``form`` "printed" (eq. 126): ⟨∇F(v), v − w⟩ ≤ F(v) − F(w) ≤
    ⟨∇F(w), v − w⟩; "corrected": ⟨∇F(w), v − w⟩ ≤ F(v) − F(w) ≤ ⟨∇F(v), v − w⟩. Exact."""
    from fractions import Fraction

    d = len(h)
    H = [[sum((R[i][m] * h[m] * R[j][m] for m in range(d)), Fraction(0)) for j in range(d)]
         for i in range(d)]  # fmt: skip

    def loss(x):
        e = [x[i] - u[i] for i in range(d)]
        return sum((e[i] * H[i][j] * e[j] for i in range(d) for j in range(d)), Fraction(0)) / 2

    def slope(x):  # ⟨∇F(x), v − w⟩
        g = [sum((H[i][j] * (x[j] - u[j]) for j in range(d)), Fraction(0)) for i in range(d)]
        return sum((g[i] * (v[i] - w[i]) for i in range(d)), Fraction(0))

    middle = loss(v) - loss(w)
    low, high = (slope(v), slope(w)) if form == "printed" else (slope(w), slope(v))
    return {"lhs": middle, "rhs": (low, high), "holds": low <= middle <= high}


def verify_step171(pi, lam2, h, u, q, w, t, state, C_P, H):
    """Steps (166)–(171) of Lemma 18 for one round t ≥ T_P = 0 (independent two-state clients,
    eq. 236) from the state A_{t−J_t} = ``state`` (bit k−1 from the top: client k active) and
    the point w_{t−J_t,0} = w: the conditional expectation Σ_a [P^{J_t}]_{state,a} Σ_{k∈a}
    q_k(F_k(w) − F_k(w_B*)) against (Σπ_kq_k)(F_B(w) − F_B*) − MQ/(2t), for the clients
    F_k(w) = ½Σ_i h_ki(w_i − u_ki)² + c_k (c_k cancels). J_t is eq. (132) from C_P, H and
    λ(P) = (1 + max_k|λ₂,k|)/2 (ln in 50-digit mpmath); P^{J_t} and the rest exact."""
    from fractions import Fraction

    import mpmath

    n, d = len(pi), len(w)
    M = 2**n
    pq = sum((a * b for a, b in zip(pi, q, strict=True)), Fraction(0))
    p = [a * b / pq for a, b in zip(pi, q, strict=True)]
    w_B = [
        sum((p[k] * h[k][i] * u[k][i] for k in range(n)), Fraction(0))
        / sum((p[k] * h[k][i] for k in range(n)), Fraction(0))
        for i in range(d)
    ]

    def loss(k, x):
        return sum((h[k][i] * (x[i] - u[k][i]) ** 2 for i in range(d)), Fraction(0)) / 2

    g = [loss(k, w) - loss(k, w_B) for k in range(n)]
    members = [[k for k in range(n) if (a >> (n - 1 - k)) & 1] for a in range(M)]
    f = [sum((q[k] * g[k] for k in members[a]), Fraction(0)) for a in range(M)]

    def two_state(x, lam):  # eq. (236), states (inactive, active)
        return [[1 - (1 - lam) * x, (1 - lam) * x], [(1 - lam) * (1 - x), 1 - (1 - lam) * (1 - x)]]

    P = [[Fraction(1)]]
    for x, lam in zip(pi, lam2, strict=True):
        B = two_state(x, lam)
        P = [[a * b for a in ra for b in rb] for ra in P for rb in B]
    with mpmath.workdps(50):
        slem = max(abs(x) for x in lam2)
        ell = -mpmath.log((1 + mpmath.mpf(slem.numerator) / slem.denominator) / 2)
        K = 2 * mpmath.mpf(C_P.numerator) / C_P.denominator * H.numerator / H.denominator
        J = int(min(max(int(mpmath.ceil(mpmath.log(K * t) / ell)), 0), t))
    row = [Fraction(int(a == state)) for a in range(M)]
    for _ in range(J):
        row = [sum((row[a] * P[a][b] for a in range(M)), Fraction(0)) for b in range(M)]
    lhs = sum((x * y for x, y in zip(row, f, strict=True)), Fraction(0))
    Q = sum(q, Fraction(0))
    rhs = sum((a * b * c for a, b, c in zip(pi, q, g, strict=True)), Fraction(0)) - Fraction(
        M
    ) * Q / (2 * t)
    return {"lhs": lhs, "rhs": rhs, "holds": lhs >= rhs, "J_t": J}


def verify_eq11_on_w(alpha, p, u, h, lo, hi):
    """Eq. (11), ε_bias ≤ κ²·χ²(α‖p)·Γ, with the INFOCOM reading of the minimisers: F_k* is the
    minimum of F_k(w) = (h_k/2)(w − u_k)² on W = [lo, hi] (d = 1), Γ = max_k{F_k(w*) − F_k*},
    w* and w_B* the minimisers of F = Σα_kF_k and F_B = Σp_kF_k (inside W). Exact."""
    from fractions import Fraction

    def argmin(weights):
        num = sum((a * b * c for a, b, c in zip(weights, h, u, strict=True)), Fraction(0))
        return num / sum((a * b for a, b in zip(weights, h, strict=True)), Fraction(0))

    def loss(k, w):
        return h[k] * (w - u[k]) ** 2 / 2

    def total(weights, w):
        return sum((a * loss(k, w) for k, a in enumerate(weights)), Fraction(0))

    w_star, w_B = argmin(alpha), argmin(p)
    f_star_on_W = [loss(k, min(max(u[k], lo), hi)) for k in range(len(u))]
    gamma = max(loss(k, w_star) - f_star_on_W[k] for k in range(len(u)))
    chi2 = sum(((a - b) ** 2 / b for a, b in zip(alpha, p, strict=True)), Fraction(0))
    kappa = max(h) / min(h)
    lhs = total(alpha, w_B) - total(alpha, w_star)
    rhs = kappa**2 * chi2 * gamma
    return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs}
