"""CA-Fed (ToN) App. H1 — CA-Fed's computation and communication cost (l.1588–1594), a cost
model in prose: registered as not executable.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed:apph1-cost").executable
False
"""

from fltheory.claims.claim import register_claim

register_claim(
    "cafed:apph1-cost",
    "App. H1",
    "CA-Fed's computation/communication cost",
    (1588, 1594),
    "Clients not selected only evaluate one loss on one batch, saving roughly 2E − 1 "
    "forward/backward computations; excluded clients transmit one scalar.",
    reason="A cost model in prose about neural-network training (forward and backward passes, "
    "message sizes), not a statement about the paper's mathematical model: the "
    "quantities (passes, bytes) are not defined there, and fltheory's simulator does not "
    "count passes or bytes per client. It could be checked by instrumenting a training "
    "loop, which is outside the theory this package checks.",
)
