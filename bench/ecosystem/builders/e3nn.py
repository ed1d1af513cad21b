"""e3nn: equivariant neural networks (irreducible representations of O(3), tensor products,
spherical harmonics, gated nonlinearities, point-cloud and voxel networks), tiny (irreps like
``4x0e + 2x1o``, 6 rows or nodes, l up to 2), on CPU, the package's default code generation (fx
graph modules, not TorchScript).

* ``o3.<Module>``: every ``nn.Module`` of ``e3nn.o3`` and ``e3nn.o3.experimental`` (``Linear``,
  ``TensorProduct``, ``FullyConnectedTensorProduct``, ``FullTensorProduct``(``v2``),
  ``ElementwiseTensorProduct``(``v2``), ``TensorSquare``, ``Norm``, ``SphericalHarmonics``(``AlphaBeta``),
  ``ReducedTensorProducts``, ``ToS2Grid``/``FromS2Grid``, ``SO3Grid`` through ``to_grid`` and
  ``from_grid``, ``Legendre``) built from small irreps as the package's docstrings and tests build
  them; ``TensorProduct`` once per connection mode (``uvw``, ``uvu``, ``uvv``, ``uuw``, ``uuu``,
  ``uvuv``; its instructions every path of the two inputs' irreps up to l = 2, the ``uu`` modes
  between equal multiplicities);
* ``nn.<Module>``: every ``nn.Module`` of ``e3nn.nn`` (``Activation``, ``BatchNorm``, ``Dropout``,
  ``Extract``, ``ExtractIr``, ``FullyConnectedNet``, ``Gate``, ``Identity``, ``NormActivation``,
  ``S2Activation``, ``SO3Activation``) and ``e3nn.math.normalize2mom``;
* each module once with defaults and once per constructor option that defaults to off, turned on
  (``+name``, ``builders.off_options``: ``Linear`` biases, ``Norm`` squared, ``BatchNorm`` instance,
  ``NormActivation`` bias, ``S2Activation`` random rotation, ``FullyConnectedNet`` output activation,
  ``Extract`` squeezed (one output); the tensor products' ``compile_right``, run through ``right``,
  which ``TensorSquare`` does not implement), and once per choice its constructor documents
  (``+name=value``: per-sample or external weights, irrep and path normalizations, filtered outputs,
  explicit instructions, ``BatchNorm``'s reduction, normalization and affine switches, an explicit
  output of ``TensorSquare``, ...; ``NormActivation(normalize=False)`` is left out: 0.6.0 rejects it
  with any ``epsilon``);
* ``models.<module>.<Class>``: the example networks of ``e3nn.nn.models`` that need nothing beyond
  the pins (``gate_points_2101``/``2102.Network`` and ``Convolution``, ``v2106``'s
  ``SimpleNetwork``, ``NetworkForAGraphWithAttributes``, ``MessagePassing`` and ``Convolution``,
  the ``v2103``/``v2104`` voxel ``Convolution`` and ``LowPassFilter``; ``v2103``'s point networks
  need torch_scatter and torch_cluster) on a random cloud of 6 points (the networks build their
  radius graph themselves; the convolutions get a fixed ring of edges) or 2 volumes of 8x8x8
  voxels, 2 layers, 4 radial basis functions, once with defaults and once per choice
  (``reduce_output``/``pool_nodes`` off, no input features, node attributes, a batch of two graphs,
  given edges);
* functions a compiled model calls: ``o3``'s rotation conversions (every function of its rotation
  module whose arguments are all tensors: angles, matrices, quaternions, axis-angles, vectors), its
  makers of random and identity rotations (``rand_matrix(N)``, ``identity_angles(N)``, ...) once with
  defaults and once per option that defaults to off (``+requires_grad``),
  ``spherical_harmonics`` (and ``_alpha``, ``_alpha_beta``), ``wigner_D``, ``rfft``/``irfft``,
  ``Irreps.D_from_*``, ``math.soft_one_hot_linspace`` once per basis (and without cutoff),
  ``soft_unit_step``, ``bessel``, ``orthonormalize``, ``complete_basis``, and ``io``'s
  ``CartesianTensor`` (``ij=ji``) and ``SphericalTensor`` (lmax 2) conversions; inputs are valid
  rotations, angles, quaternions, axis-angles or 3-vectors, 6 of each.

A combination the package rejects fails with a build error and is not counted. Variants: ``base``
(eval) and ``train`` (train mode, forward and backward; the floating inputs require gradients);
``complete_basis``: ``base`` only (its in-place updates of views fail eagerly under autograd).
"""
from __future__ import annotations

import inspect

from builders import Case, off_options, turned_on

MODULE = "e3nn"
N = 6  # rows, nodes, samples
IRREPS = "4x0e + 2x1o"
IRREPS_B = "2x0e + 1x1o"
IRREPS_C = "2x0e + 2x1o + 2x2e"  # as many irreps as IRREPS (elementwise products)
IRREPS_OUT = "2x0e + 2x1o + 1x2e"
SH = "1x0e + 1x1o + 1x2e"
HIDDEN = "4x0e + 4x0o + 2x1e + 2x1o"
MODES = ("uvw", "uvu", "uvv", "uuw", "uuu", "uvuv")
EXTERNAL = {"shared_weights=False": {"internal_weights": False, "shared_weights": False},
            "internal_weights=False": {"internal_weights": False, "shared_weights": True}}
TP_CHOICES = {**EXTERNAL, "irrep_normalization=norm": {"irrep_normalization": "norm"},
              "irrep_normalization=none": {"irrep_normalization": "none"},
              "path_normalization=path": {"path_normalization": "path"},
              "path_normalization=none": {"path_normalization": "none"}}
# Module name -> (constructor arguments, choices: suffix -> arguments added).
MODULES = {
    "o3.Linear": (dict(irreps_in=IRREPS, irreps_out=IRREPS_OUT),
                  {**EXTERNAL, "path_normalization=path": {"path_normalization": "path"},
                   "instructions=[(0,0),(1,1)]": {"irreps_out": "3x0e + 1x1o", "instructions": [(0, 0), (1, 1)]}}),
    "o3.TensorProduct": ({}, {}),  # built per connection mode (``tensor_product``)
    "o3.FullyConnectedTensorProduct": (dict(irreps_in1=IRREPS, irreps_in2=IRREPS_B, irreps_out=IRREPS_OUT), TP_CHOICES),
    "o3.FullTensorProduct": (dict(irreps_in1=IRREPS, irreps_in2=IRREPS_B),
                             {"filter_ir_out=[0e,1o]": {"filter_ir_out": ["0e", "1o"]},
                              "irrep_normalization=norm": {"irrep_normalization": "norm"}}),
    "o3.ElementwiseTensorProduct": (dict(irreps_in1=IRREPS, irreps_in2=IRREPS_C),
                                    {"filter_ir_out=[0e,1o]": {"filter_ir_out": ["0e", "1o"]}}),
    "o3.TensorSquare": (dict(irreps_in=IRREPS),
                        {"irreps_out": {"irreps_out": IRREPS_OUT}, "filter_ir_out=[0e,1e]": {"filter_ir_out": ["0e", "1e"]},
                         "irreps_out+shared_weights=False": {"irreps_out": IRREPS_OUT, **EXTERNAL["shared_weights=False"]}}),
    "o3.FullTensorProductv2": (dict(irreps_in1=IRREPS, irreps_in2=IRREPS_B),
                               {"regroup_output=False": {"regroup_output": False},
                                "filter_ir_out=[0e,1o]": {"filter_ir_out": ["0e", "1o"]}}),
    "o3.ElementwiseTensorProductv2": (dict(irreps_in1=IRREPS, irreps_in2=IRREPS_C), {}),
    "o3.Norm": (dict(irreps_in=IRREPS), {}),
    "o3.SphericalHarmonics": (dict(irreps_out=SH, normalize=True),
                              {"normalize=False": {"normalize": False},
                               "normalization=component": {"normalization": "component"},
                               "normalization=norm": {"normalization": "norm"},
                               "irreps_out=lmax3": {"irreps_out": 3}}),
    "o3.SphericalHarmonicsAlphaBeta": (dict(l=[0, 1, 2]), {"normalization=component": {"normalization": "component"}}),
    "o3.ReducedTensorProducts": (dict(formula="ij=-ji", i="1o"),
                                 {"formula=ij=ji": {"formula": "ij=ji", "i": "1o"},
                                  "formula=ijk=jik=ikj": {"formula": "ijk=jik=ikj", "i": "1o"}}),
    "o3.ToS2Grid": (dict(lmax=2, res=(6, 8)), {"normalization=integral": {"normalization": "integral"},
                                               "normalization=norm": {"normalization": "norm"}}),
    "o3.FromS2Grid": (dict(res=(6, 8), lmax=2), {"normalization=integral": {"normalization": "integral"},
                                                 "lmax_in=3": {"lmax_in": 3}}),
    "o3.SO3Grid.to_grid": (dict(lmax=1, resolution=4), {}),
    "o3.SO3Grid.from_grid": (dict(lmax=1, resolution=4), {}),
    "o3.Legendre": (dict(ls=[0, 1, 2]), {}),
    "nn.Activation": (dict(irreps_in="4x0e + 2x0o + 1x1o", acts="scalar"), {}),
    "nn.BatchNorm": (dict(irreps=IRREPS),
                     {"reduce=max": {"reduce": "max"}, "normalization=norm": {"normalization": "norm"},
                      "affine=False": {"affine": False}, "include_bias=False": {"include_bias": False}}),
    "nn.Dropout": (dict(irreps=IRREPS, p=0.1), {}),
    "nn.Extract": (dict(irreps_in=IRREPS, irreps_outs=["4x0e", "2x1o"], instructions=[(0,), (1,)]), {}),
    "nn.ExtractIr": (dict(irreps_in=IRREPS, ir="1o"), {}),
    "nn.FullyConnectedNet": (dict(hs=[4, 16, 8], act="relu"), {"act=None": {"act": None}}),
    "nn.Gate": (dict(irreps_scalars="4x0e", act_scalars=["relu"], irreps_gates="2x0e", act_gates=["sigmoid"],
                     irreps_gated="2x1o"), {"act_scalars=[None]": {"act_scalars": [None]}}),
    "nn.Identity": (dict(irreps_in=IRREPS, irreps_out=IRREPS), {}),
    "nn.NormActivation": (dict(irreps_in=IRREPS, scalar_nonlinearity="sigmoid"),
                          {"epsilon=1e-8": {"epsilon": 1e-8}}),
    "nn.S2Activation": (dict(irreps=SH, act="tanh", res=8), {"lmax_out=1": {"lmax_out": 1}}),
    "nn.SO3Activation": (dict(lmax_in=1, lmax_out=1, act="tanh", resolution=4), {}),
    "math.normalize2mom": (dict(f="tanh"), {}),
}
ACTS = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh"}  # names of torch functions given as activations
# What an option needs besides itself.
WITH = {"squeeze_out": {"irreps_outs": ["2x1o"], "instructions": [(1,)]}}
SKIP = {"_specialized_code", "_optimize_einsums"}  # private switches of the code generator
NOT_OFFERED = {"o3.TensorSquare": {"compile_right"}}  # its ``right`` is not implemented ("uvu<v" paths)
# The networks of ``e3nn.nn.models`` and their choices.
NETWORK_SIZES = dict(irreps_in=IRREPS, irreps_hidden=HIDDEN, irreps_out="2x0e + 1x1o", irreps_node_attr=None,
                     irreps_edge_attr=SH, layers=2, max_radius=2.0, number_of_basis=4, radial_layers=1,
                     radial_neurons=8, num_neighbors=3.0, num_nodes=6.0)
NETWORK_CHOICES = {"reduce_output=False": {"reduce_output": False}, "irreps_in=None": {"irreps_in": None},
                   "batch=2": {}, "irreps_node_attr=2x0e": {"irreps_node_attr": "2x0e"}}
SIMPLE_SIZES = dict(irreps_in=IRREPS, irreps_out="2x0e + 1x1o", max_radius=2.0, num_neighbors=3.0, num_nodes=6.0,
                    mul=4, layers=2, lmax=2)
NETWORKS = {
    "models.gate_points_2101.Network": (NETWORK_SIZES, NETWORK_CHOICES),
    "models.gate_points_2102.Network": (NETWORK_SIZES, NETWORK_CHOICES),
    "models.v2106.gate_points_networks.SimpleNetwork": (SIMPLE_SIZES, {"pool_nodes=False": {"pool_nodes": False},
                                                                       "batch=2": {}}),
    "models.v2106.gate_points_networks.NetworkForAGraphWithAttributes": (
        dict(irreps_node_input=IRREPS, irreps_node_attr="2x0e", irreps_edge_attr="1e", irreps_node_output="2x0e + 1x1o",
             max_radius=2.0, num_neighbors=3.0, num_nodes=6.0, mul=4, layers=2, lmax=2),
        {"pool_nodes=False": {"pool_nodes": False}, "edge_index": {}}),
}
CONV_SIZES = dict(irreps_in=IRREPS, irreps_node_attr="1x0e", irreps_edge_attr=SH, irreps_out=IRREPS_OUT,
                  radial_layers=1, radial_neurons=8, num_neighbors=3.0)
CONVOLUTIONS = {
    "models.gate_points_2101.Convolution": dict(CONV_SIZES, number_of_basis=4),
    "models.gate_points_2102.Convolution": dict(CONV_SIZES, number_of_edge_features=4),
    "models.v2106.points_convolution.Convolution": dict(irreps_node_input=IRREPS, irreps_node_attr="1x0e",
                                                        irreps_edge_attr=SH, irreps_node_output=IRREPS_OUT,
                                                        fc_neurons=[4, 8], num_neighbors=3.0),
    "models.v2106.gate_points_message_passing.MessagePassing": dict(
        irreps_node_sequence=[IRREPS, HIDDEN, "2x0e + 1x1o"], irreps_node_attr="1x0e", irreps_edge_attr=SH,
        fc_neurons=[4, 8], num_neighbors=3.0),
}
VOXELS = {
    "models.v2103.voxel_convolution.Convolution": dict(irreps_in="0e + 1e", irreps_out="0e + 1e + 1o",
                                                       irreps_sh=SH, size=3),
    "models.v2103.voxel_convolution.LowPassFilter": dict(scale=2.0),
    "models.v2104.voxel_convolution.Convolution": dict(irreps_in="0e + 1e", irreps_out="0e + 1e + 1o",
                                                       irreps_sh=SH, diameter=3, num_radial_basis=3),
    "models.v2104.voxel_convolution.LowPassFilter": dict(scale=2.0),
}
# Choices by class name (v2103's kernel ``size`` is in voxels: anisotropic steps do not fit it).
VOXEL_CHOICES = {"LowPassFilter": {"stride=2": {"stride": 2}, "transposed": {"transposed": True, "stride": 2}},
                 "Convolution": {}, "v2104.voxel_convolution.Convolution": {"steps=(1,1,2)": {"steps": (1.0, 1.0, 2.0)}}}
# Functions of tensors: name -> the arguments' kinds (``_inputs`` makes them) and fixed arguments.
ROTATION_ARGS = {"a1": "alpha", "b1": "beta", "c1": "gamma", "a2": "alpha", "b2": "beta", "c2": "gamma",
                 "a": "alpha", "b": "beta", "c": "gamma", "alpha": "alpha", "beta": "beta", "gamma": "gamma",
                 "R": "R", "q": "q", "q1": "q", "q2": "q", "axis": "axis", "axis1": "axis", "axis2": "axis",
                 "angle": "angle", "angle1": "angle", "angle2": "angle", "xyz": "xyz"}
FUNCTIONS = {
    "o3.spherical_harmonics": (("l", [0, 1, 2]), "xyz", ("normalize", True)),
    "o3.spherical_harmonics+normalize=False": (("l", [0, 1, 2]), "xyz", ("normalize", False)),
    "o3.spherical_harmonics+normalization=norm": (("l", [0, 1, 2]), "xyz", ("normalize", True),
                                                  ("normalization", "norm")),
    "o3.spherical_harmonics_alpha": (("l", 2), "alpha"),
    "o3.spherical_harmonics_alpha_beta": (("l", [0, 1, 2]), "alpha", "beta"),
    "o3.wigner_D": (("l", 2), "alpha", "beta", "gamma"),
    "o3.rfft": ("rfft", ("l", 2)),
    "o3.irfft": ("irfft", ("res", 9)),
    "o3.Irreps.D_from_matrix": ("R",),
    "o3.Irreps.D_from_angles": ("alpha", "beta", "gamma"),
    "o3.Irreps.D_from_quaternion": ("q",),
    "o3.Irreps.D_from_axis_angle": ("axis", "angle"),
    "math.soft_unit_step": ("x",),
    "math.bessel": ("x", ("n", 4), ("x_max", 2.0)),
    "math.orthonormalize": ("vectors",),
    "math.complete_basis": ("vectors",),
    "io.CartesianTensor.from_cartesian": ("matrices",),
    "io.CartesianTensor.to_cartesian": ("cartesian_irreps",),
    "io.CartesianTensor.from_vectors": ("xyz", "xyz"),
    "io.SphericalTensor.with_peaks_at": ("xyz",),
    "io.SphericalTensor.sum_of_diracs": ("xyz", "values"),
    "io.SphericalTensor.from_samples_on_s2": ("xyz", "values", ("res", 10)),
    "io.SphericalTensor.norms": ("signal",),
    "io.SphericalTensor.signal_xyz": ("signal", "xyz"),
}
# Its Gram-Schmidt updates views of ``torch.eye`` in place: the backward fails eagerly.
BASE_ONLY = {"math.complete_basis"}
BASES = ("gaussian", "cosine", "smooth_finite", "fourier", "bessel")
CARTESIAN = "ij=ji"
SPHERICAL = dict(lmax=2, p_val=1, p_arg=-1)


def version() -> str:
    import e3nn

    return e3nn.__version__


def resolve(path: str):
    """``o3.Linear`` -> the object ``e3nn.o3.Linear`` (dotted attributes; ``models.`` modules imported)."""
    import importlib

    import e3nn

    if path.startswith("models."):
        path = f"nn.{path}"
    module_path, obj = "e3nn", e3nn
    for part in path.split("."):
        if not hasattr(obj, part):
            obj = importlib.import_module(f"{module_path}.{part}")
        else:
            obj = getattr(obj, part)
        module_path = f"{module_path}.{part}"
    return obj


def module_class(name: str):
    """The class of module ``name`` (``o3.SO3Grid.to_grid``: ``SO3Grid``)."""
    base = name.rpartition(".")[0] if name.endswith((".to_grid", ".from_grid")) else name
    if base.endswith("v2"):  # experimental products
        return resolve(f"o3.experimental.{base.rpartition('.')[2]}")
    return resolve(base)


def parameters(cls) -> list:
    """The constructor's (name, default) pairs; a subclass passing ``**kwargs`` on to
    ``TensorProduct`` (its subclasses in ``_sub``) has the base's free ones too."""
    own = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
           if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    out = [(p.name, p.default) for p in own]
    if any(p.kind == p.VAR_KEYWORD for p in inspect.signature(cls.__init__).parameters.values()):
        from e3nn.o3 import TensorProduct

        if issubclass(cls, TensorProduct) and cls is not TensorProduct:
            names = {p.name for p in own}
            out += [pair for pair in parameters(TensorProduct) if pair[0] not in names and pair[0] == "compile_right"]
    return out


def options(name: str) -> dict:
    """Model-name suffix -> constructor arguments, for each option of module ``name``."""
    cls = module_class(name)
    out = {}
    skip = SKIP | NOT_OFFERED.get(name, set())
    for option in off_options((n, d) for n, d in parameters(cls) if n not in skip):
        out[option] = dict([turned_on(option)], **WITH.get(option, {}))
    out.update(MODULES[name][1])
    return out


def tensor_product_models() -> list[str]:
    out = [f"o3.TensorProduct+mode={mode}" for mode in MODES]
    out += [f"o3.TensorProduct+mode=uvw+{o}" for o in off_options(parameters(resolve("o3.TensorProduct")))]
    out += [f"o3.TensorProduct+mode=uvu+{o}" for o in EXTERNAL]
    return out


def models() -> list[str]:
    out = []
    for name in MODULES:
        if name == "o3.TensorProduct":
            out += tensor_product_models()
            continue
        out += [name, *(f"{name}+{o}" for o in options(name))]
    for name, (_, choices) in NETWORKS.items():
        out += [name, *(f"{name}+{o}" for o in choices)]
    out += list(CONVOLUTIONS)
    for name in VOXELS:
        out += [name, *(f"{name}+{o}" for o in voxel_choices(name))]
    rotations = resolve("o3._rotation")
    for fname, fn in sorted(vars(rotations).items()):
        if inspect.isfunction(fn) and fn.__module__ == rotations.__name__ and not fname.startswith("_"):
            params = list(inspect.signature(fn).parameters)
            if params and all(p in ROTATION_ARGS for p in params):
                out.append(f"o3.{fname}")
            elif _makes_rotations(fn):
                out += [f"o3.{fname}", *(f"o3.{fname}+{o}" for o in off_options(_keywords(fn)))]
    out += list(FUNCTIONS)
    out += [f"math.soft_one_hot_linspace+basis={b}" for b in BASES]
    out += [f"math.soft_one_hot_linspace+basis={b}+cutoff=False" for b in BASES]
    return sorted(out)


def _makes_rotations(fn) -> bool:
    """A function of the rotation module that makes random or identity rotations: `*shape`, then
    keyword-only options (`requires_grad`, `dtype`, `device`)."""
    params = list(inspect.signature(fn).parameters.values())
    return bool(params) and params[0].kind is inspect.Parameter.VAR_POSITIONAL and \
        all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])


def _keywords(fn) -> list[tuple[str, object]]:
    return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY]


def voxel_choices(name: str) -> dict:
    return VOXEL_CHOICES.get(name.removeprefix("models."), VOXEL_CHOICES[name.rpartition(".")[2]])


def variants(model: str) -> list[str]:
    return ["base"] if model in BASE_ONLY else ["base", "train"]


def act(value):
    import torch

    if isinstance(value, list):
        return [act(v) for v in value]
    return getattr(torch, ACTS[value]) if isinstance(value, str) and value in ACTS else value


def grad(tensor, train: bool):
    """``tensor`` a leaf requiring gradients in training (the input of a differentiated run)."""
    return tensor.detach().requires_grad_(train) if tensor.is_floating_point() else tensor


def tensor_product(option: str):
    """``TensorProduct`` with connection ``mode``: every path from the two inputs' irreps (l <= 2),
    one output irrep per path, with the multiplicity the mode gives it."""
    from e3nn import o3

    first, *rest = option.split("+")
    mode = first.removeprefix("mode=")
    in1 = o3.Irreps(IRREPS)
    in2 = o3.Irreps(IRREPS if mode.startswith("uu") else IRREPS_B)
    out, instructions = [], []
    for i1, (mul1, ir1) in enumerate(in1):
        for i2, (mul2, ir2) in enumerate(in2):
            for ir in ir1 * ir2:
                if ir.l > 2 or (mode.startswith("uu") and mul1 != mul2):
                    continue
                mul = {"uvw": 2, "uvu": mul1, "uvv": mul2, "uuw": 2, "uuu": mul1, "uvuv": mul1 * mul2}[mode]
                instructions.append((i1, i2, len(out), mode, True))
                out.append((mul, ir))
    kwargs = {}
    for o in rest:
        kwargs.update(EXTERNAL[o] if o in EXTERNAL else [turned_on(o)])
    return o3.TensorProduct(in1, in2, o3.Irreps(out), instructions, **kwargs)


def call_weights(module, args: tuple, kwargs: dict, train: bool) -> tuple:
    """The weights a product or linear without internal weights takes, as its last argument."""
    import torch

    if getattr(module, "internal_weights", True) or not getattr(module, "weight_numel", 0):
        return args
    shape = (module.weight_numel,) if module.shared_weights else (N, module.weight_numel)
    return (*args, grad(torch.randn(*shape), train))


def build_module(model: str, train: bool) -> Case:
    import torch
    from e3nn import o3

    name, _, option = model.partition("+")
    if name == "o3.TensorProduct":
        module = tensor_product(option)
        x, y = module.irreps_in1.randn(N, -1), module.irreps_in2.randn(N, -1)
        args = call_weights(module, (grad(x, train), grad(y, train)), {}, train)
        module.train(train)
        if "compile_right" in option:
            return Case(module.right, (args[1], *args[2:]), train=train)
        return Case(module, args, train=train)
    kwargs = dict(MODULES[name][0])
    if option:
        kwargs.update(options(name)[option])
    kwargs = {k: o3.Irreps(v) if k.startswith("irreps") and isinstance(v, str) else act(v) for k, v in kwargs.items()}
    cls = module_class(name)
    if name.endswith("v2") and kwargs.get("filter_ir_out"):
        kwargs["filter_ir_out"] = o3.Irreps("+".join(kwargs["filter_ir_out"]))
    if name in ("nn.Activation",):
        kwargs["acts"] = [torch.nn.functional.silu, torch.tanh, None]
    module = cls(**kwargs)
    module.train(train)
    fn = getattr(module, name.rpartition(".")[2]) if name.endswith(("to_grid", "from_grid")) else module
    args = module_inputs(name, module, kwargs)
    args = tuple(grad(a, train) for a in args)
    if kwargs.get("compile_right"):
        return Case(module.right, call_weights(module, args[1:], {}, train), train=train)
    return Case(fn, call_weights(module, args, {}, train), train=train)


def module_inputs(name: str, module, kwargs: dict) -> tuple:
    import torch
    from e3nn import o3

    cls = name.partition("+")[0].rpartition(".")[2]
    if cls in ("SphericalHarmonics",):
        return (torch.randn(N, 3),)
    if cls == "SphericalHarmonicsAlphaBeta":
        alpha, beta, _ = o3.rand_angles(N)
        return (alpha, beta)
    if cls == "Legendre":
        beta = torch.rand(N) * torch.pi
        return (beta.cos(), beta.sin().abs())
    if cls == "FromS2Grid":
        return (torch.randn(N, *kwargs["res"]),)
    if cls == "ToS2Grid":
        return (o3.Irreps.spherical_harmonics(kwargs["lmax"]).randn(N, -1),)
    if cls == "to_grid":
        return (torch.randn(N, sum((2 * l + 1) ** 2 for l in range(kwargs["lmax"] + 1))),)
    if cls == "from_grid":
        return (torch.randn(N, *module.D.shape[:3]),)
    if cls == "SO3Activation":
        return (torch.randn(N, sum((2 * l + 1) ** 2 for l in range(kwargs["lmax_in"] + 1))),)
    if cls == "normalize2mom":
        return (torch.randn(N, 8),)
    if cls == "FullyConnectedNet":
        return (torch.randn(N, kwargs["hs"][0]),)
    if cls == "ReducedTensorProducts":
        return tuple(o3.Irreps(kwargs["i"]).randn(N, -1) for _ in range(len(kwargs["formula"].split("=")[0])))
    if cls == "TensorSquare":
        return (module.irreps_in1.randn(N, -1),)
    if hasattr(module, "irreps_in2"):
        return (module.irreps_in1.randn(N, -1), module.irreps_in2.randn(N, -1))
    if hasattr(module, "irreps_in1"):
        return (module.irreps_in1.randn(N, -1), module.irreps_in1.randn(N, -1))
    irreps = getattr(module, "irreps_in", None) or getattr(module, "irreps", None)
    return (o3.Irreps(irreps).randn(N, -1),)


def ring(n: int, offset: int = 0):
    """Edges of a ring of ``n`` nodes both ways (source, destination), numbered from ``offset``."""
    import torch

    i = torch.arange(n)
    src = torch.cat([i, (i + 1) % n]) + offset
    dst = torch.cat([(i + 1) % n, i]) + offset
    return src, dst


def build_network(model: str, train: bool) -> Case:
    import torch
    from e3nn import o3

    name, _, option = model.partition("+")
    sizes, choices = NETWORKS[name]
    kwargs = dict(sizes, **choices.get(option, {}))
    if name.startswith("models.gate_points_2102") and kwargs["irreps_node_attr"] is None:
        kwargs["irreps_node_attr"] = "0e"
    module = resolve(name)(**kwargs)
    module.train(train)
    pos = torch.randn(N, 3)
    data = {"pos": grad(pos, train)}
    if option == "batch=2":
        data["batch"] = torch.tensor([0] * (N // 2) + [1] * (N - N // 2))
    if name.endswith("NetworkForAGraphWithAttributes"):
        if option == "edge_index":
            data["edge_index"] = torch.stack(ring(N))
        edges = int(data["edge_index"].shape[1]) if "edge_index" in data else None
        if edges is None:  # the radius graph the network will build, to size the edge attributes
            r = torch.cdist(pos, pos)
            edges = int(((r < kwargs["max_radius"]) & (r > 0)).sum())
        data["node_input"] = grad(o3.Irreps(kwargs["irreps_node_input"]).randn(N, -1), train)
        data["node_attr"] = grad(o3.Irreps(kwargs["irreps_node_attr"]).randn(N, -1), train)
        data["edge_attr"] = grad(o3.Irreps(kwargs["irreps_edge_attr"]).randn(edges, -1), train)
        return Case(module, (data,), train=train)
    if kwargs.get("irreps_in") is not None:
        data["x"] = grad(o3.Irreps(kwargs["irreps_in"]).randn(N, -1), train)
    if kwargs.get("irreps_node_attr") not in (None, "0e"):
        data["z"] = grad(o3.Irreps(kwargs["irreps_node_attr"]).randn(N, -1), train)
    return Case(module, (data,), train=train)


def build_convolution(model: str, train: bool) -> Case:
    import torch
    from e3nn import o3

    kwargs = CONVOLUTIONS[model]
    module = resolve(model)(**kwargs)
    module.train(train)
    src, dst = ring(N)
    irreps_in = kwargs.get("irreps_in") or kwargs.get("irreps_node_input") or kwargs["irreps_node_sequence"][0]
    features = o3.Irreps(irreps_in).randn(N, -1)
    attr = torch.ones(N, 1)
    edge_attr = o3.Irreps(kwargs["irreps_edge_attr"]).randn(len(src), -1)
    scalars = torch.randn(len(src), 4)
    args = (grad(features, train), attr, src, dst, grad(edge_attr, train), grad(scalars, train))
    return Case(module, args, train=train)


def build_voxels(model: str, train: bool) -> Case:
    import torch
    from e3nn import o3

    name, _, option = model.partition("+")
    kwargs = dict(VOXELS[name], **voxel_choices(name).get(option, {}))
    module = resolve(name)(**kwargs)
    module.train(train)
    channels = o3.Irreps(kwargs["irreps_in"]).dim if "irreps_in" in kwargs else 4
    return Case(module, (grad(torch.randn(2, channels, 8, 8, 8), train),), train=train)


def symmetric(m):
    return m + m.transpose(-1, -2)


def inputs(kind: str, train: bool):
    """One input of ``kind`` (6 samples): angles, rotations, quaternions, axes and angles, vectors."""
    import torch
    from e3nn import io, o3

    alpha, beta, gamma = o3.rand_angles(N)
    axis, angle = o3.rand_axis_angle(N)
    made = {"alpha": alpha, "beta": beta, "gamma": gamma, "R": o3.rand_matrix(N), "q": o3.rand_quaternion(N),
            "axis": axis, "angle": angle, "xyz": torch.randn(N, 3), "x": torch.randn(N, 8),
            "rfft": torch.randn(N, 8), "irfft": torch.randn(N, 5), "vectors": torch.randn(3, 5),
            "matrices": symmetric(torch.randn(N, 3, 3)),
            "cartesian_irreps": io.CartesianTensor(CARTESIAN).randn(N, -1), "values": torch.randn(N),
            "signal": io.SphericalTensor(**SPHERICAL).randn(N, -1)}
    return grad(made[kind], train)


def build_function(model: str, train: bool) -> Case:
    from e3nn import io, o3

    name, _, option = model.partition("+")
    if name == "math.soft_one_hot_linspace":
        parts = dict(p.split("=") for p in option.split("+"))
        kwargs = dict(start=0.0, end=2.0, number=4, basis=parts["basis"], cutoff=parts.get("cutoff") != "False")
        x = grad(inputs("x", False).abs().flatten() * 2, train)
        return Case(resolve(name), (x,), kwargs, train=train)
    spec = FUNCTIONS.get(model)
    if spec is None and _makes_rotations(resolve(name)):  # `rand_angles(N)`, `identity_quaternion(N, requires_grad=True)`
        fn = resolve(name)
        return Case(fn, (N,), dict([turned_on(option)]) if option else {}, train=train)
    if spec is None:  # a rotation conversion
        fn = resolve(name)
        return Case(fn, tuple(inputs(ROTATION_ARGS[p], train) for p in inspect.signature(fn).parameters), train=train)
    owner, _, method = name.rpartition(".")
    if owner == "o3.Irreps":
        fn = getattr(o3.Irreps(IRREPS_C), method)
    elif owner == "io.CartesianTensor":
        fn = getattr(io.CartesianTensor(CARTESIAN), method)
    elif owner == "io.SphericalTensor":
        fn = getattr(io.SphericalTensor(**SPHERICAL), method)
    else:
        fn = resolve(name)
    args, kwargs = [], {}
    for item in spec:
        if isinstance(item, tuple):
            if not args and not kwargs and item[0] in ("l",):
                args.append(item[1])
            else:
                kwargs[item[0]] = item[1]
        else:
            args.append(inputs(item, train))
    return Case(fn, tuple(args), kwargs, train=train)


def build(model: str, variant: str) -> Case:
    train = variant == "train"
    name = model.partition("+")[0]
    if name in MODULES:
        return build_module(model, train)
    if name in NETWORKS:
        return build_network(model, train)
    if name in CONVOLUTIONS:
        return build_convolution(model, train)
    if name in VOXELS:
        return build_voxels(model, train)
    return build_function(model, train)
