"""``fltheory check`` on a planted registry: listing, JSON shape, outputs, refusals."""

import json

import pytest

import fltheory.claims.claim as claim_module
from fltheory.claims import Claim, Real, Source, Space
from fltheory.claims.explain import Explanation, Quantity, Step, dec
from fltheory.claims.finding import Finding, Reading
from fltheory.cli.app import main
from fltheory.registry import Registry


def _explain_square(inst):
    x = dec(inst["x"])
    return Explanation(
        quantities=(Quantity("x", "the point", x),),
        lhs=Step("x²", "x·x", x * x),
        relation="≥",
        rhs=Step("x", "x", x),
        holds=x * x >= x,
        verify_args={"x": x},
    )


def _verify_square(x):
    return {"lhs": x * x, "rhs": x, "holds": x * x >= x}


#: The planted claims' notes (a line break and runs of spaces, as paper modules write them).
FALSE_NOTES = "Read as printed:\n    x² ≥ x fails between 0 and 1."
PROSE_NOTES = "No margin: the remark   names no quantity."


@pytest.fixture
def planted(monkeypatch):
    reg: Registry[Claim, Claim] = Registry("claim")
    monkeypatch.setattr(claim_module, "CLAIMS", reg)
    claim_module.register(
        Claim(
            "fedar:true",
            Source("fedar", "§1", "eq. (1)"),
            "x ≥ 0",
            Space([Real("x", 0.0, 1.0)]),
            margin=lambda i: i["x"],
            expected="holds",
        )
    )
    claim_module.register(
        Claim(
            "fedpbc:false",
            Source("fedpbc", "§2", "Lemma 9"),
            "x² ≥ x on (0, 2)",
            Space([Real("x", 0.0, 2.0)]),
            margin=lambda i: i["x"] ** 2 - i["x"],
            expected="refuted",
            reading=Reading("x² ≥ x for x in (0, 2)", interpretation="as printed"),
            finding=Finding("error", "fails on (0, 1)", severity="result"),
            explain=_explain_square,
            verify=_verify_square,
            notes=FALSE_NOTES,
        )
    )
    claim_module.register(
        Claim(
            "fedpbc:prose",
            Source("fedpbc", "§3", "Remark 9"),
            "FL helps",
            reason="a remark in prose",
            notes=PROSE_NOTES,
        )
    )
    return reg


def test_list_json(planted, capsys):
    assert main(["check", "--list", "--json", "--paper", "fedpbc"]) == 0
    listed = json.loads(capsys.readouterr().out)["claims"]
    assert [c["id"] for c in listed] == ["fedpbc:false", "fedpbc:prose"]
    assert listed[1]["executable"] is False and listed[1]["reason"] == "a remark in prose"


def test_check_json_has_the_documented_keys(planted, capsys):
    assert main(["check", "--json", "--budget", "300"]) == 0
    out = json.loads(capsys.readouterr().out)
    keys = {"id", "source", "statement", "verdict", "evaluations", "seconds", "worst_margin",
            "instance", "exact_verified"}  # fmt: skip
    assert all(keys <= set(c) for c in out["claims"])
    verdicts = {c["id"]: c["verdict"] for c in out["claims"]}
    assert verdicts == {"fedar:true": "holds", "fedpbc:false": "refuted",
                        "fedpbc:prose": "not_executable"}  # fmt: skip
    assert out["summary"]["refuted"] == ["fedpbc:false"]
    assert out["summary"]["verdicts"] == {"holds": 1, "not_executable": 1, "refuted": 1}


def test_same_seed_same_json(planted, capsys):
    runs = []
    for _ in range(2):
        assert main(["check", "fedpbc:false", "--json", "--budget", "200", "--seed", "3"]) == 0
        claims = json.loads(capsys.readouterr().out)["claims"]
        runs.append([{k: v for k, v in c.items() if k not in ("seconds", "evals_per_second")}
                     for c in claims])  # fmt: skip
    assert runs[0] == runs[1]


def test_out_writes_results_with_a_manifest(planted, tmp_path, capsys):
    out = tmp_path / "check"
    assert main(["check", "--budget", "100", "--out", str(out)]) == 0
    assert "fedpbc:false" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert sorted(f["name"] for f in manifest["files"]) == ["check.csv", "check.json"]
    assert (out / "check.csv").read_text().splitlines()[0].startswith("id,verdict")
    assert main(["check", "--budget", "100", "--out", str(out)]) == 2  # complete: refused
    assert "--overwrite" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check", "fedpbc:flase"], "did you mean 'fedpbc:false'"),
        (["check", "--paper", "fedpba"], "unknown paper 'fedpba'"),
        (["check", "--budget", "0"], "--budget must lie in 1.."),
        (["check", "--seconds", "-1"], "--seconds must be a number of seconds in (0, 86400]"),
        (["check", "--seconds", "inf"], "--seconds must be a number of seconds in (0, 86400]"),
        (["check", "--seconds", "1e300"], "--seconds must be a number of seconds in (0, 86400]"),
        (["check", "--seconds", "nan"], "--seconds must be a number of seconds in (0, 86400]"),
        (["check", "--report", "r"], "--report writes one paper's errata report: give --paper"),
        (["check", "--explain", "--json"], "--explain prints text"),
        (["check", "--notes", "--json"], "--notes prints text"),
        (["check", "--list", "fedar:true"], "--list takes no claim ids"),
    ],
)
def test_bad_input_is_one_line_exit_2(planted, capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0]


def test_json_carries_the_finding_and_a_moderate_witness(planted, capsys):
    assert main(["check", "fedpbc:false", "--json", "--budget", "300"]) == 0
    (record,) = json.loads(capsys.readouterr().out)["claims"]
    assert record["finding"] == {"class": "error", "severity": "result", "why": "fails on (0, 1)"}
    assert record["reading"]["quote"] == "x² ≥ x for x in (0, 2)"
    moderate = record["moderate_witness"]
    # the violations are x in (0, 1): the most moderate one is in the middle of (0, 2)'s lower half
    assert 0.0 < moderate["instance"]["x"] < 1.0 and moderate["extremeness"] >= 0.2
    assert moderate["paper"]["holds"] is False and moderate["paper"]["verify_args"]["x"]
    boundary = record["failure_boundary"]
    assert boundary is not None and abs(boundary["at"]["x"] - 1.0) < 1e-6  # x² = x at x = 1


def test_explain_prints_the_derivation(planted, capsys):
    assert main(["check", "fedpbc:false", "--explain", "--budget", "300"]) == 0
    out = capsys.readouterr().out
    assert "finding: error (result) — fails on (0, 1)" in out
    assert "is FALSE: the statement fails here" in out
    assert "least extreme counterexample" in out


def test_report_writes_the_papers_errata_and_scripts(planted, tmp_path, capsys):
    out = tmp_path / "errata"
    argv = ["check", "--paper", "fedpbc", "--budget", "300", "--report", str(out)]
    assert main(argv) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert sorted(f["name"] for f in manifest["files"]) == [
        "check.json",
        "report.html",
        "report.md",
        "scripts/false.py",
    ]
    assert "fedpbc:false" in (out / "report.md").read_text()
    namespace = {"__name__": "__main__"}
    with pytest.raises(SystemExit) as done:
        exec((out / "scripts" / "false.py").read_text(), namespace)
    assert done.value.code == 0  # the script reproduces the failure
    assert main(argv) == 2  # a complete report is not replaced without --overwrite


def test_json_carries_every_claims_notes(planted, capsys):
    """Executable or not, every record has its claim's notes, on one line."""
    assert main(["check", "--json", "--paper", "fedpbc", "--budget", "100"]) == 0
    notes = {c["id"]: c["notes"] for c in json.loads(capsys.readouterr().out)["claims"]}
    assert notes == {
        "fedpbc:false": "Read as printed: x² ≥ x fails between 0 and 1.",
        "fedpbc:prose": "No margin: the remark names no quantity.",
    }


def test_list_json_carries_the_notes(planted, capsys):
    assert main(["check", "--list", "--json"]) == 0
    notes = {c["id"]: c["notes"] for c in json.loads(capsys.readouterr().out)["claims"]}
    assert notes["fedpbc:false"].startswith("Read as printed:") and notes["fedar:true"] == ""


def test_the_table_prints_the_notes_only_with_notes(planted, capsys):
    assert main(["check", "--paper", "fedpbc", "--budget", "100"]) == 0
    plain = capsys.readouterr().out
    assert "fails between 0 and 1" not in plain and "--notes prints" in plain
    assert main(["check", "--paper", "fedpbc", "--budget", "100", "--notes"]) == 0
    out = capsys.readouterr().out
    assert "fedpbc:false: Read as printed: x² ≥ x fails between 0 and 1." in out
    assert "fedpbc:prose: No margin: the remark names no quantity." in out
    assert main(["check", "--list", "--notes"]) == 0
    assert "fedpbc:prose: No margin: the remark names no quantity." in capsys.readouterr().out


def test_explain_prints_the_notes(planted, capsys):
    assert main(["check", "fedpbc:false", "--explain", "--budget", "100"]) == 0
    assert "  notes: Read as printed: x² ≥ x fails between 0 and 1." in capsys.readouterr().out
