"""A tiny harness for ``paper_checks/`` scripts: named claims, checked values, an exit code."""

import json
import sys
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ClaimResult:
    """One checked claim of a paper: what it says, what we measured, and whether it held."""

    claim: str
    source: str
    expected: str
    measured: str
    passed: bool

    def __post_init__(self) -> None:
        # Accept numpy booleans from comparisons; store a plain bool (JSON-serialisable).
        object.__setattr__(self, "passed", bool(self.passed))


def report(results: list[ClaimResult], *, as_json: bool = False) -> int:
    """Print the results (a table, or one JSON object) and return the exit status (0 = all held)."""
    if as_json:
        payload = {"passed": all(r.passed for r in results), "claims": [asdict(r) for r in results]}
        sys.stdout.write(json.dumps(payload) + "\n")
    else:
        for r in results:
            mark = "PASS" if r.passed else "FAIL"
            print(f"[{mark}] {r.claim} ({r.source})")
            print(f"       expected: {r.expected}")
            print(f"       measured: {r.measured}")
        print(
            f"{sum(r.passed for r in results)} passed, {sum(not r.passed for r in results)} failed"
        )
    return 0 if all(r.passed for r in results) else 1
