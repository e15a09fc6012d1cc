"""Every registered claim of the papers, searched with its own default budget.

The statements, their instance spaces, margins and expected verdicts live in
``fltheory/claims/papers/`` (one source of truth per claim); ``fltheory check ID`` searches one of
them. This script runs them all, paper by paper, writes the ``fltheory check --json`` object of
the whole run to ``docs/check_results.json`` (with the wall time of each paper) and regenerates
the README's findings in brief, the page of findings ``docs/findings.md``, the errata scripts and
the per-paper errata reports under ``docs/errata/`` from it (:mod:`fltheory.claims.errata`).

    python paper_checks/run_all.py [--paper P ...] [--seed K] [--no-readme]

Exit status 0 when every verdict equals the claim's ``expected`` verdict, 1 otherwise.
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
from fltheory.claims import CLAIMS
from fltheory.claims.errata import FINDINGS_PAGE, findings_page, update_readme, write_errata
from fltheory.claims.run import CheckReport, check, unexpected_verdicts
from fltheory.jsonable import to_jsonable
from fltheory.papers import PAPERS
from fltheory.provenance import provenance

ROOT = Path(__file__).resolve().parents[1]


def run(papers: list[str], seed: int) -> tuple[dict[str, Any], list[str]]:
    """The merged check object over ``papers`` and the ids whose verdict is not the expected one."""
    verdicts, per_paper, unexpected = [], {}, []
    start = time.perf_counter()
    for paper in papers:
        claims = [c for c in CLAIMS if c.source.paper == paper]
        t0 = time.perf_counter()
        report = check(claims, seed=seed, progress=lambda cid, i, n: print(
            f"  [{i + 1}/{n}] {cid}", file=sys.stderr, flush=True))  # fmt: skip
        per_paper[paper] = {
            "claims": len(claims),
            "seconds": round(time.perf_counter() - t0, 1),
            "verdicts": report.summary["verdicts"],
        }
        print(f"{paper}: {per_paper[paper]}", file=sys.stderr, flush=True)
        unexpected += unexpected_verdicts(claims, report.verdicts)
        verdicts.extend(report.verdicts)
    merged = CheckReport(verdicts, "default", None, seed, time.perf_counter() - start)
    result = to_jsonable(merged.to_dict())
    result["summary"]["papers"] = per_paper
    result["provenance"] = provenance(seed=seed, budget="default")
    return result, unexpected


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", action="append", choices=sorted(PAPERS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-readme",
        action="store_true",
        help="do not rewrite README.md, docs/findings.md, docs/errata/",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "check_results.json")
    args = parser.parse_args()
    papers = args.paper or sorted(PAPERS)
    result, unexpected = run(papers, args.seed)
    write_atomic(args.out, json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")
    if not args.no_readme and args.paper is None:
        readme = ROOT / "README.md"
        write_atomic(readme, update_readme(readme.read_text(), result))
        print(f"updated the findings in brief in {readme}")
        write_atomic(ROOT / FINDINGS_PAGE, findings_page(result))
        print(f"wrote {FINDINGS_PAGE}")
        written = write_errata(result, ROOT / "docs" / "errata")
        print(f"wrote {len(written)} errata files under docs/errata/")
    for line in unexpected:
        print(f"unexpected verdict: {line}", file=sys.stderr)
    return 1 if unexpected else 0


if __name__ == "__main__":
    raise SystemExit(main())
