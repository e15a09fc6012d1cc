"""Verdicts that do not depend on the seed (slow): every executable claim, searched at its
default budget under seeds 0–4, reaches one verdict — its expected one — unless the claim
declares ``seed_dependent`` (what flips and from which budget it is stable); no search ends in
``error``. ``python paper_checks/check_stability.py`` writes the same as data."""

import pytest

from fltheory.claims import CLAIMS, falsify

SEEDS = (0, 1, 2, 3, 4)
EXECUTABLE = [c for c in CLAIMS if c.executable]


@pytest.mark.slow
@pytest.mark.parametrize("claim", EXECUTABLE, ids=lambda c: c.id)
def test_verdict_is_the_same_under_seeds_0_to_4(claim):
    verdicts = {seed: falsify(claim, seed=seed) for seed in SEEDS}
    errors = {s: v.message for s, v in verdicts.items() if v.verdict in ("error", "inconclusive")}
    assert not errors, f"{claim.id}: {errors}"
    seen = {s: v.verdict for s, v in verdicts.items()}
    if claim.seed_dependent:
        return
    assert set(seen.values()) == {claim.expected}, f"{claim.id}: {seen}"
