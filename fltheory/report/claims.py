"""Section 6 of the report: the verdicts of the papers' claims that concern the setting, read
from the stored results of ``fltheory check`` (``docs/check_results.json``), not re-run (the
full run takes minutes)."""

from pathlib import Path
from typing import Any

#: The stored verdicts of ``fltheory check`` (a source checkout has them).
CHECK_RESULTS = Path(__file__).resolve().parents[2] / "docs" / "check_results.json"

#: Claims of the papers that concern this setting, by report section.
CLAIMS_BY_SECTION: dict[str, tuple[str, ...]] = {
    "model": (
        "cafed:sec5a-population",
        "cafed:hitting-time-population",
        "cafed:eq229-slem",
        "cafed:prop6",
        "cafed:lemma16-eq5",
        "cafed:lemma16-eq156-cp",
        "cafed:lemma16-eq157-tp-a",
        "cafed:appf1-mixing-upper-reversible",
    ),
    "bounds": (
        "cafed:thm1-eq10-a",
        "cafed:thm1-eq10-b",
        "cafed:thm1-eq11",
        "cafed:thm2-eq13-proved",
        "cafed:thm2-eq13-printed-main",
        "cafed:thm3-eq15",
        "cafed:unbiased-zero-bias",
    ),
    "weights": (
        "cafed:problem14-convex-in-q",
        "cafed:problem14-convex-reparametrised",
        "cafed:appe1-convex",
        "cafed:guideline-a",
        "cafed:guideline-b-lambda",
        "cafed:guideline-b-bound",
        "cafed:guideline-c-tv",
        "cafed:guideline-c-eps-bias",
    ),
    "limit": (
        "fedpbc:prop1-expectation",
        "fedpbc:prop1-printed",
        "fedpbc:prop1-remark-uniform",
        "fedpbc:prop1-time-average",
        "cafed:eq4-limit-diminishing",
        "cafed:eq4-limit-constant-step",
    ),
}


def claims_section(path: Path = CHECK_RESULTS) -> dict[str, Any]:
    """Section 6: the verdicts of the claims in :data:`CLAIMS_BY_SECTION`, read from the
    stored results of ``fltheory check`` (not re-run)."""
    from fltheory.config.files import load_json

    if not path.is_file():
        return {"source": None, "note": f"{path} not found: run `fltheory check`", "claims": []}
    stored = load_json(path, "check results")
    by_id = {c["id"]: c for c in stored.get("claims", [])}
    rows = []
    for section, ids in CLAIMS_BY_SECTION.items():
        for cid in ids:
            claim = by_id.get(cid)
            if claim is None:
                continue
            rows.append(
                {
                    "section": section,
                    "id": cid,
                    "verdict": claim["verdict"],
                    "statement": claim["statement"],
                    "source": claim["source"],
                    "evaluations": claim.get("evaluations"),
                    "message": claim.get("message", ""),
                }
            )
    prov = stored.get("provenance", {})
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return {
        "source": str(path.name),
        "created": prov.get("created"),
        "git_commit": prov.get("git_commit"),
        "budget": prov.get("budget"),
        "note": "read from the stored results of `fltheory check`, not re-run",
        "counts": counts,
        "claims": rows,
    }
