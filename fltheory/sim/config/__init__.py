"""TOML configuration of a simulated comparison → problem, availability, algorithms, settings.

Layout (see ``examples/sim_*.toml``; every kind, name and field is listed, with its type, default
and meaning, in ``docs/plugins.md``, generated from the registries)::

    name = "..."; seed = 0; seeds = 10; device = "auto"; dtype = "float32"; threads = 1
    memory_limit = "4GiB"  (optional: a run estimated above it is refused; lowers the chunks of
                            (seed, client) local steps, fixed otherwise)
    [run]          rounds, local_steps, batch_size (0: full), eval_every, prior = [a, b],
                   warmup (t′ of the "warmed" estimator), and the defaults of every algorithm's
                   options: lr, server_lr, lr_schedule, lr_t0, momentum, weight_decay, diameter,
                   estimator ("oracle" | "bayesian" | "warmed")
    [problem]      kind = a problem kind, its fields (data problems: model = a model, its fields)
    [availability] kind = an availability kind, its fields
    [[algorithms]] name = an algorithm, its fields, label, and overrides of [run]'s options

* :mod:`~fltheory.sim.config.tables` — the top-level, ``[run]`` and option tables;
* :mod:`~fltheory.sim.config.loader` — reading, validating and building (:func:`load_config`);
* :mod:`~fltheory.sim.config.run` — running a config on one shared trace (:func:`run_config`);
* :mod:`~fltheory.sim.config.docs` — ``docs/plugins.md`` from the registries.

Every unknown key, missing key, wrong type or unknown kind is one
:class:`~fltheory.errors.InputError` line naming the file, the table and the key.
"""

from fltheory.sim.config.loader import SimConfig, build, load_config
from fltheory.sim.config.run import run_config

__all__ = ["SimConfig", "build", "load_config", "run_config"]
