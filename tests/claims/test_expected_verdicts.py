"""Every executable claim reaches the verdict it declares (``Claim.expected``): fast, at a small
search budget, and (slow) each group at the claims' default budgets within its time allowance.

The claims fall into groups (a paper, or one of the CA-Fed ToN claim modules); a group says the
small budget of each of its claims, which fast checks are slow, and whether a refutation's
instance is re-evaluated. The budgets are the ones each claims test module used before this
test replaced their copies of it; the module-specific tests stay beside their modules.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest

from fltheory.claims import CLAIMS, falsify
from fltheory.claims.claim import Claim
from fltheory.claims.run import check, unexpected_verdicts


def _label(c: Claim) -> str:
    return c.id.split(":", 1)[1]


@dataclass(frozen=True)
class Group:
    """How the claims of one group are checked."""

    #: the search budget of the fast check of a claim
    budget: Callable[[Claim], int]
    #: whether the fast check of a claim is slow (run with ``-m slow`` only)
    slow: Callable[[Claim], bool] = lambda c: False
    #: re-evaluate the margin at a refutation's (JSON) instance
    witness: bool = False
    #: wall seconds the group's claims may take at their default budgets (None: no limit)
    allowance: float | None = None
    #: small budgets by claim label, over ``budget``
    budgets: dict[str, int] = field(default_factory=dict)

    def budget_of(self, c: Claim) -> int:
        return self.budgets.get(_label(c), self.budget(c))


def _paper_default(holds: int) -> Callable[[Claim], int]:
    """300 evaluations to find a refutation, ``holds`` to keep searching a claim that holds."""
    return lambda c: 300 if c.expected == "refuted" else holds


#: The groups by name: a paper id, or a CA-Fed ToN module of fltheory.claims.papers
#: (``cafed_chains`` with ``cafed_clients``).
GROUPS: dict[str, Group] = {
    "cafed_bounds": Group(lambda c: 300, slow=lambda c: True, allowance=120.0),
    "cafed_chains": Group(
        # a refutation is found within the claim's default budget (the descent stops there)
        lambda c: (c.budget or 300) if c.expected == "refuted" else 150,
        witness=True,
        allowance=160.0,  # (a loaded machine: twice the 80 s of an idle one)
        budgets={
            # chains take the library's exact path (~0.05–0.2 s each): small budgets
            "eq229-slem": 20,
            "lemma16-eq5": 30,
            "prop4": 60,
            "lemma16-eq158-corrected": 30,
            "footnote3-lambda-choice-b": 30,
            "appf1-mixing-upper-reversible": 60,
            "appf1-mixing-lower": 60,
            "fig4a-estimation-errors-decreasing": 2,
            "fig4a-estimation-errors-lambda-exceeds-pi": 2,
            "eq16-20-estimators-filter": 30,
        },
    ),
    "cafed_lemma1": Group(lambda c: 200),
    "cafed_lemmas": Group(lambda c: min(300, c.budget or 300), allowance=20.0),
    "cafed_lemmas_b": Group(lambda c: 120, slow=lambda c: True, allowance=60.0),
    "cafed_theorem2": Group(lambda c: 200, slow=lambda c: True),
    "cafed_weights": Group(
        lambda c: 300,
        # a refutation adds the moderate search, the failure boundary and their explanations
        # (tens of seconds): those run under slow
        slow=lambda c: c.expected == "refuted",
        # claims whose evaluations cost ≥ 5 ms: a smaller budget keeps the fast tests < 30 s
        budgets={
            "fig1-adafed-priority": 100,
            "kappa-infinity-gamma-positive": 150,
            "kappa-exclusion-monotone": 300,
        },
    ),
    "cafed-infocom": Group(_paper_default(150), witness=True, budgets={"fig1-excluded": 3}),
    "fedar": Group(_paper_default(150), witness=True, budgets={"eq4": 40, "eq5": 40, "eq7-nt": 40}),
    "fedpbc": Group(
        _paper_default(120),
        witness=True,
        budgets={
            "prop1-time-average": 60,
            "remark1-local-compute": 150,
            "mixing-w": 150,
            # a narrow region (~0.1 % of samples): the descent phase of the default budget
            # finds it deterministically (≈ 2 s); at 300 only hypothesis's phase did
            "thm1-stepsize": 3000,
        },
    ),
}


#: A paper (or CA-Fed ToN module) without a group of its own: the papers' default budgets.
DEFAULT = "default"
GROUPS[DEFAULT] = Group(_paper_default(150), witness=True)

#: The CA-Fed ToN groups by the module that defines a claim's margin (a section module, or the
#: support module its margins share): the groups are the modules the claims lived in before the
#: section layout (issue 25), so the budgets and allowances stayed those the claims were tuned with.
CAFED_GROUPS: dict[str, str] = {
    **dict.fromkeys(
        ("_bounds", "s2_model", "s3a_gamma", "s3b_theorem1", "s3c_bounds"), "cafed_bounds"
    ),
    **dict.fromkeys(
        (
            "_weights", "app_d_prop1", "app_d_prop2", "app_e1_convex", "app_e_eq211",
            "app_e2_kkt", "app_e2_duality", "app_e2_monotone", "app_e3_closed_form",
            "s3c_problem14", "s3d_guideline_a", "s3e_guideline_c", "s4c_kappa", "s5b_fig1",
        ),
        "cafed_weights",
    ),
    **dict.fromkeys(
        (
            "_clusters", "app_b2_definition1", "app_b2_lemma16", "app_b2_lemma16_eq158",
            "app_b2_lemmas_17_18", "app_f1_mixing", "app_f1_slem", "app_f2_props_3_6",
            "app_f3_two_state", "s3a_chains", "s3d_guideline_b", "s4b_estimators",
            "s5a_population", "s5b_clients",
        ),
        "cafed_chains",
    ),
    "s3a_lemma1": "cafed_lemma1",
    # Lemmas 8, 10 and 14 (Lemma 9's margin is in _lemmas_round)
    **dict.fromkeys(
        ("app_b2_lemmas_8_10", "app_b3_lemma14", "app_b3_lemma14_proof"), "cafed_lemmas"
    ),
    # Lemmas 2–7, 9, 12 and 13 (Lemma 11's margins are in _theorem2)
    **dict.fromkeys(
        ("_lemmas_round", "app_b1_lemmas_2_7", "app_b2_lemmas_11_13"), "cafed_lemmas_b"
    ),
    # Theorem 2's forms, Lemmas 11 and 15, the correlation remark
    **dict.fromkeys(("_theorem2", "s3b_theorem2"), "cafed_theorem2"),
}  # fmt: skip


def group_of(c: Claim) -> str:
    """The claim's group: its paper's, for CA-Fed ToN its module's (:data:`CAFED_GROUPS`), else
    :data:`DEFAULT` — a claim in a new module or of a new paper needs no entry here."""
    if c.paper == "cafed":
        assert c.margin is not None
        group = CAFED_GROUPS.get(c.margin.__module__.rsplit(".", 1)[1], DEFAULT)
    else:
        group = c.paper
    return group if group in GROUPS else DEFAULT


EXECUTABLE = [c for c in CLAIMS if c.executable]


def _case(c: Claim) -> object:
    group = GROUPS[group_of(c)]
    return pytest.param(c, id=c.id, marks=[pytest.mark.slow] if group.slow(c) else [])


def test_every_executable_claim_has_a_group():
    assert {group_of(c) for c in EXECUTABLE} <= set(GROUPS)
    assert set(CAFED_GROUPS.values()) | {"cafed-infocom", "fedar", "fedpbc"} <= {
        group_of(c) for c in EXECUTABLE
    }  # every named group holds claims
    assert all(c.expected in ("holds", "refuted") for c in EXECUTABLE)


@pytest.mark.parametrize("c", [_case(c) for c in EXECUTABLE])
def test_small_budget_verdict(c):
    group = GROUPS[group_of(c)]
    verdict = falsify(c, budget=group.budget_of(c), seed=0)
    assert verdict.verdict == c.expected, verdict.to_dict()
    if c.expected != "refuted":
        return
    if c.exact is not None:  # the exact margin confirms the float violation
        assert verdict.exact_margin is not None and verdict.exact_margin < 0
    if group.witness:  # the reported instance, read back from JSON, violates the claim
        inst = {k: np.asarray(v) if isinstance(v, list) else v
                for k, v in verdict.instance.items()}  # fmt: skip
        assert c.margin(inst) < -c.tolerance


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GROUPS))
def test_default_budgets_reach_the_expected_verdicts(name):
    claims = [c for c in EXECUTABLE if group_of(c) == name]
    if not claims:
        pytest.skip(f"no claim in group {name}")
    report = check(claims, seed=0)
    print("\n" + report.text_table())
    failures = unexpected_verdicts(claims, report.verdicts)
    assert not failures, failures
    allowance = GROUPS[name].allowance
    assert allowance is None or report.seconds < allowance, report.seconds
