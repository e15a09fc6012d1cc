"""§VI-B — spatially correlated clusters in the INFOCOM 2023 version of CA-Fed (seed
``001_4d8faa0e7730b5d7.txt``, ``l.N`` its lines), l.127–130, legible in this copy: excluding
clients reduces the eigenvalue of the aggregate chain only if a whole cluster with the largest one
is excluded.

>>> from fltheory.claims import CLAIMS
>>> CLAIMS.get("cafed-infocom:spatial").expected
'holds'
"""

from fltheory.claims.claim import register_claim
from fltheory.claims.finding import Hypothesis, Reading
from fltheory.claims.papers.cafed._clusters import SEC5E_SPACE, sec5e_margin

register_claim(
    "cafed-infocom:spatial",
    "§VI-B",
    "clusters: exclude a whole cluster to reduce λ",
    (127, 130),
    "Clients grouped in clusters, each cluster with an independent Markov chain that makes all "
    "its clients available or unavailable together: excluding clients reduces the second "
    "largest eigenvalue modulus of the aggregate chain only if every client of the cluster "
    "with the largest one is excluded.",
    space=SEC5E_SPACE,
    margin=sec5e_margin,
    tolerance=0.0,
    budget=300,
    expected="holds",
    notes="The words survive ('one needs to exclude all clients in the cluster [c̄] to reduce "
    "the eigenvalue of the aggregate Markov chain'); only the symbol λ_c is lost. Checked with "
    "two-state cluster chains (the journal's setting, §V-B(e)), the same margin as "
    "cafed:sec5e-cluster: the library's ClusteredChain.exclude against numpy eigenvalues of "
    "the dense Kronecker matrix of the clusters that keep a client.",
    reading=Reading(
        quote="Consider the following spatially-correlated scenario: clients are grouped in "
        "clusters, each cluster is characterized by an underlying Markov chain, which "
        "determines when all clients in the cluster are available/unavailable, the Markov "
        "chains of different clusters are independent. Let [λ_c] denote the second largest "
        "eigenvalue in module of cluster-[c]'s Markov chain. In this case, one needs to exclude "
        "all clients in the cluster [c̄] to reduce the eigenvalue of the aggregate Markov chain.",
        hypotheses=(
            Hypothesis(
                "independent cluster chains",
                "C ≤ 6 independent two-state clusters, N ≤ 18 clients assigned to them",
            ),
        ),
        interpretation="λ(P′) < λ(P) only if every client of a cluster attaining max_c |λ_c| "
        "is excluded (the eigenvalue of the aggregate chain is the largest over the clusters "
        "that keep a client).",
    ),
)
