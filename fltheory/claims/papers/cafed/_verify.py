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
        [
            [
                sum((R[k][i][m] * h[k][m] * R[k][j][m] for m in range(d)), Fraction(0))
                for j in range(d)
            ]
            for i in range(d)
        ]
        for k in range(n)
    ]

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
        A = [
            [sum((wk * H[k][i][j] for k, wk in enumerate(weights)), Fraction(0)) for j in range(d)]
            for i in range(d)
        ]
        b = [
            sum(
                (wk * H[k][i][j] * u[k][j] for k, wk in enumerate(weights) for j in range(d)),
                Fraction(0),
            )
            for i in range(d)
        ]
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
        [
            [
                sum((R[k][i][m] * h[k][m] * R[k][j][m] for m in range(d)), Fraction(0))
                for j in range(d)
            ]
            for i in range(d)
        ]
        for k in range(n)
    ]

    def grad(k, x):
        return [
            sum((H[k][i][j] * (x[j] - u[k][j]) for j in range(d)), Fraction(0)) for i in range(d)
        ]

    pq = sum((a * b for a, b in zip(pi, q, strict=True)), Fraction(0))
    p = [a * b / pq for a, b in zip(pi, q, strict=True)]
    A = [
        [sum((p[k] * H[k][i][j] for k in range(n)), Fraction(0)) for j in range(d)]
        for i in range(d)
    ]
    b = [
        sum((p[k] * H[k][i][j] * u[k][j] for k in range(n) for j in range(d)), Fraction(0))
        for i in range(d)
    ]
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
    H = [
        [sum((R[i][m] * h[m] * R[j][m] for m in range(d)), Fraction(0)) for j in range(d)]
        for i in range(d)
    ]

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


def verify_thm2(form, pi, lam2, h, u, w0, r_W, sigma, q, alpha, E, eta1, a, T, C_P):
    """Theorem 2, eq. (13), at one instance of its setting, recomputed from the paper's
    quantities: N independent two-state clients (eq. 236: stationary availability π_k, second
    eigenvalue λ₂,k; stationary start, Assumption 1), F_k(w) = ½h_k‖w − u_k‖², batch noise of
    E‖ξ‖² = σ_k² per local step, E local steps of size η_t = η₁t^(−a), aggregation weights q
    (scheme (3) with η̄ = 1), T rounds from w₀, and W the ball B(0, r_W), which every iterate
    stays in (so the projection is the identity). C_P is Lemma 16's constant (eq. 156), T_P = 0
    (P is diagonalisable).

    Left side: E[F_B(w̄_T) − F_B*] exactly (moment recursion over the 2^N availability states;
    for ``form`` "eq185": (πᵀq)Σ_{t≤T}η_tE[F_B(w_t) − F_B*]). Right side, by ``form``:
    "appendix" (HAL eq. 13): [(½qᵀΣq + υ)/πᵀq + ψ + φ/ln(1/λ(P))]/Σ_{t≤T}η_t with
    φ = 2EDGQΣ_{t≥1} ln(2C_PHt)η²_{t−J_t} (eq. 179; η₀ read as η₁); "main": the same without the
    division; "000": the main text of the ToN copy, φ = 2EDGQΣ_t ln(2C_PHt)η_t²J_t, no
    division; "eq185": (πᵀq) × the numerator (eq. 185); "lemma15": Lemma 15's (147),
    max_{t₀}(πᵀq)Σ_{t=t₀}^T η_tE[F_B(w_t) − F_B(w_{t−J_t})] against C₁/ln(1/λ(P)) =
    (πᵀq)φ/(2 ln(1/λ(P))) (w₀ read as w₁). D, G, H, Γ are Lemma 1's and eq. (9)'s
    constants on W (their least values), J_t is eq. (132). The series φ is bounded from above:
    exact head (Hurwitz ζ where long), direct terms up to m, and a certified integral tail
    (past m ≥ e²/K, J_t/t ≤ c := (ln(Km)/ln(1/λ) + 1)/m ≤ ½ and ln(Kx)x^(−2a) decreases).
    mpmath, 40 digits."""
    from fractions import Fraction

    import mpmath

    mp = mpmath.mpf

    def f(x):
        return mp(x.numerator) / x.denominator if isinstance(x, Fraction) else mp(x)

    with mpmath.workdps(40):
        n, d, M = len(pi), len(w0), 2 ** len(pi)
        pi_, h_, q_, s_ = (
            [f(x) for x in pi],
            [f(x) for x in h],
            [f(x) for x in q],
            [f(x) for x in sigma],
        )
        u_ = [[f(x) for x in row] for row in u]
        a_, eta1_, rW = f(a), f(eta1), f(r_W)

        def dot(x, y):
            return sum((xi * yi for xi, yi in zip(x, y, strict=True)), mp(0))

        # --- constants of the statement -----------------------------------------------------
        L = max(h_)
        Q = sum(q_, mp(0))
        pq = dot(pi_, q_)
        p = [x * y / pq for x, y in zip(pi_, q_, strict=True)]
        hb = dot(p, h_)
        w_B = [sum((p[k] * h_[k] * u_[k][i] for k in range(n)), mp(0)) / hb for i in range(d)]
        al = [f(x) for x in alpha]
        ha = dot(al, h_)
        w_s = [sum((al[k] * h_[k] * u_[k][i] for k in range(n)), mp(0)) / ha for i in range(d)]
        reach = [mpmath.sqrt(dot(uk, uk)) + rW for uk in u_]
        D = max(hk * rk for hk, rk in zip(h_, reach, strict=True))
        G = mpmath.sqrt(D**2 + max(s_) ** 2)

        def sq_dist(x, y):
            return dot(
                [xi - yi for xi, yi in zip(x, y, strict=True)],
                [xi - yi for xi, yi in zip(x, y, strict=True)],
            )

        gB = [h_[k] * sq_dist(w_B, u_[k]) / 2 for k in range(n)]
        H = max(max(h_[k] * reach[k] ** 2 / 2 - gB[k], gB[k]) for k in range(n))
        Gamma = max(h_[k] * sq_dist(w_s, u_[k]) / 2 for k in range(n))
        diam = 2 * rW
        slem = max(abs(f(x)) for x in lam2)
        ell = -mpmath.log((1 + slem) / 2)  # ln(1/λ(P)), λ(P) = (1 + λ̄₂)/2
        K = 2 * f(C_P) * H
        logK = mpmath.log(K)
        S2 = eta1_**2 * mpmath.zeta(2 * a_)  # Σ_t η_t²
        quad = (
            sum((2 * (E + 1) * pi_[k] * s_[k] ** 2 * S2 * q_[k] ** 2 for k in range(n)), mp(0)) / 2
        )
        upsilon = 2 * diam**2 / E + M * Q / 4 * (S2 + mpmath.pi**2 / 6)
        psi = (4 * L * (1 + E * Q) * Gamma + 2 * E**2 * G**2) * S2  # + H·Σ_{t<T_P}η_t = 0

        def eta(t):
            return eta1_ * mp(max(t, 1)) ** -a_  # η₀ read as η₁

        def J(t):
            return int(min(max(int(mpmath.ceil((logK + mpmath.log(t)) / ell)), 0), t))

        # --- the series of φ, bounded from above ----------------------------------------------
        kind = "000" if form == "000" else "phi"
        pw, b = 2 * a_, 2 * a_ - 1
        t_neg = 0
        if logK < 0:
            t_neg = int(mpmath.floor(mpmath.exp(-logK)))
            while t_neg > 1 and logK + mpmath.log(t_neg) > 0:
                t_neg -= 1
        head = mp(0)
        if kind == "phi" and t_neg:  # J_t = 0 where ln(2C_PHt) ≤ 0: Σ ln(Kt)η_t²
            if t_neg < 10**5:
                head = sum((logK + mpmath.log(t)) * eta(t) ** 2 for t in range(1, t_neg + 1))
            else:
                zs = mpmath.zeta(pw) - mpmath.zeta(pw, t_neg + 1)
                dz = mpmath.zeta(pw, 1, 1) - mpmath.zeta(pw, t_neg + 1, 1)
                head = eta1_**2 * (logK * zs - dz)
        capped = 0
        beta = 1 - K / (mpmath.e * ell) - K
        if K < mp(2) ** -16 and beta >= K:  # t > 1/K: J_t ≤ Kt/(eℓ) + Kt, so t − J_t ≥ βt
            one = K**b / b**2 + K**pw / (pw * mpmath.e)
            if kind == "phi":
                series = head + eta1_**2 * beta**-pw * one
            else:
                two = 2 * K**b / b**3 + (2 / pw) ** 2 * mpmath.exp(-2) * K**pw
                series = head + eta1_**2 * (two / ell + one)
        else:
            m = max(
                t_neg + 1, 2**12, int(mpmath.ceil(mpmath.exp(2 - logK))), int(mpmath.ceil(4 / ell))
            )
            while m / 2 < (logK + mpmath.log(m)) / ell + 1:
                m *= 2
            if m - t_neg > 2**20:
                raise ValueError("the series of φ needs more than 2^20 direct terms here")
            total = head
            for t in range(t_neg + 1, m + 1):
                j = J(t)
                capped += j == t
                lt = logK + mpmath.log(t)
                total += lt * eta(t - j) ** 2 if kind == "phi" else lt * eta(t) ** 2 * j
            Lm = logK + mpmath.log(m)
            if kind == "phi":  # t > m: J_t ≤ c·t (c ≤ ½), so η_{t−J_t} ≤ η₁((1 − c)t)^(−a)
                c = (Lm / ell + 1) / m
                tail = (1 - c) ** -pw * eta1_**2 * mp(m) ** -b * (Lm / b + 1 / b**2)
            else:
                sq = Lm**2 / b + 2 * Lm / b**2 + 2 / b**3
                tail = eta1_**2 * mp(m) ** -b * (sq / ell + Lm / b + 1 / b**2)
            series = total + tail
        phi = 2 * E * D * G * Q * series
        den = sum((eta(t) for t in range(1, T + 1)), mp(0))
        numerator = (quad + upsilon) / pq + psi + phi / ell

        # --- the left side: exact moments over the availability states -------------------------
        members = [[k for k in range(n) if (s >> (n - 1 - k)) & 1] for s in range(M)]
        P, rho = [[mp(1)]], [mp(1)]
        for x, lam in zip(pi_, [f(y) for y in lam2], strict=True):
            B = [[1 - (1 - lam) * x, (1 - lam) * x], [(1 - lam) * (1 - x), 1 - (1 - lam) * (1 - x)]]
            P = [[c * e for c in ra for e in rb] for ra in P for rb in B]
            rho = [c * e for c in rho for e in (1 - x, x)]
        w0_ = [f(x) for x in w0]
        mw = [[r * x for x in w0_] for r in rho]  # E[w_t 1{A_t = s}]
        ms = [[mp(0)] * d for _ in range(M)]  # E[S_{t−1} 1{A_t = s}], S_t = Σ_{r≤t} η_r w_r
        gww = [r * dot(w0_, w0_) for r in rho]  # E[‖w_t‖² 1{A_t = s}]
        gws, gss = [mp(0)] * M, [mp(0)] * M  # E[w_t·S_{t−1} 1], E[‖S_{t−1}‖² 1]
        fb_sum, fbs = mp(0), []
        for t in range(1, T + 1):
            et = eta(t)
            fb = (
                hb
                * (sum(gww) - 2 * dot([sum(c) for c in zip(*mw, strict=True)], w_B) + dot(w_B, w_B))
                / 2
            )
            fb_sum += et * fb
            fbs.append(fb)
            bk = [1 - (1 - et * hk) ** E for hk in h_]
            nk = [et**2 * sum(((1 - et * hk) ** (2 * j) for j in range(E)), mp(0)) for hk in h_]
            new = []
            for s in range(M):
                C = 1 - sum((q_[k] * bk[k] for k in members[s]), mp(0))
                g = [sum((q_[k] * bk[k] * u_[k][i] for k in members[s]), mp(0)) for i in range(d)]
                N_s = sum((q_[k] ** 2 * s_[k] ** 2 * nk[k] for k in members[s]), mp(0))
                new.append(
                    (
                        [C * x + rho[s] * y for x, y in zip(mw[s], g, strict=True)],
                        [x + et * y for x, y in zip(ms[s], mw[s], strict=True)],
                        C**2 * gww[s] + 2 * C * dot(mw[s], g) + rho[s] * (dot(g, g) + N_s),
                        C * gws[s] + C * et * gww[s] + dot(g, ms[s]) + et * dot(g, mw[s]),
                        gss[s] + 2 * et * gws[s] + et**2 * gww[s],
                    )
                )
            mw = [
                [sum((P[s][r] * new[s][0][i] for s in range(M)), mp(0)) for i in range(d)]
                for r in range(M)
            ]
            ms = [
                [sum((P[s][r] * new[s][1][i] for s in range(M)), mp(0)) for i in range(d)]
                for r in range(M)
            ]
            gww, gws, gss = (
                [sum((P[s][r] * new[s][c] for s in range(M)), mp(0)) for r in range(M)]
                for c in (2, 3, 4)
            )
        ES = [sum(c) for c in zip(*ms, strict=True)]
        err = (sum(gss) - 2 * den * dot(ES, w_B) + den**2 * dot(w_B, w_B)) / den**2
        if form == "eq185":
            lhs, rhs = pq * fb_sum, pq * numerator
        elif form == "lemma15":  # max over t₀ of the suffix sums; w₀ read as w₁
            terms = [eta(t) * (fbs[t - 1] - fbs[max(t - J(t), 1) - 1]) for t in range(1, T + 1)]
            lhs, suffix = terms[-1], mp(0)
            for value in reversed(terms):
                suffix += value
                lhs = max(lhs, suffix)
            lhs, rhs = pq * lhs, pq * phi / (2 * ell)
        else:
            lhs = hb * err / 2
            rhs = numerator / den if form == "appendix" else numerator
        parts = {
            "L": L,
            "Q": Q,
            "M": M,
            "πᵀq": pq,
            "w_B*": w_B,
            "D": D,
            "G": G,
            "H": H,
            "Γ": Gamma,
            "diam(W)": diam,
            "λ(P)": (1 + slem) / 2,
            "ln(1/λ(P))": ell,
            "2C_PH": K,
            "Σ_t η_t²": S2,
            "½qᵀΣq": quad,
            "υ": upsilon,
            "ψ": psi,
            "φ": phi,
            "Σ_{t≤T} η_t": den,
            "capped J_t": capped,
        }
        return {"lhs": lhs, "rhs": rhs, "holds": lhs <= rhs, "parts": parts}
