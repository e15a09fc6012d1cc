"""The names of the files a simulation writes to its result directory (importing this loads
no heavy library, so ``fltheory simulate --out`` is checked before torch is imported).

>>> "manifest.json" in OWNED, "timing.json" in RESULT_FILES, "theory.png" in OWNED
(False, True, True)
"""

#: The files of a simulation result (``timing.json`` is the one that differs between runs).
RESULT_FILES = ("summary.json", "rounds.csv", "rounds.schema.json", "clients.npz", "timing.json")
#: The files ``--theory`` adds: the comparison with the exact limits and its overlay plot.
THEORY_FILES = ("theory.json", "theory.csv", "theory.png")
#: The folder of the checkpoints of a run in progress (:mod:`fltheory.sim.checkpoint`).
CHECKPOINT_FOLDER = "checkpoint"
#: Everything a simulation may leave in its directory besides ``manifest.json``.
OWNED = (*RESULT_FILES, *THEORY_FILES, CHECKPOINT_FOLDER)
