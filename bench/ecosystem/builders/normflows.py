"""normflows: what a normalizing-flow user compiles, on vectors of width 4 (hidden 16, batch 2) and
4x8x8 images.

* ``flows.<Layer>`` and ``flows.<Layer>.inverse``: every flow layer of ``normflows.flows`` and
  ``normflows.transforms`` (``transforms.Logit``, ``transforms.Shift``), one name per class,
  ``forward`` and, where the class has one, ``inverse``, built with its required arguments given by
  name (MLP parameter maps, a Lipschitz MLP for ``Residual``, ``MaskedAffineFlow``'s ``t`` and ``s``,
  an alternating mask, 2 MCMC steps on two independent two-moons targets, ``Reverse`` of a MAF layer,
  ``Composite`` of a permutation and an LU linear layer); ``forward`` once more per option that
  defaults to off, turned on (``random_mask`` with plain blocks: MADE refuses it with residual ones),
  per condition it can take (``+context_features``, ``+num_context_channels``: a context of width 3)
  and per mode an example uses (``Permute`` ``swap``, ``Split``/``Merge`` ``checkerboard``, ``Planar``
  ``leaky_relu``, the only one with an inverse); ``Residual+brute_force`` on width 2, the only width
  it applies to;
* ``distributions.<module>.<Class>.<method>``: every ``nn.Module`` of ``normflows.distributions``
  (base distributions, targets, VAE encoders and decoders, the image prior, the MCMC proposal; the
  abstract bases left out, and the 2-D priors and ``LinearInterpolation``, which are not modules):
  ``forward``/``sample`` of 2 samples and ``log_prob``, conditioned on class labels or a context
  where the class takes one (``GlowBase``/``AffineGaussian`` once more with ``+num_classes``);
* ``core.<Model>.<architecture>.<method>``: the complete models assembled as the package's examples
  do, with 2 flow layers a level: Real NVP (masked affine + ActNorm), the README's affine coupling
  + swap, autoregressive neural spline + LU permutation, residual + ActNorm, planar + radial (reverse
  KL to ``TwoModes``), circular neural spline over a uniform-Gaussian base, a conditional spline flow,
  a class-conditional coupling flow, a 2-level Glow (``MultiscaleFlow``) and a planar-flow VAE;
  ``forward_kld``, ``log_prob``, ``sample`` and ``reverse_kld`` where they apply.

Before every call the inputs are restored (``transforms.Shift`` works in place, ``Residual`` sets
``requires_grad`` on them) and ``ActNorm`` layers re-armed: their data-dependent initialisation runs on
the first batch, as in a freshly built model, in the eager and the compiled call alike.
Variants: ``base`` (eval, inputs without gradients) and ``train`` (train mode, forward and backward;
layer and distribution inputs require gradients, data does not); ``sample`` calls and calls that
nothing can differentiate (``transforms``, parameter-free samplers): ``base`` only.
"""

from __future__ import annotations

import inspect

from builders import Case, off_options, turned_on

MODULE = "normflows"
WIDTH, HIDDEN, BATCH, CLASSES, CONTEXT, LATENT = 4, 16, 2, 4, 3, 2
IMAGE = (4, 8, 8)
CONDITIONS = {"context_features": CONTEXT, "num_context_channels": CONTEXT, "num_classes": CLASSES}
MODES = {"Permute": ("mode=swap",), "Split": ("mode=checkerboard",), "Merge": ("mode=checkerboard",),
         "Planar": ("act=leaky_relu",)}
INVERSE_WITH = {"Planar": "act=leaky_relu"}  # the option its inverse needs
WITH = {"random_mask": {"use_residual_blocks": False}}  # MADE takes random masks only without residual blocks
GIVEN = {"MaskedAffineFlow": ("t", "s")}  # optional arguments given, as the examples do
IMAGE_FLOWS = ("GlowBlock", "Invertible1x1Conv")
ARCHS = {  # architecture: core model class, methods
    "realnvp": ("NormalizingFlow", ("forward_kld", "log_prob", "sample")),
    "coupling": ("NormalizingFlow", ("forward_kld", "log_prob", "sample")),
    "nsf": ("NormalizingFlow", ("forward_kld", "log_prob", "sample")),
    "residual": ("NormalizingFlow", ("forward_kld", "log_prob", "sample")),
    "planar": ("NormalizingFlow", ("reverse_kld", "sample")),
    "circular": ("NormalizingFlow", ("forward_kld", "log_prob", "sample")),
    "conditional": ("ConditionalNormalizingFlow", ("forward_kld", "log_prob", "sample", "reverse_kld")),
    "classcond": ("ClassCondFlow", ("forward_kld", "log_prob", "sample")),
    "glow": ("MultiscaleFlow", ("forward_kld", "log_prob", "sample")),
    "vae": ("NormalizingFlowVAE", ("forward",)),
}
METHODS = {"base": ("forward", "log_prob"), "target": ("log_prob", "sample"), "prior": ("log_prob", "sample"),
           "encoder": ("forward", "log_prob"), "decoder": ("forward", "log_prob"),
           "mh_proposal": ("forward", "log_prob")}


def version() -> str:
    import normflows

    return normflows.__version__


def flow_classes() -> dict:
    """``flows.Name`` -> class of every flow layer the package exports."""
    import normflows as nf

    out = {}
    for space in (nf.flows, nf.transforms):
        for name in sorted(dir(space)):
            cls = getattr(space, name)
            if (inspect.isclass(cls) and issubclass(cls, nf.flows.Flow) and cls is not nf.flows.Flow
                    and cls not in out.values()):
                out[f"{space.__name__.split('.')[-1]}.{name}"] = cls
    return out


def parameters(cls) -> list:
    """The constructor's parameters (its base's when it passes ``*args`` on: ``ActNorm``)."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return parameters(cls.__mro__[1])
    return params


def options(cls) -> list[str]:
    params = parameters(cls)
    return [*off_options((p.name, p.default) for p in params),
            *(p.name for p in params if p.name in CONDITIONS and p.default is None),
            *MODES.get(cls.__name__, ())]


def option_kwargs(option: str) -> dict:
    if not option:
        return {}
    name, _, value = option.partition("=")
    if name in CONDITIONS:
        return {name: CONDITIONS[name]}
    try:
        return dict([turned_on(option)], **WITH.get(option, {}))
    except ValueError:  # a mode: a string
        return {name: value}


def targets():
    """The 4-dimensional target of the MCMC layers: two independent two-moons distributions."""
    from normflows.distributions import TwoIndependent, TwoMoons

    return TwoIndependent(TwoMoons(), TwoMoons())


def mask(width: int):
    import torch

    return (torch.arange(width) % 2).float()


def argument(name: str, width: int):
    """A constructor argument by name."""
    import torch
    import normflows as nf

    sizes = dict(shape=(width,), num_channels=width, features=width, hidden_features=HIDDEN,
                 num_input_channels=width, num_blocks=2, num_hidden_channels=HIDDEN, channels=IMAGE[0],
                 hidden_channels=HIDDEN, num_classes=CLASSES, ind=[0, 1], ind_circ=[0], steps=2)
    if name in sizes:
        return sizes[name]
    return {
        "param_map": lambda: nf.nets.MLP([width // 2, HIDDEN, width]),
        "b": lambda: mask(width),
        "t": lambda: nf.nets.MLP([width, HIDDEN, width]),
        "s": lambda: nf.nets.MLP([width, HIDDEN, width]),
        "net": lambda: nf.nets.LipschitzMLP([width, HIDDEN, width], lipschitz_const=0.9),
        "flow": lambda: nf.flows.MaskedAffineAutoregressive(width, HIDDEN),
        "flows": lambda: [nf.flows.Permute(width), nf.flows.LULinearPermute(width)],
        "target": targets,
        "proposal": lambda: nf.distributions.DiagGaussianProposal((width,), 0.1),
        "log_step_size": lambda: torch.full((width,), -2.0),
        "log_mass": lambda: torch.zeros(width),
    }[name]()


def distributions() -> dict:
    """``module.Class`` -> (factory, sample shape, condition, options) of every distribution module."""
    import numpy as np
    import normflows as nf

    D = nf.distributions
    image = np.outer(np.hanning(8), np.hanning(8))
    return {
        "base.DiagGaussian": (lambda: D.DiagGaussian(WIDTH), (WIDTH,), None, ()),
        "base.ConditionalDiagGaussian": (lambda: D.base.ConditionalDiagGaussian(
            WIDTH, nf.nets.MLP([CONTEXT, HIDDEN, 2 * WIDTH])), (WIDTH,), "context", ()),
        "base.Uniform": (lambda: D.base.Uniform(WIDTH), (WIDTH,), None, ()),
        "base.UniformGaussian": (lambda: D.UniformGaussian(WIDTH, [0, 1]), (WIDTH,), None, ()),
        "base.ClassCondDiagGaussian": (lambda: D.ClassCondDiagGaussian(WIDTH, CLASSES), (WIDTH,), "y", ()),
        "base.GlowBase": (lambda **kw: D.GlowBase(IMAGE, **kw), IMAGE, None, ("num_classes",)),
        "base.AffineGaussian": (lambda **kw: D.AffineGaussian(IMAGE, (IMAGE[0], 1, 1), **kw), IMAGE, None,
                                ("num_classes",)),
        "base.GaussianMixture": (lambda: D.GaussianMixture(3, WIDTH), (WIDTH,), None, ()),
        "base.GaussianPCA": (lambda: D.GaussianPCA(WIDTH, latent_dim=LATENT), (WIDTH,), None, ()),
        "target.TwoMoons": (D.TwoMoons, (2,), None, ()),
        "target.CircularGaussianMixture": (D.CircularGaussianMixture, (2,), None, ()),
        "target.RingMixture": (D.RingMixture, (2,), None, ()),
        "target.TwoIndependent": (targets, (4,), None, ()),
        "target.ConditionalDiagGaussian": (D.target.ConditionalDiagGaussian, (WIDTH,), "loc_scale", ()),
        "prior.ImagePrior": (lambda: D.ImagePrior(image), (2,), None, ()),
        "encoder.Dirac": (D.Dirac, (WIDTH,), None, ()),
        "encoder.Uniform": (D.encoder.Uniform, (WIDTH,), None, ()),
        "encoder.ConstDiagGaussian": (lambda: D.encoder.ConstDiagGaussian([0.0] * LATENT, [1.0] * LATENT),
                                      (LATENT,), None, ()),
        "encoder.NNDiagGaussian": (lambda: D.NNDiagGaussian(nf.nets.MLP([WIDTH, HIDDEN, 2 * LATENT])),
                                   (LATENT,), None, ()),
        "decoder.NNDiagGaussianDecoder": (lambda: D.NNDiagGaussianDecoder(
            nf.nets.MLP([LATENT, HIDDEN, 2 * WIDTH])), (LATENT,), None, ()),
        "decoder.NNBernoulliDecoder": (lambda: D.NNBernoulliDecoder(nf.nets.MLP([LATENT, HIDDEN, WIDTH])),
                                       (LATENT,), None, ()),
        "mh_proposal.DiagGaussianProposal": (lambda: D.DiagGaussianProposal((WIDTH,), 0.1), (WIDTH,), None,
                                             ()),
    }


def has_inverse(cls) -> bool:
    from normflows.flows import Flow

    return cls.inverse is not Flow.inverse


def models() -> list[str]:
    out = []
    for name, cls in flow_classes().items():
        out.append(name)
        if has_inverse(cls):
            needs = INVERSE_WITH.get(cls.__name__)
            out.append(f"{name}.inverse+{needs}" if needs else f"{name}.inverse")
        out += [f"{name}+{o}" for o in options(cls)]
    for name, (_, _, _, opts) in distributions().items():
        for method in METHODS[name.split(".")[0]]:
            out += [f"distributions.{name}.{method}{suffix}" for suffix in ["", *(f"+{o}" for o in opts)]]
    for arch, (cls, methods) in ARCHS.items():
        out += [f"core.{cls}.{arch}.{method}" for method in methods]
    return sorted(out)


def flow(cls, option: str, width: int):
    """The layer built from its required arguments (and ``GIVEN`` ones) by name, ``option`` on."""
    kwargs = {p.name: argument(p.name, width) for p in parameters(cls)
              if p.default is p.empty or p.name in GIVEN.get(cls.__name__, ())}
    return cls(**kwargs, **option_kwargs(option))


def flow_inputs(cls, inverse: bool, option: str, width: int, grad: bool) -> tuple[tuple, dict]:
    """A batch the layer takes in the direction called: vectors, images, halves of a split."""
    import torch

    def randn(*shape):
        return torch.randn(BATCH, *shape).requires_grad_(grad)

    name = cls.__name__
    channels, height, image_width = IMAGE
    if name in ("Split", "Merge"):
        half = ((channels, height, image_width // 2) if "checkerboard" in option
                else (channels // 2, height, image_width))
        joined = (name == "Merge") != inverse
        return ([randn(*half), randn(*half)] if joined else randn(*IMAGE),), {}
    if name == "Squeeze":
        return (randn(*IMAGE) if inverse else randn(4 * channels, height // 2, image_width // 2),), {}
    if name in IMAGE_FLOWS:
        return (randn(*IMAGE),), {}
    if name == "AffineCoupling":
        return ([randn(width // 2), randn(width // 2)],), {}
    if name == "CCAffineConst":
        labels = torch.arange(BATCH) % CLASSES
        return (randn(width), torch.nn.functional.one_hot(labels, CLASSES).float()), {}
    if name == "Logit" and inverse:
        return (torch.rand(BATCH, width),), {}
    context = {"context": randn(CONTEXT)} if option in CONDITIONS else {}
    return (randn(width),), context


def condition(kind: str | None, grad: bool) -> dict:
    """Class labels, a context, or a target's context (means, then positive scales)."""
    import torch

    if kind == "y":
        return {"y": torch.arange(BATCH) % CLASSES}
    if kind == "context":
        return {"context": torch.randn(BATCH, CONTEXT).requires_grad_(grad)}
    if kind == "loc_scale":
        return {"context": torch.cat([torch.randn(BATCH, WIDTH), torch.rand(BATCH, WIDTH) + 0.5], 1)}
    return {}


def distribution_case(name: str, method: str, option: str, grad: bool) -> tuple:
    """The distribution, and the arguments of ``method`` by the kind of distribution."""
    import torch

    factory, shape, kind, _ = distributions()[name]
    module = factory(**option_kwargs(option))
    kwargs = condition("y" if option == "num_classes" else kind, grad)
    z = torch.randn(BATCH, *shape).requires_grad_(grad)
    x = torch.randn(BATCH, WIDTH).requires_grad_(grad)
    sub = name.split(".")[0]
    if sub == "encoder":  # q(z | x): 2 samples a data point
        z = torch.randn(BATCH, BATCH, *shape).requires_grad_(grad)
        args = (x, BATCH) if method == "forward" else (z, x)
    elif sub == "decoder":  # p(x | z), x in [0, 1]
        args = (z,) if method == "forward" else (torch.rand(BATCH, WIDTH), z)
    elif sub == "mh_proposal":
        args = (z,) if method == "forward" else (z, torch.randn(BATCH, *shape))
    else:  # forward/sample draw 2 samples
        args = (BATCH,) if method in ("forward", "sample") else (z,)
    return module, args, kwargs


def architecture(arch: str):
    """A complete model as the package's examples assemble it; its data and condition."""
    import math

    import torch
    import normflows as nf

    F, D = nf.flows, nf.distributions
    x = torch.randn(BATCH, WIDTH)
    if arch == "realnvp":
        flows = [layer for b in (mask(WIDTH), 1 - mask(WIDTH)) for layer in (
            F.MaskedAffineFlow(b, argument("t", WIDTH), argument("s", WIDTH)), F.ActNorm(WIDTH))]
        return nf.NormalizingFlow(D.DiagGaussian(WIDTH), flows), x, {}
    if arch == "coupling":
        flows = [layer for _ in range(2) for layer in (
            F.AffineCouplingBlock(nf.nets.MLP([WIDTH // 2, HIDDEN, WIDTH], init_zeros=True)),
            F.Permute(WIDTH, mode="swap"))]
        return nf.NormalizingFlow(D.DiagGaussian(WIDTH), flows), x, {}
    if arch == "nsf":
        flows = [layer for _ in range(2) for layer in (
            F.AutoregressiveRationalQuadraticSpline(WIDTH, 2, HIDDEN), F.LULinearPermute(WIDTH))]
        return nf.NormalizingFlow(D.DiagGaussian(WIDTH, trainable=False), flows), x, {}
    if arch == "residual":
        flows = [layer for _ in range(2) for layer in (
            F.Residual(nf.nets.LipschitzMLP([WIDTH, HIDDEN, WIDTH], init_zeros=True, lipschitz_const=0.9),
                       reduce_memory=True), F.ActNorm(WIDTH))]
        return nf.NormalizingFlow(D.DiagGaussian(WIDTH, trainable=False), flows), x, {}
    if arch == "planar":
        flows = [F.Planar((2,)), F.Radial((2,))]
        return nf.NormalizingFlow(D.DiagGaussian(2), flows, D.TwoModes(2, 0.1)), x[:, :2], {}
    if arch == "circular":  # the first coordinate an angle
        base = D.UniformGaussian(2, [0], torch.tensor([2 * math.pi, 1.0]))
        flows = [F.CircularAutoregressiveRationalQuadraticSpline(2, 1, HIDDEN, [0], tail_bound=torch.tensor(
            [math.pi, 5.0]), permute_mask=True) for _ in range(2)]
        angles = (torch.rand(BATCH, 1) * 2 - 1) * math.pi
        return nf.NormalizingFlow(base, flows), torch.cat([angles, torch.randn(BATCH, 1)], 1), {}
    if arch == "conditional":
        flows = [layer for _ in range(2) for layer in (
            F.AutoregressiveRationalQuadraticSpline(WIDTH, 2, HIDDEN, num_context_channels=2 * WIDTH),
            F.LULinearPermute(WIDTH))]
        model = nf.ConditionalNormalizingFlow(D.DiagGaussian(WIDTH, trainable=False), flows,
                                              D.target.ConditionalDiagGaussian())
        return model, x, condition("loc_scale", False)
    if arch == "classcond":
        flows = [layer for _ in range(2) for layer in (
            F.AffineCouplingBlock(nf.nets.MLP([WIDTH // 2, HIDDEN, WIDTH])), F.Permute(WIDTH, mode="swap"))]
        return nf.ClassCondFlow(D.ClassCondDiagGaussian(WIDTH, CLASSES), flows), x, condition("y", False)
    if arch == "glow":  # 2 levels of 1 Glow block, as the Glow example builds them
        levels, (channels, height, image_width) = 2, IMAGE
        q0, merges, flows = [], [], []
        for i in range(levels):
            flows.append([F.GlowBlock(channels * 2 ** (levels + 1 - i), HIDDEN), F.Squeeze()])
            scale = 2 ** (levels - i)
            latent = (channels * scale * (2 if i == 0 else 1), height // scale, image_width // scale)
            merges += [F.Merge()] if i > 0 else []
            q0.append(D.ClassCondDiagGaussian(latent, CLASSES))
        return nf.MultiscaleFlow(q0, flows, merges), torch.rand(BATCH, *IMAGE), condition("y", False)
    encoder = D.NNDiagGaussian(nf.nets.MLP([WIDTH, HIDDEN, 2 * LATENT]))  # vae, as the VAE example
    decoder = D.NNBernoulliDecoder(nf.nets.MLP([LATENT, HIDDEN, WIDTH]))
    prior = torch.distributions.MultivariateNormal(torch.zeros(LATENT), torch.eye(LATENT))
    model = nf.NormalizingFlowVAE(prior, encoder, [F.Planar((LATENT,)) for _ in range(2)], decoder)
    return model, torch.rand(BATCH, WIDTH), {}


def tensors(value) -> list:
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [t for v in value for t in tensors(v)] if isinstance(value, (list, tuple)) else []


def restorer(module, args: tuple, kwargs: dict):
    """A reset that restores the inputs (values and ``requires_grad``) and re-arms ``ActNorm``."""
    import torch
    from normflows.flows import ActNorm

    inputs = tensors([args, kwargs])
    saved = [(t.detach().clone(), t.requires_grad) for t in inputs]

    def reset():
        with torch.no_grad():
            for t, (value, grad) in zip(inputs, saved):
                t.copy_(value)
                t.requires_grad_(grad)
        for child in module.modules():
            if isinstance(child, ActNorm):
                child.data_dep_init_done = torch.tensor(0.0)

    return reset


def call_parts(model: str, grad: bool) -> tuple:
    """(module, method name, args, kwargs) of a model."""
    name, _, option = model.partition("+")
    kind, *rest = name.split(".")
    if kind in ("flows", "transforms"):
        inverse = rest[-1] == "inverse"
        cls = flow_classes()[f"{kind}.{rest[0]}"]
        width = 2 if option == "brute_force" else WIDTH
        grad = grad and kind == "flows"  # a transform is applied to data
        args, kwargs = flow_inputs(cls, inverse, option, width, grad)
        return flow(cls, option, width), "inverse" if inverse else "forward", args, kwargs
    if kind == "distributions":
        module, args, kwargs = distribution_case(".".join(rest[:2]), rest[2], option, grad)
        return module, rest[2], args, kwargs
    module, data, kwargs = architecture(rest[1])
    method = rest[2]
    if method in ("sample", "reverse_kld"):
        return module, method, (BATCH,), kwargs
    return module, method, (data, BATCH) if method == "forward" else (data,), kwargs


def variants(model: str) -> list[str]:
    """``train`` too unless the call samples or nothing in it can take a gradient."""
    module, method, args, kwargs = call_parts(model, True)
    learns = (any(p.requires_grad for p in module.parameters())
              or any(t.requires_grad for t in tensors([args, kwargs])))
    return ["base", "train"] if learns and method != "sample" else ["base"]


def build(model: str, variant: str) -> Case:
    train = variant == "train"
    module, method, args, kwargs = call_parts(model, train)
    module.train(train)
    fn = module if method == "forward" else getattr(module, method)
    return Case(fn, args, kwargs, train=train, reset=restorer(module, args, kwargs))
