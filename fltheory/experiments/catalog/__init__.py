"""The experiments, one module per paper figure group; each module registers its experiments in
:data:`fltheory.experiments.model.EXPERIMENTS` when imported (the registry imports them all)."""
