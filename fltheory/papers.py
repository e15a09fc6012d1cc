"""The seed papers: one table of id, seed file, short name and citation, used wherever a paper
is named (claims, errata reports).

The seed files are plain-text extractions in ``../shared/seeds/`` (its README says which is
which).

>>> PAPER_TABLE["fedpbc"].short
'FedPBC'
>>> sorted(PAPER_TABLE)
['cafed', 'cafed-infocom', 'fedar', 'fedpbc']
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One seed paper: ``id`` (as in claim ids), its seed file, a short name and the citation."""

    id: str
    seed_file: str
    short: str
    citation: str


PAPER_TABLE: dict[str, Paper] = {
    p.id: p
    for p in (
        Paper(
            "cafed",
            "002_2f28135276b05638.txt",
            "CA-Fed (ToN)",
            'A. Rodio, F. Faticanti, O. Marfoq, G. Neglia, E. Leonardi, "Federated Learning '
            'under Heterogeneous and Correlated Client Availability", IEEE/ACM Transactions on '
            "Networking 32(2), 2024 (HAL version with the supplementary material; the journal "
            "main text is seed 000_da5b2ff170c4cf9d.txt)",
        ),
        Paper(
            "cafed-infocom",
            "001_4d8faa0e7730b5d7.txt",
            "CA-Fed (INFOCOM)",
            'A. Rodio, F. Faticanti, O. Marfoq, G. Neglia, E. Leonardi, "Federated Learning '
            'under Heterogeneous and Correlated Client Availability", IEEE INFOCOM 2023',
        ),
        Paper(
            "fedpbc",
            "004_7f83552c6af82f79.txt",
            "FedPBC",
            'M. Xiang, S. Ioannidis, E. Yeh, C. Joe-Wong, L. Su, "Towards Bias Correction of '
            'FedAvg over Nonuniform and Time-Varying Communications"',
        ),
        Paper(
            "fedar",
            "003_7bfc4ba284d104ce.txt",
            "FedAR",
            '"FedAR: client update Approximation and Rectification" (federated learning with '
            "unreliable client participation)",
        ),
    )
}
