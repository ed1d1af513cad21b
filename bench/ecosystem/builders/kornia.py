"""kornia: every ``nn.Module`` of its image-processing, augmentation, feature and model packages
that builds from its constructor's defaults (``pretrained=False`` where it has the argument, so
nothing is downloaded).

Inputs are chosen by running the module once eagerly on candidate inputs, in order, and keeping the
first it accepts: a batch of 2 RGB images 32x32 in [0, 1], that image twice (a loss, a matcher),
the image with integer labels (segmentation losses), a grayscale batch, a batch of 2 volumes
(3D classes first), 64x64 images; a class accepting none fails with a build error.
Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import importlib
import inspect

from builders import Case, first_accepted

MODULE = "kornia"
SPACES = ("kornia.augmentation", "kornia.color", "kornia.contrib", "kornia.enhance", "kornia.feature",
          "kornia.filters", "kornia.geometry.subpix", "kornia.geometry.transform", "kornia.losses",
          "kornia.metrics", "kornia.morphology")


def version() -> str:
    import kornia

    return kornia.__version__


def buildable(cls) -> bool:
    """Its constructor needs no argument, and it is not an abstract base."""
    if "Base" in cls.__name__ or inspect.isabstract(cls):
        return False
    try:
        params = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "self"
               for p in params)


def classes() -> dict:
    import torch

    out = {}
    for space in SPACES:
        module = importlib.import_module(space)
        for name in dir(module):
            cls = getattr(module, name)
            if (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and cls.__module__.startswith("kornia.")
                    and buildable(cls)):
                out.setdefault(f"{space.removeprefix('kornia.')}.{name}", cls)
    return out


def models() -> list[str]:
    return sorted(classes())


def variants(model: str) -> list[str]:
    return ["base", "train"]


def candidates(model: str) -> list[tuple]:
    """Input tuples to try, in order."""
    import torch

    image = torch.rand(2, 3, 32, 32)
    volume = torch.rand(2, 3, 4, 16, 16)
    flat = [(image,), (image, torch.rand(2, 3, 32, 32)), (image, torch.randint(0, 3, (2, 32, 32))),
            (torch.rand(2, 1, 32, 32),), (torch.rand(2, 3, 64, 64),)]
    solid = [(volume,), (volume, torch.rand(2, 3, 4, 16, 16))]
    return solid + flat if "3D" in model or "3d" in model else flat + solid


def build(model: str, variant: str) -> Case:
    cls = classes()[model]
    params = inspect.signature(cls.__init__).parameters
    module = cls(**({"pretrained": False} if "pretrained" in params else {}))
    return first_accepted(module, candidates(model), model, variant == "train")
