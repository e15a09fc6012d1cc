"""Synthetic classification problems: LEAF Synthetic(γ, δ) and the INFOCOM binary data set."""

from typing import Literal

from pydantic import Field

from fltheory.config import Strict
from fltheory.sim.data import binary_synthetic, synthetic_leaf
from fltheory.sim.plugins.fields import (
    MODEL_DOC,
    SCORING_DOC,
    DataAlpha,
    alpha_field,
    target_weights,
)
from fltheory.sim.problems import DataProblem, Scoring
from fltheory.sim.registries import PROBLEMS, Built, ModelShape, ProblemContext


class SyntheticLeafParams(Strict):
    """Parameters of :func:`~fltheory.sim.data.synthetic_leaf`."""

    gamma: float = Field(ge=0.0, description="γ: spread of the clients' models (std)")
    delta: float = Field(ge=0.0, description="δ: spread of the clients' feature means (std)")
    n_clients: int = Field(100, ge=1, description="number of clients N")
    n_features: int = Field(60, ge=1, description="features d")
    n_classes: int = Field(10, ge=2, description="classes C")
    test_fraction: float = Field(
        0.1, ge=0.0, lt=1.0, description="share of each client's samples held out for testing"
    )
    max_samples: int = Field(0, ge=0, description="cap on the samples per client (0: no cap)")
    rng_layout: Literal["fltheory", "authors"] = Field(
        "fltheory",
        description="random stream: fltheory's, or the authors' generator draw for draw (their "
        "floor 90/10 split; test_fraction ignored)",
    )
    model: str = Field("softmax", description=MODEL_DOC)
    alpha: DataAlpha = alpha_field("samples")
    scoring: Scoring = Field("model", description=SCORING_DOC)


@PROBLEMS.register("synthetic_leaf", params=SyntheticLeafParams)
def build_synthetic_leaf(params: SyntheticLeafParams, ctx: ProblemContext) -> Built:
    """LEAF Synthetic(γ, δ) with power-law sample counts (CA-Fed ToN Appendix G1)."""
    data = synthetic_leaf(
        params.gamma,
        params.delta,
        params.n_clients,
        seed=ctx.seed,
        n_features=params.n_features,
        n_classes=params.n_classes,
        test_fraction=params.test_fraction,
        max_samples=params.max_samples or None,
        rng_layout=params.rng_layout,
    )
    assert ctx.model is not None
    model = ctx.model(ModelShape(data.n_features, data.n_classes))
    alpha = target_weights(params.alpha, data.n_clients, data.train_counts)
    problem = DataProblem(
        model, data, alpha, ctx.device, ctx.dtype, init_seed=ctx.seed, scoring=params.scoring
    )
    return problem, {}


class BinarySyntheticParams(Strict):
    """Parameters of :func:`~fltheory.sim.data.binary_synthetic`."""

    n_clients: int = Field(24, ge=1, description="number of clients N")
    n_features: int = Field(10, ge=1, description="features d")
    n_train: int = Field(100, ge=1, description="training samples per client")
    n_test: int = Field(100, ge=0, description="test samples per client")
    flip: float = Field(0.5, ge=0.0, le=1.0, description="label-flip probability h of group 1")
    group_fraction: float = Field(
        0.5, ge=0.0, le=1.0, description="probability that a client is in group 1"
    )
    groups: Literal["random", "deterministic"] = Field(
        "random",
        description="group 1 drawn per client, or the last round(N·group_fraction) clients "
        "(the authors' deterministic split)",
    )
    model: str = Field("logistic", description=MODEL_DOC)
    alpha: DataAlpha = alpha_field("samples")
    scoring: Scoring = Field("model", description=SCORING_DOC)


@PROBLEMS.register("binary_synthetic", params=BinarySyntheticParams)
def build_binary_synthetic(params: BinarySyntheticParams, ctx: ProblemContext) -> Built:
    """Two groups of clients, the second with flipped labels (INFOCOM version, Appendix F)."""
    data, groups = binary_synthetic(
        params.n_clients,
        seed=ctx.seed,
        n_features=params.n_features,
        n_train=params.n_train,
        n_test=params.n_test,
        flip=params.flip,
        group_fraction=params.group_fraction,
        deterministic_groups=params.groups == "deterministic",
    )
    assert ctx.model is not None
    model = ctx.model(ModelShape(data.n_features, data.n_classes))
    alpha = target_weights(params.alpha, data.n_clients, data.train_counts)
    problem = DataProblem(
        model, data, alpha, ctx.device, ctx.dtype, init_seed=ctx.seed, scoring=params.scoring
    )
    return problem, {"data group 0": groups == 0, "data group 1": groups == 1}
