"""Availability chains and their constants (CA-Fed ToN Sections II-A, III-D; Appendices B2, F)."""
