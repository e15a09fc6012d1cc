"""Local methods: what a client does with the global model between two server steps.

One module per method, each subclassing :class:`fltheory.sim.local.base.LocalMethod` (the
written contract: required and optional members) and registering its builder in
:data:`fltheory.sim.registries.LOCAL_METHODS`; the registry imports every module of this
package, and outside plug-ins register the same way (entry-point group
``fltheory.local_methods``, ``--plugin``, ``FLTHEORY_PLUGINS``).

* :mod:`~fltheory.sim.local.sgd` — ``sgd``: plain local SGD (eq. 2), E steps;
* :mod:`~fltheory.sim.local.torch_sgd` — ``torch_sgd``: local epochs, momentum, weight decay,
  gradient corrections (SCAFFOLD), the steps of :mod:`fltheory.sim.local_opt`;
* :mod:`~fltheory.sim.local.proximal` — ``proximal``: FedProx's proximal term;
* :mod:`~fltheory.sim.local.select` — which method a run uses.

>>> from fltheory.sim.registries import LOCAL_METHODS
>>> LOCAL_METHODS.get("sgd").doc
'Plain local SGD: E steps of eq. (2), no momentum, no weight decay, no correction.'
"""
