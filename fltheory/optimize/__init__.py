"""Optimal aggregation weights (CA-Fed ToN Sections III-C–E, Appendices D–E).

Modules: ``problem212`` (min ε̄_opt: closed form and cvxpy), ``problem14`` (min ε̄_opt +
κ̄²·ε̄_bias, cvxpy/DPP), ``guidelines`` (Guidelines A–C), ``result`` (the returned record),
``objective``/``kkt``/``polish`` (numpy objectives, KKT certificate, Newton refinement).
"""
