"""catalog/common.py: the conversion of a paper config into the authors' one (``to_authors``)."""

from fltheory.experiments.catalog.cafed_fig1 import TABLE2, fig1a_authors_config


def test_authors_f3ast_keeps_the_rates_it_was_given():
    # Before the fix the rebuilt f3ast_code entry had no rates, so F3AST ran at the run's
    # default η, η̄ (the cafed-infocom:fig3 diagnosis).
    cfg = fig1a_authors_config("full", TABLE2["synthetic"])
    f3ast = next(a for a in cfg["algorithms"] if a["name"] == "f3ast_code")
    assert (f3ast["lr"], f3ast["server_lr"]) == TABLE2["synthetic"]["f3ast"]
    others = [a for a in cfg["algorithms"] if a["name"] != "f3ast_code"]
    assert all((a["lr"], a["server_lr"]) == TABLE2["synthetic"][a["label"]] for a in others)
