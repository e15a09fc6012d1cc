"""``fltheory report``: one command from an availability model and a problem to a checked report.

* :mod:`~fltheory.report.config` — the strict report configuration and its embedded default
  (the CA-Fed paper's population of 100 clients with a quadratic and a Synthetic LEAF problem);
* :mod:`~fltheory.report.data` — every number of the six sections, computed through the
  :mod:`fltheory.api` façade, :mod:`fltheory.claims` and :mod:`fltheory.markov`, as one dict;
* :mod:`~fltheory.report.plots` — the figures (matplotlib, Agg backend, Okabe–Ito colours);
* :mod:`~fltheory.report.render` — ``report.html`` (self-contained), ``report.md`` and
  ``report.json``, written atomically.

Nothing here is imported by ``import fltheory``.
"""
