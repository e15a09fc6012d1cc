"""Verdicts that do not depend on the seed: every executable claim searched at its default budget
under several seeds; a claim whose verdict changes is searched again at doubled budgets until
the seeds agree (up to ``--max-factor``), and the budget at which it becomes stable is recorded.

Writes ``docs/check_stability.json`` (per claim: the verdicts by seed, whether they agree, the
stable budget where one was found, and the claim's own ``seed_dependent`` note) with provenance.

    python paper_checks/check_stability.py [ID ...] [--paper P] [--seeds 0 1 2 3 4]
        [--max-factor 8] [--out docs/check_stability.json]

Exit status 0 when every selected claim has one verdict under all seeds at its default budget
or declares ``seed_dependent``; 1 otherwise.
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.atomic import write_atomic
from fltheory.claims import CLAIMS, falsify
from fltheory.claims.claim import select
from fltheory.claims.falsifier import DEFAULT_BUDGET
from fltheory.provenance import provenance

ROOT = Path(__file__).resolve().parents[1]


def verdicts(claim_id: str, seeds: list[int], budget: int) -> dict[int, str]:
    claim = CLAIMS.get(claim_id)
    return {seed: falsify(claim, budget=budget, seed=seed).verdict for seed in seeds}


def stability(claim_id: str, seeds: list[int], max_factor: int) -> dict[str, Any]:
    claim = CLAIMS.get(claim_id)
    budget = claim.budget if claim.budget is not None else DEFAULT_BUDGET
    start = time.perf_counter()
    by_seed = verdicts(claim_id, seeds, budget)
    record: dict[str, Any] = {
        "id": claim_id,
        "budget": budget,
        "verdicts": {str(k): v for k, v in by_seed.items()},
        "stable": len(set(by_seed.values())) == 1,
        "expected": claim.expected,
        "seed_dependent": claim.seed_dependent,
    }
    factor = 2
    while not record["stable"] and factor <= max_factor:
        again = verdicts(claim_id, seeds, budget * factor)
        if len(set(again.values())) == 1:
            record["stable_budget"] = budget * factor
            record["verdict_at_stable_budget"] = next(iter(again.values()))
            break
        factor *= 2
    record["seconds"] = round(time.perf_counter() - start, 1)
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--paper")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--max-factor", type=int, default=8)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    claims = [c for c in select(args.ids or None, paper=args.paper) if c.executable]
    records, bad = [], []
    for claim in claims:
        record = stability(claim.id, args.seeds, args.max_factor)
        records.append(record)
        mark = "stable" if record["stable"] else f"FLIPS {record['verdicts']}"
        print(f"{claim.id}: {mark} ({record['seconds']} s)", flush=True)
        if not record["stable"] and not claim.seed_dependent:
            bad.append(claim.id)
    if args.out is not None:
        payload = {
            "seeds": args.seeds,
            "claims": records,
            "provenance": provenance(seeds=args.seeds),
        }
        write_atomic(args.out, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.out}")
    for cid in bad:
        print(f"seed-dependent without a note: {cid}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
