"""The seed papers: one table of id, seed file, short name and citation, used wherever a paper
is named (claims, experiments, errata reports); works of a user's own (:func:`register_paper`);
and the one way to cite a place in a paper (:class:`Source`: paper, section, label, lines).

The seed files are plain-text extractions in ``../shared/seeds/`` (its README says which is
which).

>>> PAPER_TABLE["fedpbc"].short
'FedPBC'
>>> sorted(PAPER_TABLE)
['cafed', 'cafed-infocom', 'fedar', 'fedpbc']
"""

import re
from dataclasses import dataclass

from fltheory.errors import InputError


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

#: Paper ids and the seed file each refers to (from :data:`PAPER_TABLE`).
PAPERS = {paper.id: paper.seed_file for paper in PAPER_TABLE.values()}

#: Outside works that claims may cite besides the seed papers (:func:`register_paper`): id → title.
OWN_PAPERS: dict[str, str] = {}


@dataclass(frozen=True)
class Source:
    """Where a statement is printed.

    >>> Source("cafed", "App. B2", "Lemma 16, eq. (5)")
    Source(paper='cafed', section='App. B2', label='Lemma 16, eq. (5)', lines=None)
    >>> str(Source("cafed", "App. B2", "Lemma 16, eq. (5)"))
    '002_2f28135276b05638.txt App. B2, Lemma 16, eq. (5)'
    """

    paper: str
    section: str
    label: str
    lines: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.paper not in PAPERS and self.paper not in OWN_PAPERS:
            raise ValueError(
                f"unknown paper id {self.paper!r} (choose from {sorted([*PAPERS, *OWN_PAPERS])}, "
                "or name a work of your own with fltheory.claims.register_paper)"
            )

    @property
    def seed_file(self) -> str:
        """The seed file of a seed paper; the title of a work registered by outside code.

        >>> Source("fedar", "§1", "Lemma 1").seed_file
        '003_7bfc4ba284d104ce.txt'
        """
        return PAPERS.get(self.paper) or OWN_PAPERS[self.paper]

    def __str__(self) -> str:
        where = f" (lines {self.lines[0]}–{self.lines[1]})" if self.lines else ""
        document = PAPERS.get(self.paper, self.paper)  # an own work: its id (no spaces)
        return f"{document} {self.section}, {self.label}{where}"


def register_paper(paper_id: str, title: str) -> str:
    """Name a work of your own (a note, a preprint) that your claims cite as
    ``Source(paper_id, …)`` and whose id starts their ids (``mylab:lemma1``); registering the
    same id with the same title again does nothing. Returns ``paper_id``.

    >>> from unittest import mock
    >>> with mock.patch.dict(OWN_PAPERS):
    ...     register_paper("mylab", "Our note on γ-weighted aggregation (2025)")
    ...     source = Source("mylab", "§2", "Lemma 1")
    ...     str(source), source.seed_file
    'mylab'
    ('mylab §2, Lemma 1', 'Our note on γ-weighted aggregation (2025)')
    """
    if not isinstance(paper_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", paper_id):
        raise InputError(
            f"a paper id is lower-case letters, digits, '_', '.' or '-', got {paper_id!r}"
        )
    if paper_id in PAPERS:
        raise InputError(f"'{paper_id}' is a seed paper's id; choose another for your own work")
    if OWN_PAPERS.get(paper_id, title) != title:
        raise InputError(f"paper '{paper_id}' is registered already as {OWN_PAPERS[paper_id]!r}")
    OWN_PAPERS[paper_id] = title
    return paper_id
