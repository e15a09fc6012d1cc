"""Seeded random streams keyed by (seed, purpose).

All randomness in fltheory comes from here: no global RNG state, no clock seeds. The purpose
string is hashed with SHA-256 (stable across processes, unlike ``hash``) into extra entropy
for :class:`numpy.random.SeedSequence`, so different purposes give independent streams.
"""

import hashlib

import numpy as np


def _purpose_words(purpose: str) -> list[int]:
    digest = hashlib.sha256(purpose.encode("utf-8")).digest()
    return [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]


def seed_sequence(seed: int, purpose: str) -> np.random.SeedSequence:
    """The seed sequence for stream ``purpose`` under master ``seed``."""
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return np.random.SeedSequence([int(seed), *_purpose_words(purpose)])


def generator(seed: int, purpose: str) -> np.random.Generator:
    """A numpy Generator for stream ``purpose`` under master ``seed``."""
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, purpose)))
