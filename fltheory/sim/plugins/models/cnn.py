"""Convolutional models for image problems (:mod:`fltheory.sim.cnn`)."""

from pydantic import Field

from fltheory.config import Strict
from fltheory.errors import InputError
from fltheory.sim.cnn import AuthorsCifarCNN, LeNet5, ResNet18, SmallCNN
from fltheory.sim.registries import MODELS, ModelShape


def _image(name: str, shape: ModelShape) -> tuple[int, int, int]:
    if shape.image is None:
        raise InputError(f"model '{name}' needs an image problem (digits, mnist, ...)")
    return shape.image


class CNNParams(Strict):
    """Parameters of :class:`~fltheory.sim.cnn.SmallCNN`."""

    ridge: float = Field(1e-2, ge=0.0, description="ridge penalty (ridge/2)·‖θ‖² of every F_k")
    cnn_channels: list[int] = Field(
        [32, 64], min_length=2, max_length=2, description="channels of the two convolutions"
    )
    cnn_kernel: int = Field(5, ge=1, description="odd side of the square convolution kernels")


@MODELS.register("cnn", params=CNNParams)
def build_cnn(params: CNNParams, shape: ModelShape) -> SmallCNN:
    """Two convolutions (ReLU, 2×2 max-pool) and a linear layer (FedAR paper, Section 6.1).

    >>> build_cnn(CNNParams(cnn_channels=[2, 3], cnn_kernel=3), ModelShape(64, 10, (1, 8, 8)))
    ... # doctest: +ELLIPSIS
    <fltheory.sim.cnn.SmallCNN object at ...>
    """
    channels = (params.cnn_channels[0], params.cnn_channels[1])
    return SmallCNN(
        _image("cnn", shape), shape.n_classes, channels, params.cnn_kernel, params.ridge
    )


class LeNetParams(Strict):
    """Parameters of :class:`~fltheory.sim.cnn.LeNet5`."""

    ridge: float = Field(1e-2, ge=0.0, description="ridge penalty (ridge/2)·‖θ‖² of every F_k")


@MODELS.register("lenet5", params=LeNetParams)
def build_lenet5(params: LeNetParams, shape: ModelShape) -> LeNet5:
    """LeNet-5 for images of at least 16×16 (CIFAR-10 in the FedAR paper).

    >>> build_lenet5(LeNetParams(), ModelShape(1024, 10, (1, 32, 32))).n_classes
    10
    """
    return LeNet5(_image("lenet5", shape), shape.n_classes, params.ridge)


class CifarCNNParams(Strict):
    """Parameters of :class:`~fltheory.sim.cnn.AuthorsCifarCNN`."""

    ridge: float = Field(1e-2, ge=0.0, description="ridge penalty (ridge/2)·‖θ‖² of every F_k")
    cnn_hidden: int = Field(2048, ge=1, description="width of the hidden linear layer")


@MODELS.register("cifar_cnn", params=CifarCNNParams)
def build_cifar_cnn(params: CifarCNNParams, shape: ModelShape) -> AuthorsCifarCNN:
    """The CA-Fed authors' CIFAR10CNN: valid 5×5 convolutions 32, 64, then FC 2048 and FC.

    >>> build_cifar_cnn(CifarCNNParams(), ModelShape(3072, 10, (3, 32, 32))).n_params
    3353034
    """
    return AuthorsCifarCNN(
        _image("cifar_cnn", shape), shape.n_classes, params.cnn_hidden, params.ridge
    )


class ResNetParams(Strict):
    """Parameters of :class:`~fltheory.sim.cnn.ResNet18`."""

    ridge: float = Field(1e-2, ge=0.0, description="ridge penalty (ridge/2)·‖θ‖² of every F_k")
    resnet_width: int = Field(64, ge=1, description="channels of the first stage (64 standard)")
    resnet_groups: int = Field(2, ge=1, description="GroupNorm groups per layer (divides width)")


@MODELS.register("resnet18", params=ResNetParams)
def build_resnet18(params: ResNetParams, shape: ModelShape) -> ResNet18:
    """CIFAR-style ResNet-18 with GroupNorm (FedAR's SVHN model; GPU for full size).

    >>> build_resnet18(ResNetParams(), ModelShape(3072, 10, (3, 32, 32))).n_params
    11173962
    """
    return ResNet18(
        _image("resnet18", shape),
        shape.n_classes,
        params.resnet_width,
        params.resnet_groups,
        params.ridge,
    )
