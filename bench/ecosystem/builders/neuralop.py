"""neuraloperator (``neuralop``): the neural operators of scientific machine learning, tiny (width 8,
4 Fourier modes a dimension, 2 layers, batch 2, 16x16 grids), on CPU.

* ``models.<Model>``: every model ``neuralop.models`` exports (FNO, TFNO, UNO, UQNO over an FNO,
  FNOGNO, GINO, CODANO; SFNO and LocalNO need torch-harmonics, whose wheels are built for other
  torch versions, so the package leaves them out), built as the package's tests build them (3
  input channels, 2 output channels; UNO with a down- and an up-scaling layer and linear channel-MLP
  skips; FNOGNO and GINO on 2-D point clouds of 20 points with a 16x16 (GINO: 8x8) latent grid, the
  PyTorch neighbour search and reduction, as without open3d and torch_scatter; CODANO on 3
  variables); once with defaults and once per constructor option that defaults to off, turned on
  (``+name``: a boolean that defaults to False set True, a float that defaults to 0.0 set to 0.1;
  fixed rank modes with a Tucker factorization, horizontal skips with their map, positional
  encodings with variable ids), and once per choice the tests parametrize or the constructor
  documents (``+name=value``: norms, skips, stabilizer, domain padding, tensor factorizations and
  their implementation, resolution scaling, positional embeddings, GNO transforms and weighting
  function, AdaIN conditioning, latent features, static channels, attention and layer scalings);
  FNO once more 1-D (16 points) and 3-D (8x8x8);
* ``layers.<Layer>``: every ``nn.Module`` of ``neuralop.layers`` (one name per class, the legacy
  ``SpectralConv`` as ``legacy_spectral_convolution.SpectralConv``; the abstract bases, wrappers of
  another given module, ``FCGram``, whose matrices the wheel does not ship, and the torch-harmonics
  convolutions left out) built from sizes known by name, on the first candidate
  input it accepts (2 maps of 8 channels 16x16, the same 1-D, point features, volumes 8x8x8) or the
  inputs its forward names (point clouds and neighbourhoods for the graph layers, a grid width, a
  dimension); ``DomainPadding`` through ``pad`` (its ``forward`` returns nothing);
* ``losses.<Loss>``: the data losses of ``neuralop.losses`` (``loss(pred, truth)`` on 2 fields of
  1 channel 16x16, ``d=2``; the quantile loss with ``alpha=0.1``) and Burgers' equation loss on a
  16x16 space-time field.

A combination the package rejects fails with a build error and is not counted. Variants: ``base``
(eval) and ``train`` (train mode, forward and backward; a layer's input and a loss's prediction
require gradients); ``NeighborSearch`` (integer neighbourhoods): ``base`` only.
"""

from __future__ import annotations

import inspect

from builders import Case, first_accepted, off_options, turned_on

MODULE = "neuralop"
BATCH, WIDTH, HIDDEN, MODES, SIDE, IN, OUT, POINTS = 2, 8, 8, 4, 16, 3, 2, 20
MODELS = ("FNO", "TFNO", "UNO", "UQNO", "FNOGNO", "GINO", "CODANO")
# Tiny sizes for each model's constructor, as its test gives them.
FNO_SIZES = dict(n_modes=(MODES, MODES), in_channels=IN, out_channels=OUT, hidden_channels=HIDDEN, n_layers=2)
GNO_SIZES = dict(in_channels=IN, out_channels=OUT, gno_coord_dim=2, projection_channel_ratio=2,
                 fno_n_modes=(MODES, MODES), fno_hidden_channels=HIDDEN, fno_lifting_channel_ratio=2,
                 fno_n_layers=2, gno_embed_channels=8, gno_use_open3d=False, gno_use_torch_scatter=False)
SIZES = {
    "FNO": FNO_SIZES,
    "TFNO": FNO_SIZES,
    "UNO": dict(in_channels=IN, out_channels=OUT, hidden_channels=HIDDEN, lifting_channels=8,
                projection_channels=8, n_layers=3, channel_mlp_skip="linear", uno_out_channels=[8, 8, 8],
                uno_n_modes=[[MODES, MODES]] * 3, uno_scalings=[[1, 1], [0.5, 0.5], [2, 2]]),
    "UQNO": {},
    "FNOGNO": dict(GNO_SIZES, gno_radius=0.2, gno_channel_mlp_hidden_layers=[16, 16]),
    "GINO": dict(GNO_SIZES, in_gno_radius=0.3, out_gno_radius=0.3, fno_in_channels=IN,
                 in_gno_channel_mlp_hidden_layers=[16, 16], out_gno_channel_mlp_hidden_layers=[16, 16]),
    "CODANO": dict(output_variable_codimension=1, hidden_variable_codimension=2, lifting_channels=8,
                   projection_channels=8, n_layers=2, n_modes=[[MODES, MODES]] * 2, n_heads=[2, 2],
                   attention_scaling_factors=[1, 1], per_layer_scaling_factors=[[1, 1], [1, 1]],
                   positional_encoding_dim=4, positional_encoding_modes=[MODES, MODES]),
}
VARIABLES = ["a", "b", "c"]  # CODANO's variables (its positional encoding is per variable id)
# What an option needs besides itself (a skip needs its map, an encoding its variable ids).
WITH = {
    "use_horizontal_skip_connection": {"horizontal_skips_map": {1: 0}},
    "use_positional_encoding": {"variable_ids": VARIABLES},
    "fixed_rank_modes": {"factorization": "tucker"},
    "fno_fixed_rank_modes": {"fno_factorization": "tucker"},
}
SKIP = {"verbose", "gno_use_open3d", "gno_use_torch_scatter"}  # printing; extensions not installed
FACTORIZED = {"factorization=tucker": {"factorization": "tucker"}, "factorization=cp": {"factorization": "cp"},
              "factorization=tt": {"factorization": "tt"}, "factorization=dense": {"factorization": "dense"},
              "implementation=reconstructed": {"factorization": "tucker", "implementation": "reconstructed"}}
FNO_CHOICES = {
    "norm=group_norm": {"norm": "group_norm"}, "norm=instance_norm": {"norm": "instance_norm"},
    "stabilizer=tanh": {"stabilizer": "tanh"}, "domain_padding=0.25": {"domain_padding": 0.25},
    "positional_embedding=None": {"positional_embedding": None},
    "fno_skip=soft-gating": {"fno_skip": "soft-gating"}, "fno_skip=identity": {"fno_skip": "identity"},
    "channel_mlp_skip=linear": {"channel_mlp_skip": "linear"}, "use_channel_mlp=False": {"use_channel_mlp": False},
    "channel_mlp_dropout=0.1": {"channel_mlp_dropout": 0.1},
    "resolution_scaling_factor=2": {"resolution_scaling_factor": 2},
    "max_n_modes=(2,2)": {"max_n_modes": (2, 2)},
    **FACTORIZED,
}
CHOICES = {  # the choices each model's test parametrizes, or its constructor documents
    "FNO": FNO_CHOICES,
    "TFNO": {k: v for k, v in FACTORIZED.items() if k != "factorization=tucker"},
    "UNO": {"domain_padding=0.2": {"domain_padding": 0.2},
            "horizontal_skips_map={2:0}": {"horizontal_skips_map": {2: 0}},
            "norm=instance_norm": {"norm": "instance_norm"}, "channel_mlp_dropout=0.1": {"channel_mlp_dropout": 0.1},
            "factorization=tucker": {"factorization": "tucker"}},
    "UQNO": {},
    "FNOGNO": {
        "gno_transform_type=nonlinear": {"gno_transform_type": "nonlinear"},
        "gno_transform_type=nonlinear_kernelonly": {"gno_transform_type": "nonlinear_kernelonly"},
        "gno_pos_embed_type=None": {"gno_pos_embed_type": None},
        "fno_norm=ada_in": {"fno_norm": "ada_in", "fno_ada_in_features": 4},
        "fno_channel_mlp_dropout=0.1": {"fno_channel_mlp_dropout": 0.1},
        "fno_factorization=tucker": {"fno_factorization": "tucker"},
    },
    "GINO": {
        "gno_transform_type=nonlinear": {"in_gno_transform_type": "nonlinear", "out_gno_transform_type": "nonlinear"},
        "gno_transform_type=nonlinear_kernelonly": {"in_gno_transform_type": "nonlinear_kernelonly",
                                                    "out_gno_transform_type": "nonlinear_kernelonly"},
        "gno_pos_embed_type=None": {"in_gno_pos_embed_type": None, "out_gno_pos_embed_type": None},
        "gno_weighting_function=half_cos": {"gno_weighting_function": "half_cos"},
        "latent_feature_channels=2": {"latent_feature_channels": 2},
        "fno_norm=ada_in": {"fno_norm": "ada_in"},
        "out_gno_tanh=True": {"out_gno_tanh": True},
        "fno_channel_mlp_dropout=0.1": {"fno_channel_mlp_dropout": 0.1},
    },
    "CODANO": {"static_channel_dim=2": {"static_channel_dim": 2},
               "attention_scaling_factors=0.5": {"attention_scaling_factors": [0.5, 0.5]},
               "per_layer_scaling_factors=0.5,2": {"per_layer_scaling_factors": [[0.5, 0.5], [2, 2]]}},
}
DIMS = {"1d": ((MODES * 2,), (SIDE,)), "3d": ((MODES,) * 3, (8, 8, 8))}
# Values for required layer constructor arguments, by name.
KNOWN = {"in_channels": WIDTH, "out_channels": WIDTH, "n_modes": (MODES, MODES), "n_dim": 2, "n_heads": 2,
         "head_n_channels": 4, "layers": [WIDTH, 16, WIDTH], "dim": WIDTH, "embed_dim": 4, "num_features": WIDTH,
         "domain_padding": 0.25, "in_features": WIDTH, "kernel_size": 1, "coord_dim": 2, "radius": 0.3,
         "num_frequencies": 4}
# Layer arguments that differ from ``KNOWN`` (dimensions, the neighbour search open3d would do in 3-D only).
LAYER_ARGS = {"SpectralConv1d": {"n_modes": (MODES,)}, "SpectralConv3d": {"n_modes": (MODES,) * 3},
              "GNOBlock": {"use_open3d_neighbor_search": False},
              "IntegralTransform": {"channel_mlp_layers": [4, 16, WIDTH]}}
METHOD = {"DomainPadding": "pad"}  # its ``forward`` pads and returns None: the models call ``pad``
# Abstract bases and wrappers of a given module; FCGram reads matrices the wheel does not ship.
LEFT_OUT = {"BaseSpectralConv", "Embedding", "SubModule", "SubConv", "ComplexValued", "FourierContinuation", "FCGram"}
BASE_ONLY = {"layers.NeighborSearch"}  # integer neighbourhoods: nothing to differentiate
LOSSES = ("LpLoss", "H1Loss", "HdivLoss", "MSELoss", "PointwiseQuantileLoss", "BurgersEqnLoss")


def version() -> str:
    import neuralop

    return neuralop.__version__


def model_class(name: str):
    import neuralop.models

    return getattr(neuralop.models, name)


def parameters(cls) -> list:
    """The constructor's parameters (its base's when it passes ``*args`` on: ``TFNO``)."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return parameters(cls.__mro__[1])
    return params


def options(name: str) -> dict:
    """Model-name suffix -> constructor arguments, for each option of model ``name``."""
    if name == "UQNO":
        return {}
    out = {}
    for option in off_options((p.name, p.default) for p in parameters(model_class(name)) if p.name not in SKIP):
        out[option] = dict([turned_on(option)], **WITH.get(option, {}))
    out.update(CHOICES[name])
    return out


def layer_classes() -> dict:
    """Name -> class of the layers; a name two modules define (``SpectralConv``, also in
    ``legacy_spectral_convolution``) is the later module's, the earlier one's is ``module.Name``."""
    import importlib
    import pkgutil

    import neuralop.layers
    import torch

    out, seen = {}, set()
    for info in pkgutil.iter_modules(neuralop.layers.__path__):
        if info.name in ("discrete_continuous_convolution", "local_no_block", "spherical_convolution"):
            continue  # torch-harmonics
        module = importlib.import_module(f"neuralop.layers.{info.name}")
        for name, cls in sorted(vars(module).items()):
            if (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and cls.__module__ == module.__name__
                    and name not in LEFT_OUT and cls not in seen and not inspect.isabstract(cls)):
                seen.add(cls)
                if name in out:
                    earlier = out.pop(name)
                    out[f"{earlier.__module__.rpartition('.')[2]}.{name}"] = earlier
                out[name] = cls
    return out


def models() -> list[str]:
    out = []
    for name in MODELS:
        out += [f"models.{name}", *(f"models.{name}+{o}" for o in options(name))]
    out += [f"models.FNO.{dim}" for dim in DIMS]
    out += [f"layers.{name}" for name in layer_classes()]
    out += [f"losses.{name}" for name in LOSSES]
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base"] if model in BASE_ONLY else ["base", "train"]


def grid(side: int):
    """A ``side`` x ``side`` grid of 2-D coordinates on the unit square, coordinates last."""
    import torch

    axis = torch.linspace(0, 1, side)
    return torch.stack(torch.meshgrid(axis, axis, indexing="xy"), dim=-1)


def build_model(model: str, train: bool) -> Case:
    import torch

    base, _, option = model.removeprefix("models.").partition("+")
    name, _, dim = base.partition(".")
    cls = model_class(name)
    kwargs = dict(SIZES[name])
    if option:
        kwargs.update(options(name)[option])
    shape = (SIDE, SIDE)
    if dim:
        kwargs["n_modes"], shape = DIMS[dim]
    if name == "UQNO":
        module = cls(base_model=model_class("FNO")(**FNO_SIZES))
    else:
        module = cls(**kwargs)
    module.train(train)
    call_kwargs = {}
    if name in ("FNO", "TFNO", "UNO", "UQNO"):
        x = torch.randn(BATCH, IN, *shape, dtype=torch.cfloat if kwargs.get("complex_data") else torch.float)
        args = (x,)
    elif name == "FNOGNO":
        f = torch.randn(BATCH, SIDE, SIDE, IN) if kwargs.get("gno_batched") else torch.randn(SIDE, SIDE, IN)
        args = (grid(SIDE), torch.rand(POINTS, 2), f)
        if kwargs.get("fno_norm") == "ada_in":
            call_kwargs["ada_in"] = torch.randn(1)
    elif name == "GINO":
        call_kwargs = dict(input_geom=torch.rand(POINTS, 2), latent_queries=grid(8),
                           output_queries=torch.rand(POINTS, 2), x=torch.randn(BATCH, POINTS, IN))
        if kwargs.get("latent_feature_channels"):
            call_kwargs["latent_features"] = torch.randn(BATCH, 8, 8, kwargs["latent_feature_channels"])
        if kwargs.get("fno_norm") == "ada_in":
            call_kwargs["ada_in"] = torch.randn(1)
        args = ()
    else:  # CODANO
        channels = kwargs.get("static_channel_dim")
        static = torch.randn(BATCH, channels, SIDE, SIDE) if channels else None
        args = (torch.randn(BATCH, len(VARIABLES), SIDE, SIDE), static, kwargs.get("variable_ids"))
    return Case(module, args, call_kwargs, train=train)


def layer_arguments(cls) -> dict:
    """Its constructor arguments by name: every required one (a TypeError naming one not known), the
    known ones it leaves None, and ``LAYER_ARGS``."""
    out = {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is p.empty and p.name not in KNOWN:
            raise TypeError(f"{cls.__name__}: no value for required argument {p.name!r}")
        if p.name in KNOWN and (p.default is p.empty or p.default is None):
            out[p.name] = KNOWN[p.name]
    return dict(out, **LAYER_ARGS.get(cls.__name__, {}))


def layer_inputs(name: str, module) -> list[tuple]:
    """Candidate argument tuples for layer ``name``'s forward, in order."""
    import torch

    maps = torch.randn(BATCH, WIDTH, SIDE, SIDE)
    points = torch.rand(POINTS, 2)
    if name == "GNOBlock":
        return [(points, torch.rand(10, 2), torch.randn(POINTS, WIDTH))]
    if name == "NeighborSearch":
        return [(points, torch.rand(10, 2), 0.3)]
    if name == "IntegralTransform":
        from neuralop.layers.neighbor_search import NeighborSearch

        queries = torch.rand(10, 2)
        neighbors = NeighborSearch(use_open3d=False)(points, queries, 0.3)
        return [(points, neighbors, queries, torch.randn(POINTS, WIDTH))]
    if name == "AttentionKernelIntegral":
        return [(torch.randn(BATCH, POINTS, WIDTH), torch.rand(BATCH, POINTS, 2))]
    if name == "RotaryEmbedding2D":
        return [(torch.rand(BATCH, POINTS),)]
    if name == "FiniteDifferenceConvolution":
        return [(maps, 1.0 / SIDE)]
    if name in ("FCGram", "FCLegendre", "FourierContinuation"):
        return [(torch.randn(BATCH, WIDTH, SIDE), 1), (torch.randn(BATCH, WIDTH, SIDE, SIDE), 2)]
    if name == "AdaIN":
        module.set_embedding(torch.randn(KNOWN["embed_dim"]))
    return [(maps,), (torch.randn(BATCH, WIDTH, SIDE),), (torch.randn(BATCH, POINTS, WIDTH),),
            (torch.randn(POINTS, WIDTH),), (torch.randn(BATCH, WIDTH, 8, 8, 8),)]


def needing_grad(args: tuple, train: bool) -> tuple:
    """``args`` with their floating tensors requiring gradients in training (a layer's input does)."""
    import torch

    return tuple(a.requires_grad_(train) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def build_layer(model: str, train: bool) -> Case:
    name = model.removeprefix("layers.")
    cls = layer_classes()[name]
    module = cls(**layer_arguments(cls))
    case = first_accepted(module, (needing_grad(args, train) for args in layer_inputs(name, module)), model, train)
    if name in METHOD:
        case.fn = getattr(module, METHOD[name])
    return case


def build_loss(model: str, train: bool) -> Case:
    import torch
    from neuralop import losses

    name = model.removeprefix("losses.")
    pred = torch.randn(BATCH, 1, SIDE, SIDE, requires_grad=train)
    truth = torch.randn(BATCH, 1, SIDE, SIDE)
    if name == "BurgersEqnLoss":
        return Case(losses.BurgersEqnLoss(), (pred,), train=train)
    if name == "PointwiseQuantileLoss":
        return Case(losses.data_losses.PointwiseQuantileLoss(alpha=0.1), (pred, truth), train=train)
    cls = getattr(losses.data_losses, name)
    kwargs = {"d": 2} if "d" in inspect.signature(cls.__init__).parameters else {}
    return Case(cls(**kwargs), (pred, truth), train=train)


def build(model: str, variant: str) -> Case:
    train = variant == "train"
    kind = model.partition(".")[0]
    if kind == "models":
        return build_model(model, train)
    if kind == "layers":
        return build_layer(model, train)
    return build_loss(model, train)
