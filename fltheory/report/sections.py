"""The report's text: six sections built from the numbers, rendered alike to HTML and Markdown.

A :class:`Section` holds a title, a plain-words paragraph for a reader who has not read the
papers, the paper reference for one who has, key findings, tables and figure names; the
renderers in :mod:`fltheory.report.render` only lay them out.
"""

import math
from dataclasses import dataclass, field
from typing import Any

from fltheory.report.fmt import human, percent, power_of_ten

#: Section titles, in order (the browser test looks for each).
TITLES = {
    "model": "1. The availability model",
    "bounds": "2. The convergence bounds (Theorems 1–3)",
    "weights": "3. The optimal aggregation weights",
    "limit": "4. Where FedAvg-type aggregation converges",
    "simulation": "5. Simulation with the theory overlaid",
    "claims": "6. The papers' claims, checked on this setting",
}

#: Short section names for the claims table.
SHORT = {"model": "1. model", "bounds": "2. bounds", "weights": "3. weights", "limit": "4. limits"}

CAFED = "CA-Fed (Rodio et al., IEEE/ACM ToN)"
FEDPBC = "FedPBC (Wang & Ji)"


@dataclass
class Table:
    """A caption, column headers, rows of strings, and footnotes under the table."""

    caption: str
    headers: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


@dataclass
class Section:
    """One section of the report (see the module docstring)."""

    key: str
    title: str
    plain: str
    reference: str
    findings: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)


def _yes(flag: bool | None) -> str:
    return "—" if flag is None else ("yes" if flag else "no")


def _verdict(vacuous: bool | None) -> str:
    return "still vacuous" if vacuous else "informative"


def _range(mean: float | None, low: float | None, high: float | None) -> str:
    """``mean`` alone when the group is uniform, else with its range; "—" when undefined."""
    if mean is None:
        return "—"
    if low is None or high is None or human(low) == human(high):
        return human(mean)
    return f"{human(mean)} (range {human(low)} … {human(high)})"


def _json_only(warning: str) -> bool:
    """A warning about what a JSON object omits (a list too long to print), which says nothing
    to a reader of the report.

    >>> _json_only("stationary distribution not listed (M > 4096)")
    True
    """
    return "not listed" in warning or "omitted" in warning


def model_section(n: dict[str, Any]) -> Section:
    m = n["model"]
    rows = [
        [
            g["name"],
            str(g["clients"]),
            _range(g["pi"], g.get("pi_min"), g.get("pi_max")),
            _range(g["lambda2_mean"], g["lambda2_min"], g["lambda2_max"]),
            human(obs),
        ]
        for g, obs in zip(m["groups"], m["raster"]["observed_availability_by_group"], strict=True)
    ]
    consts = [
        ["number of clients N", human(m["n_clients"]), "clients"],
        ["number of joint states M = 2^N", f"2^{human(m['log2_n_states'])}", "states"],
        ["λ̄₂: second largest eigenvalue modulus", human(m["slem"]), "per round"],
        ["λ(P) = (1 + λ̄₂)/2, the rate of eq. 5", human(m["lambda"]), "per round"],
        ["C_P, the constant of eq. 5", power_of_ten(m["log10_C_P"]), "—"],
        ["T_P, from when eq. 5 holds", human(m["T_P"]), "rounds"],
        ["relaxation time 1/(1 − λ̄₂)", human(m["relaxation_time"]), "rounds"],
        [
            f"mixing time t_mix({human(m['mixing_time']['eps'])}), lower bound",
            human(m["mixing_time"]["lower"]),
            "rounds",
        ],
        [
            f"mixing time t_mix({human(m['mixing_time']['eps'])}), upper bound",
            human(m["mixing_time"]["upper"]),
            "rounds",
        ],
        ["hitting time max_k 1/((1 − λ₂,k)π_k)", human(m["hitting_time"]), "rounds"],
    ]
    where = (
        "the population of Section V-A(a)"
        if m.get("preset", True)
        else f"your [availability] table (kind '{m.get('kind')}')"
    )
    return Section(
        key="model",
        title=TITLES["model"],
        plain=(
            "Each client is sometimes reachable and sometimes not. A two-state client switches "
            "between 'available' and 'unavailable' like a coin that remembers its last toss: "
            "π is the fraction of rounds a client is available, and λ₂ says how sticky it is "
            "(0: independent from round to round; close to 1: long runs of the same state). "
            "The whole population is one Markov chain over its joint states; how fast it "
            "forgets its starting state is summarised by λ(P) and the constant C_P: after t "
            "rounds the distance to the long-run behaviour is at most C_P·λ(P)ᵗ."
        ),
        reference=(
            f"The setting: {where}. {CAFED}: eq. 5 and Lemma 16 (eqs. 156, 157) for C_P "
            "and T_P; eq. 229 for λ(P); eq. 236 for the two-state clients; App. F1 for the "
            "mixing-time bounds; Section V-B(d) for the hitting time."
        ),
        findings=[
            f"C_P = {power_of_ten(m['log10_C_P'])} (eq. 156: √(M − 1) times the norms of the "
            f"spectral projectors, M = 2^{human(m['log2_n_states'])} joint states), so the "
            "guarantee C_P·λ(P)ᵗ of eq. 5 says nothing (stays above 1) for the first "
            f"{human(m['informative_after'])} rounds.",
            f"λ(P) = {human(m['lambda'])}, so the chain forgets its start at rate "
            f"{human(m['lambda'])} per round (relaxation time {human(m['relaxation_time'])} "
            "rounds).",
            f"On average {human(m['raster']['mean_active'])} clients are available per round "
            f"in the sampled {m['raster']['rounds']} rounds.",
            *[f"Caveat: {w}." for w in m["warnings"] if not _json_only(w)],
        ],
        tables=[
            Table(
                "Client groups: stationary availability π and correlation λ₂",
                ["group", "clients", "π", "λ₂", "observed availability (raster)"],
                rows,
            ),
            Table("Constants of the joint chain", ["quantity", "value", "unit"], consts),
        ],
        figures=["model"],
    )


def _bound_value(e: dict[str, Any]) -> str:
    """A bound's value from its log₁₀, or "0" when it is rounding noise (see :func:`zero_or`)."""
    value, trivial = e.get("value"), e.get("trivial")
    if value is not None and math.isfinite(value) and trivial:
        if 0.0 < value < 1e-12 * trivial:
            return zero_or(value, trivial)
    return power_of_ten(e["log10_value"])


BOUND_TITLES = {
    "theorem1": "Theorem 1: bias ε_bias ≤ κ²χ²(α‖p)Γ",
    "theorem2": "Theorem 2: optimisation error ε_opt",
    "theorem3": "Theorem 3: bias ε_bias ≤ 4κ²d_TV²(α, p)Γ′",
    "total": "Theorem 1: total error F(w̄_T) − F* ≤ 2κ²(ε_opt + ε_bias)",
}


def bounds_section(n: dict[str, Any]) -> Section:
    b = n["bounds"]
    rows = []
    for key, title in BOUND_TITLES.items():
        e = b[key]
        dom = e["dominant_term"]
        rows.append(
            [
                title,
                e["equation"],
                _bound_value(e),
                zero_or(e["exact"], e["trivial"]),
                _yes(e["holds"]),
                _yes(e["vacuous"]),
                human(e["trivial"]),
                e["term_names"][dom],
            ]
        )
    zero = [BOUND_TITLES[k].split(":")[0] for k in BOUND_TITLES if b[k]["log10_value"] == -math.inf]
    terms = []
    for key in ("theorem2", "total"):
        for k, t in b[key]["terms"].items():
            terms.append(
                [
                    BOUND_TITLES[key].split(":")[0],
                    b[key]["term_names"][k],
                    power_of_ten(t["log10"]),
                    percent(t["share"]),
                ]
            )
    w = b["what_would_change"]
    alt = w["total_if_C_P_were_1"]
    nm = w["total_without_M_factor"]
    t2 = b["theorem2"]
    findings = [
        f"The total bound is {power_of_ten(b['total']['log10_value'])}, while any point of W "
        f"has a loss gap of at most {human(b['total']['trivial'])}: the bound is "
        f"{'vacuous' if b['total']['vacuous'] else 'informative'}"
        + (
            f", about {power_of_ten(w['log10_factor_over_trivial'], 2)} times too large."
            if w["log10_factor_over_trivial"] is not None and b["total"]["vacuous"]
            else "."
        ),
        f"The dominant term of eq. 13 is {t2['term_names'][t2['dominant_term']]}"
        f" ({percent(t2['terms'][t2['dominant_term']]['share'])} of it).",
        f"What would have to change: eq. 13's Markov term υ carries the number of joint "
        f"states M = 2^{human(w['log2_M'])}; without it (M = 1) the total would be "
        f"{power_of_ten(nm['log10_value'])} ({_verdict(nm['vacuous'])})"
        + (
            f"; with everything else fixed, the M factor allows at most "
            f"N = {w['largest_N_for_M_factor']} clients."
            if w["largest_N_for_M_factor"] is not None
            else "."
        ),
        f"C_P = {power_of_ten(w['log10_C_P'])} matters less: with C_P = 1 the total would be "
        f"{power_of_ten(alt['log10_value'])} ({_verdict(alt['vacuous'])}).",
        (
            "A longer horizon does not rescue it: up to T = 10⁸ rounds the total stays vacuous."
            if w["first_non_vacuous_rounds"] is None
            else f"A horizon of T = {human(w['first_non_vacuous_rounds'])} rounds would make "
            "the total informative."
        ),
        f"The bias bounds hold against the exact bias: Theorem 1 {_yes(b['theorem1']['holds'])}, "
        f"Theorem 3 {_yes(b['theorem3']['holds'])} "
        f"(exact ε_bias = {zero_or(b['theorem1']['exact'], b['total']['trivial'])}).",
    ]
    s = b["setup"]
    return Section(
        key="bounds",
        title=TITLES["bounds"],
        plain=(
            "The papers promise that the trained model is close to the best one, up to two "
            "errors: the optimisation error (training was not run long enough) and the bias "
            "(some clients are heard more often than others, so the model drifts toward them). "
            "Each promise is a formula; here it is evaluated on this population with quadratic "
            f"clients (N = {s['n_clients']}, T = {s['rounds']} rounds, E = {s['local_steps']} "
            f"local steps, {s['steps']}). A bound is vacuous when it is larger than what "
            "any model could lose anyway."
        ),
        reference=(
            f"{CAFED}: Theorem 1 (eqs. 10, 11), Theorem 2 (eq. 13 with υ, ψ, φ of App. B), "
            "Theorem 3 (eq. 15); the trivial bound is max F − F* over W."
        ),
        findings=findings,
        tables=[
            Table(
                "The bounds",
                [
                    "bound",
                    "equation",
                    "value",
                    "exact",
                    "holds",
                    "vacuous",
                    "trivial bound",
                    "dominant term",
                ],
                rows,
                [
                    "vacuous: the bound exceeds the trivial bound max_W F − F*, what any point "
                    "of W loses anyway."
                ]
                + (
                    [
                        f"{', '.join(zero)}: the bound is exactly 0 (p = α: your rule is "
                        "unbiased), so its bar in the figure is empty (log scale)."
                    ]
                    if zero
                    else []
                ),
            ),
            Table("Terms and their shares", ["bound", "term", "value", "share"], terms),
        ],
        figures=["bounds"],
    )


def weights_section(n: dict[str, Any]) -> Section:
    w = n["weights"]
    names = w["group_names"]
    rows = [[f"your q ({w.get('rule', 'config')})", *[human(x) for x in w["config_q_by_group"]]]]
    rows[0].append("—")
    unsolved = []
    for row in w["problem14"]:
        if row["q_by_group"] is None:
            unsolved.append(human(row["kappa2"]))
            label = f"problem 14, κ̄² = {human(row['kappa2'])} *"
            rows.append([label, *["—"] * len(names), "—"])
            continue
        rows.append(
            [
                f"problem 14, κ̄² = {human(row['kappa2'])}",
                *[human(x) for x in row["q_by_group"]],
                str(row["excluded"]),
            ]
        )
    p212 = w["problem212"]
    rows.append(
        ["problem 212 (ε_opt only)", *[human(x) for x in p212["q_by_group"]], str(p212["excluded"])]
    )
    g = w["guidelines"]
    notes = []
    if unsolved:
        notes.append(
            f"* not solved at κ̄² = {', '.join(unsolved)}: the solver returned no point that "
            "passes the optimality (KKT) check, so no weights are shown (the solver's message "
            "is in report.json, weights.problem14[].reason)."
        )
    return Section(
        key="weights",
        title=TITLES["weights"],
        plain=(
            "The server decides how much each client's update counts (the weights q). Counting "
            "rarely-available clients more removes the bias but slows training; leaving them "
            "out speeds training up but biases the model. Problem 14 balances the two with a "
            "knob κ̄² (large κ̄²: care about bias); the table shows the best weights, summed "
            "over each client group, for several settings of the knob."
        ),
        reference=(
            f"{CAFED}: problem (14) (Section III-C), problem (212) and its KKT solution "
            "(App. E, eqs. 224–227), Guidelines A–C (Sections III-D, III-E)."
        ),
        findings=[
            "Guideline A (exclude the least available clients): problem 212 excludes "
            f"{p212['excluded']} clients, from the groups "
            f"{', '.join(g['A_excluded_by_problem212']) or 'none'}.",
            f"Guideline B (exclude the most correlated clients): λ(P) is {human(g['B_lambda_all'])}"
            f" with everyone, {human(g['B_lambda_without_correlated'])} without the clients "
            "more correlated than average (λ₂ above the mean), "
            f"{human(g['B_lambda_more_available_only'])} with the more available only (π above "
            "the mean).",
            "Guideline C (weights α/π on the kept clients): by group "
            + ", ".join(human(x) for x in g["C_unbiased_q_by_group"])
            + ".",
        ],
        tables=[
            Table(
                "Optimal weights q*, summed by client group",
                ["solution", *names, "clients excluded"],
                rows,
                notes,
            )
        ],
        figures=["weights"],
    )


def _vec(v: Any) -> str:
    return "(" + ", ".join(human(float(x)) for x in v) + ")"


def limit_section(n: dict[str, Any]) -> Section:
    lim = n["limit"]
    rule = lim.get("rule", "fixed q = α (eq. 3)")
    mean, fixed, markov = (
        lim["bernoulli_fedavg_mean"],
        lim["bernoulli_fixed_q"],
        lim["markov_fixed_q"],
    )
    rows = [
        [
            "FedAvg, mean over the active clients",
            "independent links p = π (Prop. 1)",
            str(mean["n_clients"]),
            _vec(mean["limit"]),
            _vec(mean["optimum"]),
            human(mean["distance"]),
        ],
        [
            f"{rule} (your rule)",
            "independent links p = π (Prop. 1 ext.)",
            str(fixed["n_clients"]),
            _vec(fixed["limit"]),
            _vec(fixed["optimum"]),
            human(fixed["distance"]),
        ],
        [
            f"{rule} (your rule)",
            "your Markov chain, exact",
            str(markov["n_clients"]),
            _vec(markov["limit"]),
            _vec(markov["optimum"]),
            human(markov["distance"]),
        ],
    ]
    whole = n["model"]["n_clients"]
    how = (
        "the preset population drawn anew with that many clients"
        if n["model"].get("preset", True)
        else "the first clients of every group, in proportion"
    )
    subset = (
        f"computed on all {markov['n_clients']} clients"
        if markov["n_clients"] == whole
        else f"computed for {markov['n_clients']} of the {whole} clients ({how})"
    )
    return Section(
        key="limit",
        title=TITLES["limit"],
        plain=(
            "Even with a learning rate that stays constant, the average model settles at one "
            "point. If some clients are available more often, that point is pulled toward "
            "their data and away from the target everyone should agree on. This section "
            "computes that point exactly, for clients whose losses are ½‖w − u_k‖², and how "
            f"far it is from the target — for FedAvg and for your rule, {rule}."
        ),
        reference=(
            f"{FEDPBC}: Proposition 1 (lim E[x_t] under independent links); its Markov "
            f"extension is the stationary mean of the joint (model, availability) chain; {CAFED} "
            "eq. 4 (the biased objective F_B)."
        ),
        findings=[
            f"FedAvg's limit is {human(mean['distance'])} away from the target optimum, your "
            f"rule's {human(fixed['distance'])} (distance in parameter units).",
            f"With correlated availability ({markov['n_clients']} clients, exact), your rule's "
            f"limit moves by {human(markov['correlation_shift'])} compared with independent "
            "links of the same π — correlation itself shifts where training ends up.",
            f"The exact Markov limit needs the joint chain's states, so it is {subset}.",
        ],
        tables=[
            Table(
                "Limits lim E[w_t] and their distance to the target",
                ["aggregation", "availability", "clients", "limit", "target", "distance"],
                rows,
            )
        ],
        figures=["limit"],
    )


def zero_or(x: float | None, scale: float | None) -> str:
    """``x``, or "0" with its computed value when it is rounding noise: below 10⁻¹² of
    ``scale`` (a quantity that is 0 in exact arithmetic, computed in floats).

    >>> zero_or(7.7e-33, 32.0), zero_or(0.02, 32.0), zero_or(None, 1.0)
    ('0 (computed: 7.7 × 10⁻³³, rounding)', '0.02', '—')
    """
    if x is None or scale is None or not math.isfinite(scale) or scale <= 0:
        return human(x)
    if x != 0.0 and abs(x) < 1e-12 * scale:
        return f"0 (computed: {human(x)}, rounding)"
    return human(x)


def _interval(mean: float, half: float, low_high: Any) -> str:
    """mean (95 % CI low … high), the interval of a non-negative quantity clipped at 0."""
    if low_high is None:
        return f"{human(mean)} ± {human(half)}"
    low, high = low_high
    mark = " (clipped at 0)" if mean - half < 0 else ""
    return f"{human(mean)} (95 % CI {human(low)} … {human(high)}){mark}"


def simulation_section(n: dict[str, Any]) -> Section:
    s = n["simulation"]
    bias = s["bias"]
    env = s["lemma16_envelope"]
    rule = s.get("rule", "fixed q = α (eq. 3)")
    scale = n["bounds"]["total"].get("trivial")
    rows = [
        [
            "time average of w (simulated, 95 % CI)",
            ", ".join(
                f"{human(float(m))} ± {human(float(h))}"
                for m, h in zip(s["time_average"], s["time_average_ci95"], strict=True)
            ),
            _vec(s["exact_limit"]),
        ],
        [
            "limit inside the 95 % interval",
            _yes(s["limit_inside_ci95"]),
            "",
        ],
        [
            "F(w) − F*, time average",
            _interval(
                bias["simulated_gap_time_average"],
                bias["simulated_gap_ci95"],
                bias.get("simulated_gap_interval"),
            ),
            human(bias.get("exact_stationary_gap")),
        ],
        ["F(lim E[w]) − F* (the limit's own gap)", "", human(bias.get("exact_at_limit"))],
        ["bias ε_bias = F(w_B*) − F* of Theorem 1", "", zero_or(bias["exact"], scale)],
        ["Theorem 1 bias bound (eq. 11)", "", zero_or(bias["theorem1"], scale)],
        ["Theorem 3 bias bound (eq. 15)", "", zero_or(bias["theorem3"], scale)],
    ]
    if env is not None:
        rows.append(
            [
                f"Lemma 16: E(t) ≤ C_P λᵗ from T_P ({env['n_states']} states)",
                "",
                f"{_yes(env['holds_from_T_P'])} (largest E(t)/(C_P λᵗ) = "
                f"{human(env['max_ratio'])})",
            ]
        )
    notes = [
        "The theory column of F(w) − F* is its exact stationary mean ½·E‖w − w*‖² under your "
        "chain (identity Hessians); the interval of a non-negative gap is clipped at 0."
    ]
    tables = [
        Table(
            f"Theory vs simulation, {rule}",
            ["quantity", "simulated", "theory (exact)"],
            rows,
            notes,
        )
    ]
    figures = ["simulation"]
    leaf = s.get("synthetic_leaf")
    if leaf:
        tables.append(
            Table(
                f"Synthetic LEAF, {leaf['rounds']} rounds, {leaf['seeds']} runs",
                ["algorithm", "final objective (95 % CI)", "final test accuracy", "inclusion rate"],
                [
                    [
                        name,
                        _interval(
                            a["final_objective"],
                            a["final_objective_ci95"],
                            a.get("final_objective_interval"),
                        ),
                        human(a["final_accuracy"]),
                        human(a["inclusion_rate"]),
                    ]
                    for name, a in leaf["algorithms"].items()
                ],
                ["Intervals of the objective (a loss, non-negative) are clipped at 0."],
            )
        )
        figures.append("leaf")
    whole = s.get("clients_of_setting", s["n_clients"])
    share = (
        f"all {whole} clients"
        if s["n_clients"] == whole
        else f"{s['n_clients']} of the {whole} clients (the exact limit needs 2^N states)"
    )
    return Section(
        key="simulation",
        title=TITLES["simulation"],
        plain=(
            "The same availability model drives a PyTorch simulation of federated training "
            f"with your rule ({rule}), repeated with independent random seeds. If the theory "
            "is right, the long-run average of the simulated model lands on the exact limit of "
            "section 4 (inside the confidence band), the simulated loss above the optimum "
            "matches its exact stationary value, the bias stays under the bias bounds, and the "
            "chain's distance to stationarity stays under C_P λᵗ."
        ),
        reference=(
            f"{CAFED}: scheme (2)–(3), Theorems 1 and 3, Lemma 16 (eq. 5), the Synthetic LEAF "
            f"experiment of Section V (Fig. 1a); {FEDPBC}: Proposition 1 (time average)."
        ),
        findings=[
            f"{share}, {s['rounds']} rounds, {s['seeds']} runs, the first "
            f"{s['burn_in_rounds']} rounds discarded: the time average is "
            f"{human(s['distance_time_average_to_limit'])} from the exact limit.",
        ],
        tables=tables,
        figures=figures,
    )


def _margin(x: float | None) -> str:
    if x is None:
        return "—"
    return "0" if x == 0 else human(x)


def claims_section(n: dict[str, Any]) -> Section:
    c = n["claims"]
    live = c.get("live", [])
    live_rows = []
    for r in live:
        nearby = r.get("nearby")
        search = (
            "—"
            if nearby is None
            else f"{'holds' if nearby['holds'] else 'VIOLATED'} in {nearby['evaluations']} "
            f"nearby settings (worst margin {_margin(nearby['worst_margin'])})"
        )
        live_rows.append(
            [
                r["id"],
                r.get("statement") or "",
                r["evaluated_on"],
                "holds" if r["holds"] else "violated",
                _margin(r["margin"]),
                human(r.get("tightness")),
                search,
                r.get("stored_verdict") or "—",
            ]
        )
    rows = [[SHORT[r["section"]], r["id"], r["verdict"], r["statement"]] for r in c["claims"]]
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(c.get("counts", {}).items()))
    held = sum(1 for r in live if r["holds"] and (r.get("nearby") or {}).get("holds", True))
    tables = []
    if live_rows:
        tables.append(
            Table(
                "Evaluated on this setting (live)",
                [
                    "claim",
                    "statement",
                    "evaluated on",
                    "at this setting",
                    "margin",
                    "tightness",
                    "seeded search nearby",
                    "stored verdict (papers' settings)",
                ],
                live_rows,
                [
                    "margin ≥ 0 iff the claim holds (bound − exact side, or 1 − the largest "
                    "ratio); tightness: how much of the bound the exact side uses (1: tight). "
                    "The nearby search perturbs π by ±10 %, λ₂ by ±0.05 and u by 10 % of its "
                    "spread, your weights fixed, with a fixed seed."
                ],
            )
        )
    tables.append(
        Table(
            "Stored verdicts on the papers' own settings (fltheory check; not re-run here)",
            ["section", "claim", "verdict", "statement"],
            rows,
        )
    )
    return Section(
        key="claims",
        title=TITLES["claims"],
        plain=(
            "Each statement of the papers that this report relies on was turned into an "
            "executable test. The claims whose setting contains yours are evaluated here, on "
            "your setting, with a short search of settings close to it for a counterexample. "
            "The second table keeps what `fltheory check` found on the papers' own settings "
            "('holds': no counterexample; 'refuted': one was found and verified exactly, often "
            "for the printed formula while a corrected form holds) — verdicts about those "
            "settings, not yours."
        ),
        reference=(
            f"The claims registry (fltheory/claims/papers); stored verdicts {c['note']} "
            f"({c.get('source')}, created {c.get('created')}, commit "
            f"{(c.get('git_commit') or '—')[:10]}, budget {c.get('budget')})."
        ),
        findings=[
            f"On this setting: {held} of {len(live)} claims hold, at the setting and nearby.",
            f"Stored verdicts on the papers' settings: {counts or 'none available'}.",
        ],
        tables=tables,
        figures=[],
    )


def build_sections(numbers: dict[str, Any]) -> list[Section]:
    """The six sections, in order."""
    return [
        model_section(numbers),
        bounds_section(numbers),
        weights_section(numbers),
        limit_section(numbers),
        simulation_section(numbers),
        claims_section(numbers),
    ]
