"""The vectorised PyTorch simulator of FL under client availability (CA-Fed ToN eqs. 2–3).

* :mod:`~fltheory.sim.availability` — availability processes drawing (R, T, N) traces once per
  comparison from seeded streams; :mod:`~fltheory.sim.availability_io` — recorded traces.
* :mod:`~fltheory.sim.data`, :mod:`~fltheory.sim.models`, :mod:`~fltheory.sim.problems` —
  data sets (ragged), models with batched closed-form gradients, tensor problems.
* :mod:`~fltheory.sim.algorithms` — one module per aggregation strategy, each a pure
  per-round weight rule (FedAvg, Unbiased, More available, AdaFed, F3AST, CA-Fed, FedAvg-IS,
  FedAvg (S), FedAvg with uniform sampling) or, with per-client memory in batched tensors, a
  round step (FedPBC, FedAR, MIFA, FedVARP), with its reference twin and parameter schema.
* :mod:`~fltheory.sim.registries` — the plug-in registries (algorithms, problems, models,
  availability, local methods); :mod:`~fltheory.sim.plugins` — the problem, model and
  availability plug-ins; :mod:`~fltheory.sim.local` — the clients' local methods (plain SGD,
  torch SGD with epochs/momentum/corrections, FedProx's proximal term) behind one contract.
* :mod:`~fltheory.sim.datasets`, :mod:`~fltheory.sim.partitions`, :mod:`~fltheory.sim.cnn` —
  real image data (digits, MNIST/Fashion-MNIST IDX, CIFAR-10 pickles), non-IID splits, CNNs;
  :mod:`~fltheory.sim.client_metrics` — per-client accuracy distribution (FedAR Table 3).
* :mod:`~fltheory.sim.engine` — the vectorised engine (seeds × clients as batch dimensions);
  :mod:`~fltheory.sim.reference` — the plain per-client loop it is tested against, running each
  algorithm's twin (:mod:`~fltheory.sim.twins`).
* :mod:`~fltheory.sim.deployment` — one federation round by round with the same rules (the
  server side of a real deployment; :mod:`fltheory.flower` wraps it as Flower strategies).
* :mod:`~fltheory.sim.compare`, :mod:`~fltheory.sim.config`, :mod:`~fltheory.sim.results` —
  comparisons on one shared trace, TOML configs and their runs, output files;
  :mod:`~fltheory.sim.rundir`, :mod:`~fltheory.sim.checkpoint` — crash-safe result directories
  with provenance, checkpoints and bit-for-bit resume.

The public names: :func:`load_config` / :func:`run_config` (:class:`SimConfig`) to read and
run a comparison, :class:`RunResult` and :func:`write_results` for its records and files, and
the registries :data:`ALGORITHMS`, :data:`PROBLEMS`, :data:`MODELS`, :data:`AVAILABILITY` to
add a plug-in. :func:`fltheory.simulate` does the first two steps in one call.

>>> from fltheory.sim import ALGORITHMS
>>> "fedavg" in ALGORITHMS.names()
True
"""

from typing import TYPE_CHECKING

from fltheory._exports import lazy_exports

if TYPE_CHECKING:
    from fltheory.sim.config import SimConfig, load_config, run_config
    from fltheory.sim.registries import ALGORITHMS, AVAILABILITY, MODELS, PROBLEMS
    from fltheory.sim.results import RunResult, write_results

__all__ = [
    "ALGORITHMS",
    "AVAILABILITY",
    "MODELS",
    "PROBLEMS",
    "RunResult",
    "SimConfig",
    "load_config",
    "run_config",
    "write_results",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "fltheory.sim.config": ("SimConfig", "load_config", "run_config"),
        "fltheory.sim.registries": ("ALGORITHMS", "AVAILABILITY", "MODELS", "PROBLEMS"),
        "fltheory.sim.results": ("RunResult", "write_results"),
    },
)
