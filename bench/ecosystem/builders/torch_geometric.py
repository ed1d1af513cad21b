"""torch-geometric: every conv layer and model class in ``torch_geometric.nn`` that builds small.

Constructor and forward arguments are filled by parameter name on a small random graph (12
nodes, 40 edges, 16 features, edge features, positions, edge types, two graphs in the batch);
a class whose required arguments have no known filler fails with a build error.
Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import inspect

from builders import Case

MODULE = "torch_geometric"
N, E, F, EDGE_F = 12, 40, 16, 4
SKIP_SUFFIX = ("CuGraph",)


def version() -> str:
    import torch_geometric

    return torch_geometric.__version__


def classes() -> dict:
    import torch
    import torch_geometric.nn as pyg_nn

    out = {}
    for space in (pyg_nn.conv, pyg_nn.models):
        for name in dir(space):
            cls = getattr(space, name)
            if (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and not name.startswith(SKIP_SUFFIX)
                    and cls.__module__.startswith("torch_geometric.nn")):
                out[name] = cls
    return out


def models() -> list[str]:
    return sorted(classes())


def variants(model: str) -> list[str]:
    return ["base", "train"]


def graph() -> dict:
    """The random graph every class runs on."""
    import torch

    src = torch.randint(0, N, (E,))
    dst = (src + torch.randint(1, N, (E,))) % N
    return {
        "x": torch.randn(N, F),
        "edge_index": torch.stack([src, dst]),
        "edge_attr": torch.randn(E, EDGE_F),
        "edge_weight": torch.rand(E),
        "edge_type": torch.randint(0, 3, (E,)),
        "pos": torch.randn(N, 3),
        "batch": torch.cat([torch.zeros(N // 2, dtype=torch.long), torch.ones(N - N // 2, dtype=torch.long)]),
        "z": torch.randint(1, 10, (N,)),
        "pseudo": torch.rand(E, 2),
        "normal": torch.nn.functional.normalize(torch.randn(N, 3), dim=-1),
        "y": torch.randint(0, 3, (N,)),
    }


def constructor_value(name: str, cls_name: str):
    """A small value for a constructor parameter, by name (None: unknown)."""
    import torch

    ints = {"in_channels": F, "out_channels": F, "channels": F, "hidden_channels": F, "num_layers": 2, "K": 2,
            "num_relations": 3, "heads": 2, "num_heads": 2, "edge_dim": EDGE_F, "dim": 2, "kernel_size": 2,
            "num_bases": 2, "num_blocks": 2, "num_stacks": 1, "k": 4, "out_channels_list": None,
            "space_dimensions": 3, "propagate_dimensions": 4, "in_edge_channels": EDGE_F, "num_nodes": N,
            "num_node_types": 1, "num_edge_types": 3, "num_classes": 3, "embedding_dim": F, "depth": 2,
            "num_timesteps": 2, "hidden_dim": F, "input_dim": F, "output_dim": F, "num_spherical": 3,
            "num_radial": 4, "num_bilinear": 4, "basis_emb_size": 4, "int_emb_size": 8, "out_emb_channels": F,
            "mlp_channels": None, "num_features": F, "in_dim": F, "out_dim": F, "num_out": F,
            "in_feats": F, "out_feats": F, "alpha": 0.1, "theta": 0.5, "eps": 0.0, "num_node_features": F}
    if name in ints and ints[name] is not None:
        return ints[name]
    if name in ("nn", "local_nn", "global_nn", "mlp", "gate_nn"):
        width = 2 * F if cls_name in ("EdgeConv", "DynamicEdgeConv") else F
        if cls_name in ("NNConv", "ECConv"):
            return torch.nn.Sequential(torch.nn.Linear(EDGE_F, F * F))
        if cls_name in ("PointNetConv", "PPFConv", "PointConv"):
            width = F + (3 if cls_name != "PPFConv" else 4)
        return torch.nn.Sequential(torch.nn.Linear(width, F), torch.nn.ReLU(), torch.nn.Linear(F, F))
    if name == "encoder":
        from torch_geometric.nn import GCN

        return GCN(F, F, 2)
    if name in ("num_correction_layers", "num_smoothing_layers", "filter_size", "num_rels"):
        return 2
    if name in ("correction_alpha", "smoothing_alpha"):
        return 0.5
    if name == "first_aggr":
        return True
    if name == "mode":
        return "cat"
    if name == "channel_list":
        return [F, F, F]
    if name == "aggregators":
        return ["mean", "max"]
    if name == "scalers":
        return ["identity", "amplification"]
    if name == "deg":
        return torch.tensor([0, 2, 4, 4, 2])
    if name == "conv":
        from torch_geometric.nn import GCNConv

        return GCNConv(F, F)
    if name == "metadata":
        return (["n"], [("n", "e", "n")])
    if name == "pool_ratios":
        return 0.5
    return None


def build(model: str, variant: str) -> Case:
    cls = classes()[model]
    kwargs = {}
    for name, p in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        value = constructor_value(name, model)
        if value is not None and (p.default is inspect.Parameter.empty or name in ("edge_dim", "num_layers", "heads")):
            kwargs[name] = value
        elif p.default is inspect.Parameter.empty:
            raise TypeError(f"{model}: no small value for required argument {name!r}")
    module = cls(**kwargs)
    module.train(variant == "train")
    data = graph()
    args = {}
    for name, p in inspect.signature(module.forward).parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if name in data:
            args[name] = data[name]
        elif name == "x_0":
            args[name] = data["x"]
        elif name == "hyperedge_index":
            args[name] = data["edge_index"]
        elif name == "edge_weight" or name == "edge_type":
            args[name] = data[name]
        elif p.default is inspect.Parameter.empty:
            raise TypeError(f"{model}: no input for forward argument {name!r}")
    if "edge_attr" in args and "edge_dim" not in kwargs and model not in ("NNConv", "ECConv", "GINEConv", "GMMConv", "SplineConv", "CGConv"):
        args.pop("edge_attr")
    if model in ("GMMConv", "SplineConv"):
        args["edge_attr"] = data["pseudo"]
    return Case(module, (), args, train=variant == "train")
