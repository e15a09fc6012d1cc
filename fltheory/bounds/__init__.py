"""Theorems 1–3 of CA-Fed (ToN) as computable bounds: eqs. 10, 11, 13 and 15."""
