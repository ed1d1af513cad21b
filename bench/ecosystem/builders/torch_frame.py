"""pytorch-frame: every model of ``torch_frame.nn.models``, every stype encoder of
``torch_frame.nn.encoder`` and every conv and decoder of ``torch_frame.nn.conv`` /
``torch_frame.nn.decoder`` (one name per class, abstract bases left out), small: 8 channels, 2
layers, 2 heads, 4 prompts, 3 classes.

Data: a ``FakeDataset`` of 32 rows (multiclass target), materialized; its ``col_stats`` and
``col_names_dict`` build the module, its first 8 rows (a ``TensorFrame``) are the input. Models
run on numerical and categorical columns with their default encoders; ExcelFormer on the table
its example makes (``CatToNumTransform`` then ``MutualInformationSort``). Each model also runs
with ``nan`` (the table with NaNs), ``all_stypes`` (where it takes encoders: multicategorical,
timestamp and embedding columns too, with ``EmbeddingEncoder``, ``LinearEncoder``,
``MultiCategoricalEmbeddingEncoder``, ``TimestampEncoder`` and ``LinearEmbeddingEncoder``), once
per constructor or forward option that defaults to off, turned on (dropouts, ``return_reg``,
``mixup_encoded``; TabTransformer's required dropouts count as 0.0), and ExcelFormer with
``mixup`` ``feature`` and ``hidden`` (forward with ``mixup_encoded``, as its example trains).
Each encoder runs in a ``StypeWiseFeatureEncoder`` on the columns of its stype (numerical for
``LinearModelEncoder``, with a per-column ``Linear(1, 4)`` model), with its defaults, ``nan``,
each other ``na_strategy`` its stype accepts (on the table with NaNs) and ``post_module``
(ReLU and LayerNorm, as Trompt's encoders). Convs and decoders run on 8 rows of 5 columns by 8
channels (prompts 8 by 4 by 8), with defaults and once per option that defaults to off.
Left out: text and image columns (their encoders need a text or image model, downloaded) and
sequence-numerical columns (no encoder takes them).
Variants: ``base`` (eval) and, for modules with parameters, ``train`` (train mode, forward and
backward).
"""

from __future__ import annotations

import inspect

from builders import Case, off_options, turned_on

MODULE = "torch_frame"
ROWS, BATCH, COLS = 32, 8, 5
SIZES = {"channels": 8, "in_channels": 8, "out_channels": 3, "num_layers": 2, "num_heads": 2,
         "nhead": 2, "num_prompts": 4, "num_cols": COLS, "encoder_pad_size": 2,
         "attn_dropout": 0.0, "ffn_dropout": 0.0, "split_feat_channels": 8,
         "split_attn_channels": 8, "gamma": 1.2}
NAN, ALL, POST, MIXUP = "nan", "all_stypes", "post_module", ("mixup=feature", "mixup=hidden")


def version() -> str:
    import torch_frame

    return torch_frame.__version__


def classes() -> dict:
    """Name -> (kind, class): ``model``, ``encoder``, ``conv`` or ``decoder``."""
    from torch_frame.nn import conv, decoder, encoder, models
    from torch_frame.nn.encoder import StypeEncoder

    out = {}
    for kind, space in (("model", models), ("encoder", encoder), ("conv", conv), ("decoder", decoder)):
        for name in space.classes:
            cls = getattr(space, name)
            if inspect.isabstract(cls) or (kind == "encoder" and not issubclass(cls, StypeEncoder)):
                continue
            out[name] = (kind, cls)
    return out


def stype_of(cls):
    """The stype an encoder runs on."""
    from torch_frame import stype

    return stype.numerical if stype.numerical in cls.supported_stypes else next(iter(cls.supported_stypes))


def na_strategies(cls) -> list[str]:
    """The ``na_strategy`` values an encoder's stype accepts, its default left out."""
    from torch_frame import NAStrategy, stype

    kind = stype_of(cls)
    accepts = {stype.numerical: "is_numerical_strategy", stype.categorical: "is_categorical_strategy",
               stype.multicategorical: "is_multicategorical_strategy",
               stype.timestamp: "is_timestamp_strategy"}.get(kind)
    default = inspect.signature(cls.__init__).parameters["na_strategy"].default
    return [s.value for s in NAStrategy if accepts and getattr(s, accepts) and s is not default]


def effective(fn) -> list[tuple[str, object]]:
    """(name, default) of ``fn``'s parameters, a required one known by name counting as its size."""
    return [(p.name, SIZES.get(p.name, p.default)) for p in inspect.signature(fn).parameters.values()]


def options(name: str) -> list[str]:
    """The model-name suffixes of a class (after ``+``)."""
    from torch_frame import stype

    kind, cls = classes()[name]
    if kind == "encoder":
        nan = [NAN] if stype_of(cls) != stype.embedding else []
        return [*nan, *(f"na_strategy={s}" for s in na_strategies(cls)), POST]
    out = off_options(effective(cls.__init__)) + off_options(effective(cls.forward))
    if kind == "model":
        out.append(NAN)
        params = inspect.signature(cls.__init__).parameters
        if name != "ExcelFormer" and ("stype_encoder_dict" in params or "stype_encoder_dicts" in params):
            out.append(ALL)
        if "mixup" in params:
            out += MIXUP
    return out


def models() -> list[str]:
    return sorted(f"{name}{suffix}" for name in classes() for suffix in ["", *(f"+{o}" for o in options(name))])


def variants(model: str) -> list[str]:
    """``train`` only for modules with parameters (``StackEncoder`` has none)."""
    trains = any(True for _ in build(model, "base").fn.parameters())
    return ["base", "train"] if trains else ["base"]


def table(stypes, nan: bool):
    """The materialized fake dataset with these stypes (NaNs in every other row if ``nan``), its
    strings of object dtype (pandas 3 infers ``str``, which the multicategorical mapper rejects)."""
    import pandas as pd
    from torch_frame import TaskType
    from torch_frame.datasets import FakeDataset

    with pd.option_context("future.infer_string", False):
        dataset = FakeDataset(num_rows=ROWS, with_nan=nan, stypes=stypes,
                              task_type=TaskType.MULTICLASS_CLASSIFICATION)
        return dataset.materialize()


def all_encoders() -> dict:
    """An encoder for each stype of the full table."""
    from torch_frame import stype
    from torch_frame.nn import encoder

    return {stype.numerical: encoder.LinearEncoder(), stype.categorical: encoder.EmbeddingEncoder(),
            stype.multicategorical: encoder.MultiCategoricalEmbeddingEncoder(),
            stype.timestamp: encoder.TimestampEncoder(), stype.embedding: encoder.LinearEmbeddingEncoder()}


def excelformer_input(dataset):
    """Col stats and the first rows of the table as ExcelFormer's example makes it: categorical
    columns to numerical ones, sorted by mutual information."""
    from torch_frame import TaskType
    from torch_frame.transforms import CatToNumTransform, MutualInformationSort

    to_num = CatToNumTransform()
    to_num.fit(dataset.tensor_frame, dataset.col_stats)
    frame = to_num(dataset.tensor_frame)
    sort = MutualInformationSort(task_type=TaskType.MULTICLASS_CLASSIFICATION)
    sort.fit(frame, to_num.transformed_stats)
    frame = sort(frame)
    return sort.transformed_stats, frame[:BATCH]


def build_model(name: str, cls, option: str):
    """The model, its input and the keyword arguments of its call."""
    from torch_frame import stype

    stypes = [stype.numerical, stype.categorical]
    if option == ALL:
        stypes += [stype.multicategorical, stype.timestamp, stype.embedding]
    dataset = table(stypes, option == NAN)
    col_stats, frame = dataset.col_stats, dataset.tensor_frame[:BATCH]
    if name == "ExcelFormer":
        col_stats, frame = excelformer_input(dataset)
    params = inspect.signature(cls.__init__).parameters
    kwargs = {n: SIZES[n] for n in params if n in SIZES}
    kwargs.update(col_stats=col_stats, col_names_dict=frame.col_names_dict)
    if name == "ExcelFormer":
        kwargs["num_cols"] = frame.num_cols
    if option == ALL:
        key = "stype_encoder_dicts" if "stype_encoder_dicts" in params else "stype_encoder_dict"
        kwargs[key] = [all_encoders() for _ in range(SIZES["num_layers"])] if key.endswith("s") else all_encoders()
    call = {}
    if option in MIXUP:
        kwargs["mixup"] = option.partition("=")[2]
        call["mixup_encoded"] = True
    elif option and option not in (NAN, ALL):
        key, value = turned_on(option)
        (kwargs if key in params else call)[key] = value
    return cls(**kwargs), (frame,), call


def build_encoder(cls, option: str):
    """A ``StypeWiseFeatureEncoder`` of the encoder on its stype's columns, and its input."""
    import torch
    from torch_frame import NAStrategy
    from torch_frame.config import ModelConfig
    from torch_frame.nn import StypeWiseFeatureEncoder

    kind = stype_of(cls)
    nan = option == NAN or option.startswith("na_strategy=")
    dataset = table([kind], nan)
    frame = dataset.tensor_frame[:BATCH]
    kwargs = {}
    if option.startswith("na_strategy="):
        kwargs["na_strategy"] = NAStrategy(option.partition("=")[2])
    if option == POST:
        kwargs["post_module"] = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.LayerNorm(SIZES["channels"]))
    if "col_to_model_cfg" in inspect.signature(cls.__init__).parameters:
        kwargs["col_to_model_cfg"] = {col: ModelConfig(torch.nn.Linear(1, 4), 4)
                                      for col in frame.col_names_dict[kind]}
    module = StypeWiseFeatureEncoder(SIZES["channels"], dataset.col_stats, frame.col_names_dict,
                                     {kind: cls(**kwargs)})
    return module, (frame,), {}


def build_layer(cls, option: str):
    """A conv or decoder on column embeddings (prompt embeddings for Trompt's decoder)."""
    import torch

    params = inspect.signature(cls.__init__).parameters
    kwargs = {n: SIZES[n] for n in params if n in SIZES}
    if option:
        kwargs.update([turned_on(option)])
    x = torch.randn(BATCH, COLS, SIZES["channels"])
    prompts = torch.randn(BATCH, SIZES["num_prompts"], SIZES["channels"])
    forward = inspect.signature(cls.forward).parameters
    args = (x, prompts) if "x_prompt" in forward else (prompts,) if "num_prompts" in params else (x,)
    return cls(**kwargs), args, {}


def build(model: str, variant: str) -> Case:
    name, _, option = model.partition("+")
    kind, cls = classes()[name]
    if kind == "model":
        module, args, kwargs = build_model(name, cls, option)
    elif kind == "encoder":
        module, args, kwargs = build_encoder(cls, option)
    else:
        module, args, kwargs = build_layer(cls, option)
    train = variant == "train"
    module.train(train)
    return Case(module, args, kwargs, train=train)
