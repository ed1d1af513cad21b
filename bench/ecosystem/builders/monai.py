"""MONAI: every network of ``monai.networks.nets`` (one name per class: its aliases are skipped)
whose required constructor arguments are all plain sizes this builder knows by name (spatial
dimensions, channels, strides, image and patch sizes, class counts); networks that need another
module, a config object or a search space are left out.

Networks are built 2D where they take ``spatial_dims`` (3D networks are slow on CPU), with one
input channel unless the constructor's default says otherwise, and small widths for the
arguments it must be given (arguments a subclass passes on through ``**kwargs`` are filled in when
the constructor names them missing; a network the first values do not fit is tried with the
``RETRIES``). Inputs are chosen by running the network once eagerly on candidate inputs, in order,
and keeping the first it accepts: a batch of 2 images 32x32, 64x64, 96x96, 256x256, then volumes 16
and 32 wide, then flat vectors; the forward's other required tensors are diffusion time steps, a
label map, or a second image like the first. A class accepting none fails with a build error.
Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import inspect

from builders import Case, first_accepted, module_classes
from builders import construct as construct_with

MODULE = "monai"
# Values for required constructor arguments, by name (sizes for 2D networks, 3 stages).
REQUIRED = {
    "spatial_dims": 2, "in_channels": 1, "out_channels": 2, "channels": (4, 8, 16), "strides": (2, 2),
    "in_shape": (1, 32, 32), "img_size": (32, 32), "image_size": (32, 32), "input_image_size": (32, 32),
    "patch_size": (8, 8), "num_classes": 2, "classes": 2, "num_channel_initial": 4, "depth": 2,
    "extract_levels": (0, 1, 2), "latent_size": 8, "label_nc": 2, "hidden_channels": (8, 8),
    "encode_channels": (8, 8), "decode_channels": (8, 8), "out_shape": (2,), "kernel_size": (3, 3, 3),
    "upsample_kernel_size": (2, 2), "unet_out_channels": 4, "final_conv_channels": (4,),
}
# Second tries, for the arguments whose required form differs between networks: strides as many
# as the channels (auto-encoders, DynUNet), an integer channel count (discriminators).
RETRIES = ({"strides": (1, 2, 2)}, {"channels": 8})
SIZES = ((32, 32), (64, 64), (96, 96), (256, 256), (16, 16, 16), (32, 32, 32), ())


def version() -> str:
    import monai

    return monai.__version__


def required(cls) -> list[str] | None:
    """The names of the constructor's required arguments; None when it has none we can give."""
    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return None
    names = [p.name for p in params if p.name != "self" and p.default is p.empty
             and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return names if all(n in REQUIRED for n in names) else None


def classes() -> dict:
    import monai.networks.nets as nets

    return module_classes((nets,), lambda name, cls: cls.__module__.startswith("monai.")
                          and not inspect.isabstract(cls) and required(cls) is not None)


def models() -> list[str]:
    return sorted(classes())


def variants(model: str) -> list[str]:
    return ["base", "train"]


def construct(cls):
    """The network, 2D where it takes ``spatial_dims``, and the arguments it was built with."""
    params = inspect.signature(cls.__init__).parameters
    kwargs = {n: REQUIRED[n] for n in required(cls)}
    if "spatial_dims" in params:
        kwargs["spatial_dims"] = 2
    first: Exception | None = None
    for retry in ({}, *RETRIES):
        tried = {**kwargs, **{k: v for k, v in retry.items() if k in kwargs}}
        if retry and tried == kwargs:
            continue
        try:
            return construct_with(cls, tried, REQUIRED)
        except Exception as exc:  # sizes this network does not take: the next retry
            first = first or exc
    raise first


def inputs(module, built: dict, size: tuple) -> tuple:
    """The image (or volume, or vector) of ``size`` and the forward's other required tensors."""
    import torch

    default = inspect.signature(type(module).__init__).parameters.get("in_channels")
    channels = built.get("in_channels", default.default if default is not None else 1)
    x = torch.rand(2, channels if isinstance(channels, int) else 1, *size)
    params = [p for p in inspect.signature(module.forward).parameters.values()
              if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    more = []
    for p in params[1:]:
        if "timestep" in p.name:
            more.append(torch.randint(0, 1000, (2,)))
        elif p.name == "seg":
            more.append(torch.rand(2, built.get("label_nc", 1), *size))
        else:
            more.append(torch.rand_like(x))
    return (x, *more)


def build(model: str, variant: str) -> Case:
    module, built = construct(classes()[model])
    return first_accepted(module, (inputs(module, built, size) for size in SIZES), model, variant == "train")
