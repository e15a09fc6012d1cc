"""Check that refuted claims are findings a reviewer would sign, live (without the recorded
``docs/check_results.json``): each is searched at its default budget and must carry a reading and
a finding; an error, typo or version must have a moderate witness explained in the paper's
quantities and a standalone ``verify`` whose generated script, run without fltheory, reproduces
the failure.

    python paper_checks/check_findings.py [ID ...] [--paper P] [--seed K] [--explain] [--out F]

``--out F`` also writes the checked ids and the problems found as JSON, with provenance.

Exit status 0 when every selected claim passes, 1 otherwise (one line per problem).
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# The repository root goes on the path first, so this runs as `python DIR/script.py`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fltheory.atomic import write_atomic
from fltheory.claims import CLAIMS, falsify
from fltheory.claims.claim import select
from fltheory.claims.errata_script import errata_script
from fltheory.claims.finding import ERRATA_CLASSES
from fltheory.provenance import provenance

#: Runs a script with fltheory made unimportable (``sys.modules[name] = None``).
BLOCKED = (
    "import sys, runpy; sys.modules['fltheory'] = None; "
    "runpy.run_path(sys.argv[1], run_name='__main__')"
)


def run_script(script: str) -> subprocess.CompletedProcess[str]:
    """Run a generated errata script in a fresh interpreter that cannot import fltheory."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "check.py"
        path.write_text(script)
        return subprocess.run(
            [sys.executable, "-c", BLOCKED, str(path)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp,
        )


def problems_of(claim_id: str, seed: int, show: bool) -> list[str]:
    claim = CLAIMS.get(claim_id)
    verdict = falsify(claim, seed=seed)
    record = verdict.to_dict()
    out: list[str] = []
    print(
        f"{claim_id}: {verdict.verdict} ({verdict.evaluations} evaluations, "
        f"{verdict.seconds:.1f} s)",
        flush=True,
    )
    if verdict.verdict != (claim.expected or verdict.verdict):
        out.append(
            f"{claim_id}: expected {claim.expected}, got {verdict.verdict} ({verdict.message})"
        )
    if verdict.verdict != "refuted":
        return out
    if claim.reading is None:
        out.append(f"{claim_id}: refuted without a reading")
    if claim.finding is None:
        out.append(f"{claim_id}: refuted without a finding")
        return out
    moderate = verdict.moderate_witness
    if moderate is None:
        out.append(f"{claim_id}: no moderate witness ({verdict.message})")
    else:
        print(
            f"  moderate witness (extremeness {moderate['extremeness']:.3g}, worst "
            f"{verdict.extremeness:.3g}): {moderate['instance']}"
        )
    if show and claim.explain is not None and moderate is not None:
        import numpy as np

        inst = {
            k: np.asarray(v) if isinstance(v, list) else v for k, v in moderate["instance"].items()
        }
        print(claim.explain(inst).text("    "))
    if claim.finding.cls not in ERRATA_CLASSES:
        return out
    if claim.explain is None or claim.verify is None:
        out.append(f"{claim_id}: a {claim.finding.cls} needs explain and verify")
        return out
    if moderate is None or not (moderate.get("paper") or {}).get("verify_args"):
        out.append(f"{claim_id}: the moderate witness has no verify_args")
        return out
    if moderate["paper"]["holds"]:
        out.append(f"{claim_id}: explain says the statement holds at the moderate witness")
    try:
        script = errata_script(record, claim.verify)
    except ValueError as err:
        out.append(f"{claim_id}: {err}")
        return out
    done = run_script(script)
    if done.returncode != 0:
        out.append(
            f"{claim_id}: the errata script exits {done.returncode}: "
            f"{(done.stdout + done.stderr).strip().splitlines()[-3:]}"
        )
    else:
        print("  script: " + " | ".join(done.stdout.strip().splitlines()))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--paper")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--explain", action="store_true", help="print the moderate witness")
    parser.add_argument("--out", type=Path, help="also write the ids and problems as JSON")
    args = parser.parse_args()
    claims = select(args.ids or None, paper=args.paper)
    chosen = [c.id for c in claims if c.executable and (args.ids or c.expected == "refuted")]
    problems = [p for cid in chosen for p in problems_of(cid, args.seed, args.explain)]
    for line in problems:
        print("PROBLEM " + line, file=sys.stderr)
    print(f"{len(chosen)} claims, {len(problems)} problems")
    if args.out is not None:
        record = {"claims": chosen, "problems": problems, "provenance": provenance(seed=args.seed)}
        write_atomic(args.out, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
