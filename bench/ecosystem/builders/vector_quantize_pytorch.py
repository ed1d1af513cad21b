"""vector-quantize-pytorch: every quantizer module the package exports (one name per class; those
that need other modules given to them are left out), with its defaults and then once per option
that defaults to off, turned on (a boolean that defaults to False set True, a float that defaults to
0.0, such as a dropout rate or a loss weight, set to 0.1: k-means init, cosine similarity, EMA variants, codebook
losses...: the training-time machinery a VQ-VAE compiles).

Required sizes are given by name (width 32, 64 codes, FSQ levels 8-5-5, 2 quantizers, 2 scales);
an option that needs others to build fails with a build error and is not counted. Inputs are
chosen by running the module once eagerly on candidate inputs, in order, and keeping the first it
accepts: a batch of 2 sequences of 16 vectors as wide as the module (32, or the number of FSQ
levels), 2 feature maps of 32 channels, 4x4, then the sequences channel-first. Arguments a class
passes on to another through ``**kwargs`` are filled in when its constructor names them missing.
Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import inspect

from builders import Case, construct, first_accepted, module_classes, off_options, sized, turned_on

MODULE = "vector_quantize_pytorch"
SIZES = {"dim": 32, "codebook_size": 64, "levels": [8, 5, 5], "num_quantizers": 2, "scales": (1, 2),
         "codebook_dim": 16}
LEFT_OUT = ("Sequential",)  # a container, not a quantizer


def version() -> str:
    from importlib.metadata import version as installed

    return installed("vector-quantize-pytorch")


def classes() -> dict:
    import vector_quantize_pytorch as vq

    return module_classes((vq,), lambda name, cls: name not in LEFT_OUT and sized(cls, SIZES) is not None)


def options(cls) -> list[str]:
    """The constructor's options that default to off (``off_options`` spellings)."""
    return off_options((p.name, p.default) for p in inspect.signature(cls.__init__).parameters.values())


def models() -> list[str]:
    return sorted(f"{name}{suffix}" for name, cls in classes().items()
                  for suffix in ["", *(f"+{o}" for o in options(cls))])


def variants(model: str) -> list[str]:
    return ["base", "train"]


def candidates(width: int) -> list[tuple]:
    import torch

    return [(torch.randn(2, 16, width),), (torch.randn(2, 32, 4, 4),), (torch.randn(2, width, 16),)]


def build(model: str, variant: str) -> Case:
    name, _, option = model.partition("+")
    cls = classes()[name]
    kwargs = sized(cls, SIZES)
    if option:
        kwargs.update([turned_on(option)])
    module, _ = construct(cls, kwargs, SIZES)
    width = kwargs.get("dim") or len(kwargs.get("levels") or ()) or SIZES["dim"]
    return first_accepted(module, candidates(width), model, variant == "train")
