"""Sample inputs for a target that has no factory: a tiny model and inputs built from its class.

Standard library at import, torch inside; runs in the confirm worker (the user's interpreter,
the user's classes). Two kinds of classes qualify:

* Hugging Face-style models (a ``config_class`` attribute, or an ``__init__`` whose ``config``
  parameter is annotated with a class): a default config shrunk by key name (widths, layers,
  heads, vocabulary, positions, image and audio sizes) and inputs named after the model's main
  input (``input_ids`` + ``attention_mask``, ``pixel_values``, ``input_values``,
  ``input_features``, plus ``decoder_input_ids`` for encoder-decoders);
* plain modules whose constructor arguments all have defaults: built with the defaults, one
  input shaped for the first layer (``Linear``, ``Conv*d``, ``Embedding``, RNNs), batch 2.

Each input is a small spec that both makes the tensor and writes the line of Python that makes
it, so the factory offered to the user is the one that ran.
"""

from __future__ import annotations

import inspect
import math
import re
import sys
import typing
from dataclasses import dataclass, replace

BATCH, SEQ, WIDTH, FFN, LAYERS, HEADS, VOCAB, POSITIONS = 2, 16, 32, 64, 2, 4, 128, 128
WIDTHS = ("hidden_size", "d_model", "n_embd", "dim", "embed_dim", "emb_dim", "embedding_size", "word_embed_proj_dim",
          "projection_dim", "projection_size", "hidden_dim", "text_embed_dim", "vision_embed_dim", "proj_dim")
FFNS = ("intermediate_size", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim", "n_inner", "d_ff", "ffn_hidden_size",
        "moe_intermediate_size", "shared_expert_intermediate_size")
LAYER_KEYS = ("num_hidden_layers", "n_layer", "n_layers", "num_layers", "encoder_layers", "decoder_layers",
              "num_decoder_layers", "num_encoder_layers")
HEAD_KEYS = ("num_attention_heads", "n_head", "n_heads", "encoder_attention_heads", "decoder_attention_heads",
             "num_heads", "mamba_n_heads")
KV_HEAD_KEYS = ("num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num")
POSITION_KEYS = ("max_position_embeddings", "n_positions", "n_ctx", "max_source_positions", "max_target_positions")
TOKEN_KEYS = ("pad_token_id", "bos_token_id", "eos_token_id", "decoder_start_token_id", "sep_token_id",
              "cls_token_id", "mask_token_id", "unk_token_id")
LIST_WIDTHS = ("hidden_sizes", "conv_dim", "embed_dims", "embed_dim_per_stage")
EXPERT_KEYS = ("num_local_experts", "num_experts", "n_routed_experts")
TOPK_KEYS = ("num_experts_per_tok", "num_experts_per_token", "moe_topk", "top_k")
GROUP_KEYS = ("n_group", "num_expert_group", "topk_group")
TOKEN_SUFFIXES = ("_token_id", "_token_index")
MASK_SUFFIXES = ("_attention_mask", "_padding_mask", "_mask", "_padding")  # longest first
SERIES_INPUTS = ("past_values", "past_observed_mask", "past_time_features", "future_values", "future_time_features")
WIDTH_SUFFIXES = ("_hidden_size",)  # a part's width (`fpn_hidden_size`): shrunk with the others it matches
TRIALS = 8  # eager runs of input layouts per config before falling back
MAX_FOLD = 16  # the largest size a reshape may add to an input (codebooks, channels)
REPAIRS = 2  # rebuilds of a config with what its errors ask for
KEPT_WIDTH = 4096  # the widest feed-forward a config may have to be tried with its default widths
LARGE_IMAGE = 128  # the side of the larger images tried (once: memory grows with its square)


class CannotSynthesize(Exception):
    """No factory could be built; the message says why."""


@dataclass
class Input:
    """One synthesized input: a name, a shape, a kind (``ids``, ``mask``, ``float``, ``rows``: the
    integer rows ``value``; ``off``: the flag ``False``) and the id range."""

    name: str
    shape: tuple
    kind: str = "float"
    high: int = 0
    value: tuple = ()

    def make(self, torch):
        if self.kind == "off":
            return False
        if self.kind == "rows":
            return torch.tensor(self.value)
        if self.kind == "ids":
            return torch.randint(0, self.high, self.shape)
        if self.kind == "mask":
            mask = torch.ones(self.shape, dtype=torch.long)
            mask[-1, self.shape[-1] * 3 // 4 :] = 0  # right padding on the last row exercises mask code
            return mask
        return torch.randn(self.shape)

    def source(self) -> list[str]:
        shape = "(" + ", ".join(map(str, self.shape)) + ("," if len(self.shape) == 1 else "") + ")"
        if self.kind == "off":
            return [f"{self.name} = False"]
        if self.kind == "rows":
            return [f"{self.name} = torch.tensor({list(map(list, self.value)) if self.shape[1:] else list(self.value)})"]
        if self.kind == "ids":
            return [f"{self.name} = torch.randint(0, {self.high}, {shape})"]
        if self.kind == "mask":
            return [f"{self.name} = torch.ones({shape}, dtype=torch.long)",
                    f"{self.name}[-1, {self.shape[-1] * 3 // 4}:] = 0  # right padding on the last row"]
        return [f"{self.name} = torch.randn{shape}"]

    def describe(self) -> str:
        if self.kind == "off":
            return f"{self.name}=False"
        dims = "(" + ", ".join(map(str, self.shape)) + ")"
        return f"{self.name} {dims}" + (" int64" if self.kind in ("ids", "mask", "rows") else "")


@dataclass
class Synthesized:
    """A built target: the model, its inputs (positional or by keyword), and how it was built."""

    model: object
    inputs: list[Input]
    positional: bool
    build: list[str]  # source lines that build ``model``
    imports: list[str]

    def sets(self, torch) -> list[tuple]:
        values = [i.make(torch) for i in self.inputs]
        if self.positional:
            return [(self.model, tuple(values), {})]
        return [(self.model, (), {i.name: v for i, v in zip(self.inputs, values)})]

    def description(self) -> str:
        return "inputs synthesized: " + ", ".join(i.describe() for i in self.inputs)

    def example(self, target: str) -> str:
        """The ``fullgraph_example_<target>`` function that builds the same thing, to edit."""
        lines = [f"def fullgraph_example_{target}():",
                 '    """Sample inputs for `fullgraph confirm` (synthesized by fullgraph: edit them)."""',
                 "    import torch", *(f"    {line}" for line in self.imports), ""]
        lines += [f"    {line}" for line in self.build]
        for i in self.inputs:
            lines += [f"    {line}" for line in i.source()]
        names = [i.name for i in self.inputs]
        if self.positional:
            args = "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")"
            lines.append(f"    return model, {args}, {{}}")
        else:
            lines.append("    return model, (), {" + ", ".join(f'"{n}": {n}' for n in names) + "}")
        return "\n".join(lines) + "\n"


def synthesize(module, target: str, torch, trial=None) -> Synthesized:
    """A tiny instance of class ``target`` of ``module`` and inputs for it; CannotSynthesize otherwise.
    ``trial(built)`` runs a candidate eagerly: None when it ran, else the error it raised."""
    cls = getattr(module, target, None)
    if not isinstance(cls, type):
        raise CannotSynthesize(f"{target} is not a class of {module.__name__}")
    config_cls = config_class(cls)
    if config_cls is not None:
        return hugging_face(cls, config_cls, module, torch, trial)
    if not issubclass(cls, torch.nn.Module):
        raise CannotSynthesize(f"{target} is not a torch.nn.Module")
    required = [p.name for p in parameters(cls.__init__) if p.default is inspect.Parameter.empty]
    if required:
        raise CannotSynthesize(f"{target}() needs arguments ({', '.join(required)}) and takes no config class")
    return plain(cls, torch)


def parameters(fn) -> list[inspect.Parameter]:
    """The named parameters of a function after ``self`` (no ``*args``/``**kwargs``)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p for p in params[1:] if p.kind not in kinds]


def config_class(cls) -> type | None:
    """The config class of a Hugging Face-style model: ``config_class``, or the annotation of
    ``__init__``'s ``config`` parameter."""
    found = getattr(cls, "config_class", None)
    if isinstance(found, type):
        return found
    if not any(p.name == "config" for p in parameters(cls.__init__)):
        return None
    try:
        hint = typing.get_type_hints(cls.__init__).get("config")
    except Exception:  # an annotation that does not evaluate: no config class
        return None
    return hint if isinstance(hint, type) else None


# --- Hugging Face-style models ----------------------------------------------------------


def shrunk(config, widths: str = "tiny") -> dict:
    """Overrides that make ``config`` tiny, by key name (sub-configs as dicts of their own overrides).

    ``widths`` is ``tiny`` (32 wide), ``head`` (the shrunk head count times the default head size,
    for code sized on it: rotary sections written in the model, not the config) or ``keep`` (the
    default widths and heads, 128-pixel images: only depth, vocabulary, positions and experts
    shrink, for sizes tied to each other in ways no key name tells)."""
    values = {k: v for k, v in vars(config).items() if not k.startswith("_")}
    out: dict = {}

    def lower(keys, to, width=False):
        for k in keys if not (width and widths == "keep") else ():
            if isinstance(values.get(k), int) and not isinstance(values[k], bool) and values[k] > to:
                out[k] = to

    lower((*WIDTHS, *sorted(k for k in values if k.endswith(WIDTH_SUFFIXES) and k not in WIDTHS)), WIDTH, width=True)
    lower(FFNS, FFN, width=True)
    lower(LAYER_KEYS, LAYERS)
    stages = values.get("depths")
    for k in [k for k in LAYER_KEYS if k in out and isinstance(stages, (list, tuple)) and values[k] == len(stages)]:
        del out[k]  # the number of stages (`num_layers = len(depths)`): the stages stay, each one layer deep
    layers = {values[k]: out[k] for k in LAYER_KEYS if k in out}
    for k, v in values.items():  # per-layer lists (layer_types, ...) and dicts follow their layer count
        if isinstance(v, (list, tuple)) and len(v) in layers and len(v) > 1 and k not in LIST_WIDTHS:
            out[k] = first_of_each(list(v), layers[len(v)])
        elif layers and repeating_pattern(v) and list(v) != first_of_each(list(v), len(v)):
            out[k] = first_of_each(list(v), len(v))  # a cycle over the layers: each kind among the first ones
        elif isinstance(v, dict) and v and layers and all(isinstance(i, int) for i in v):
            kept = min(layers.values())
            if any(i >= kept for i in v):
                out[k] = {i: x for i, x in v.items() if i < kept}
    if layers:  # the stages a backbone hands on, among those left
        kept = min(layers.values())
        for k, v in ((k, getattr(config, k, None)) for k in ("out_indices", "out_features")):  # properties too
            if isinstance(v, (list, tuple)) and v and all(isinstance(x, int) or stage_number(x) for x in v):
                fit = sorted({min(x if isinstance(x, int) else stage_number(x), kept) for x in v})
                new = fit if k == "out_indices" else [f"stage{n}" for n in fit]
                if new != list(v):
                    out[k] = new
    for k in HEAD_KEYS if widths != "keep" else ():  # per-stage head counts must divide 32-wide stages
        v = values.get(k)
        if isinstance(v, (list, tuple)) and v and all(isinstance(x, int) for x in v):
            out[k] = [min(x, 2) for x in v]
    lower(HEAD_KEYS, HEADS, width=True)
    lower(EXPERT_KEYS, 4)
    lower(TOPK_KEYS, 2)
    lower(GROUP_KEYS, 1)
    lower(("num_queries",), 8)  # object queries: no more than a small image's proposals
    shared = tuple(k for k in values if k.endswith("_experts") and k not in EXPERT_KEYS)  # n_shared_experts
    for keys, to in (("vocab_size",), VOCAB), (FFNS, FFN), (EXPERT_KEYS, 4), (shared, 1), (TOPK_KEYS, 2), (GROUP_KEYS, 1):
        out.update({k: to for k in keys if k in values and values[k] is None})  # a size the default leaves unset
    lower(("num_groups", "norm_num_groups", "resnet_groups", "num_norm_groups",
           *sorted(k for k in values if k.endswith("_groups"))), 1, width=True)  # groups must divide the widths
    lower(("rotary_dim",), WIDTH // HEADS, width=True)  # an explicit head_dim stays: rope sections use it
    lower(("kv_lora_rank", "q_lora_rank"), 16, width=True)
    for k in KV_HEAD_KEYS:
        v = values.get(k)
        if isinstance(v, int) and v > 0 and widths != "keep":
            heads = next((values[h] for h in HEAD_KEYS if isinstance(values.get(h), int)), v)
            out[k] = HEADS if v >= heads else min(v, 2)
        elif k in values and v is None:  # unset: one key-value head per query head
            heads = next((out.get(h, values[h]) for h in HEAD_KEYS if isinstance(values.get(h), int)), None)
            if heads:
                out[k] = heads
    lower(POSITION_KEYS, POSITIONS)
    lower(("vocab_size",), VOCAB)
    vocab = out.get("vocab_size", values.get("vocab_size"))
    if isinstance(vocab, int):
        keys = [*TOKEN_KEYS, *sorted(k for k in values if k.endswith(TOKEN_SUFFIXES) and k not in TOKEN_KEYS)]
        for n, k in enumerate(keys):  # any special token (blank, image...): distinct ids below the vocabulary
            v = values.get(k)
            if isinstance(v, int) and not isinstance(v, bool) and v >= vocab:
                out[k] = max(vocab - 1 - n, 0)
            elif isinstance(v, list) and any(isinstance(t, int) and t >= vocab for t in v):
                out[k] = [min(t, vocab - 1) for t in v]
        if values.get("pad_token_id", 0) is None and values.get("vocab_size", 0) is None:
            out["pad_token_id"] = 1  # a model whose vocabulary the default leaves unset reads its padding id too
    heads = out.get("num_attention_heads", values.get("num_attention_heads"))
    width = out.get("hidden_size", values.get("hidden_size"))
    head_dim = values.get("head_dim") if isinstance(values.get("head_dim"), int) else \
        width // heads if isinstance(width, int) and isinstance(heads, int) and heads else None
    if widths == "head" and "hidden_size" in out and isinstance(heads, int):
        original = values["head_dim"] if isinstance(values.get("head_dim"), int) else \
            values["hidden_size"] // values.get("num_attention_heads", heads)
        out["hidden_size"] = heads * original  # the default head size kept, with few heads
        head_dim = original
    if "head_dim" in values and values["head_dim"] is None and head_dim:
        out["head_dim"] = head_dim  # a default config that leaves it None for code that reads it as a size
    for k in ("rope_parameters", "rope_scaling"):
        rope = values.get(k)
        if head_dim and isinstance(rope, dict) and isinstance(rope.get("mrope_section"), list):
            partial = rope.get("partial_rotary_factor", values.get("partial_rotary_factor"))
            rotary = int(head_dim * partial) if isinstance(partial, (int, float)) and 0 < partial <= 1 else head_dim
            sections = fit_sections(rope["mrope_section"], rotary // 2)  # half the rotated part of a head
            if sections != rope["mrope_section"]:
                out[k] = {**rope, "mrope_section": sections}
    image, patch = values.get("image_size"), values.get("patch_size")
    if isinstance(image, int) and widths == "keep" and image > LARGE_IMAGE:
        out["image_size"] = LARGE_IMAGE  # patches and windows kept: a size they still divide
    elif isinstance(image, int) and image > 32 and widths != "keep":
        out["image_size"] = 32
        if isinstance(patch, int) and patch > 8:
            out["patch_size"] = 8
    for k in LIST_WIDTHS if widths != "keep" else ():
        v = values.get(k)
        if isinstance(v, (list, tuple)) and all(isinstance(x, int) for x in v):
            out[k] = [min(x, WIDTH) for x in v]
    depths = values.get("depths")
    if isinstance(depths, (list, tuple)) and all(isinstance(x, int) for x in depths):
        out["depths"] = [1] * len(depths)
    for k, sub in values.items():  # every nested config (text, vision, audio, adaptor...), recursively
        if is_config(sub):
            inner = shrunk(sub, widths)
            if inner:  # the overrides and what the parent set apart from the sub-config class's defaults
                kind = getattr(sub, "model_type", None)
                out[k] = {**({"model_type": kind} if isinstance(kind, str) and kind else {}), **own_values(sub), **inner}
    return out


def is_config(value) -> bool:
    """A config instance (a nested text, vision or audio config), not a config class."""
    return hasattr(value, "to_dict") and hasattr(value, "__dict__") and not isinstance(value, type)


def stage_number(name) -> int:
    """N of a backbone stage called ``stageN`` (0 otherwise)."""
    return int(name[5:]) if isinstance(name, str) and name.startswith("stage") and name[5:].isdigit() else 0


def own_values(config) -> dict:
    """The values of a nested config that differ from its class's defaults (a parent's choices,
    lost when the sub-config is rebuilt from overrides alone)."""
    try:
        default = type(config)().to_dict()
        values = config.to_dict()
    except Exception:  # a class that needs arguments: the overrides alone
        return {}
    return {k: v for k, v in values.items()
            if not k.startswith("_") and k not in ("transformers_version", "model_type") and default.get(k, v) != v}


def repeating_pattern(v) -> bool:
    """Whether ``v`` is a list of layer kinds that repeats (``["recurrent", "recurrent", "attention"]``)."""
    return (isinstance(v, (list, tuple)) and len(v) > 2 and all(isinstance(x, str) for x in v)
            and 1 < len(set(v)) < len(v))


def fit_sections(sections: list, total: int) -> list:
    """Rotary sections (``mrope_section``) scaled to add up to ``total`` (half the head size)."""
    whole = sum(sections)
    if not whole or whole == total or not all(isinstance(x, int) for x in sections):
        return sections
    scaled = [max(1, x * total // whole) for x in sections]
    scaled[-1] += total - sum(scaled)
    return scaled if scaled[-1] > 0 else sections


def first_of_each(values: list, n: int) -> list:
    """``n`` items of a per-layer list keeping one layer of each kind (attention and linear layers,
    dense and sparse blocks...) before repeating the first ones."""
    try:
        distinct = list(dict.fromkeys(values))
    except TypeError:  # unhashable items
        distinct = []
    kept = distinct[:n] if len(distinct) > 1 else []
    return kept + values[: n - len(kept)]


def tiny_config(config_cls, widths: str = "tiny", extra: dict | None = None):
    """The class's default config made tiny (``extra`` laid over the overrides), and the overrides
    used (the source repeats them)."""
    try:
        default = config_cls()
    except Exception as e:  # a config that needs arguments
        raise CannotSynthesize(f"{config_cls.__name__}() raised {type(e).__name__}: {e}") from None
    if widths == "keep" and widest(default) > KEPT_WIDTH:
        raise CannotSynthesize(f"{config_cls.__name__} is too wide to keep its widths")
    overrides = merged(shrunk(default, widths), extra or {})
    try:
        return config_cls(**overrides), overrides
    except Exception as e:
        raise CannotSynthesize(f"a tiny {config_cls.__name__} raised {type(e).__name__}: {e}") from None


def widest(config, depth: int = 0) -> int:
    """The largest width (hidden or feed-forward size) of a config and its nested configs."""
    values = [v for v in vars(config).values() if is_config(v)] if depth < 4 else []
    own = [v for k, v in vars(config).items() if k in WIDTHS + FFNS and isinstance(v, int)]
    return max([*own, *(widest(v, depth + 1) for v in values), 0])


class Sizes:
    """Integer sizes read from a config and its nested configs (own values first)."""

    def __init__(self, config):
        nested = [v for v in vars(config).values() if is_config(v)]
        self.configs = [config, *nested]

    def __call__(self, *keys, default):
        return next(self._values(keys, lambda v: v if type(v) is int else None), default)

    def pair(self, *keys, default: int) -> tuple[int, int]:
        """A height and width: one size, or a pair of them (``image_size = [224, 224]``)."""
        return next(self._values(keys, _pair), (default, default))

    def _values(self, keys, read):
        """What ``read`` makes of each key's value, in order, where it makes something."""
        for key in keys:
            for c in self.configs:
                found = read(getattr(c, key, None))
                if found is not None:
                    yield found


def _pair(value) -> tuple[int, int] | None:
    if type(value) is int:
        return value, value
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(type(x) is int for x in value):
        return value[0], value[1]
    return None


def make_input(name: str, size: Sizes, accepted: set) -> list[Input] | None:
    """The input called ``name`` (with the mask that goes with it), sized from the config; None when unknown."""
    vocab = size("vocab_size", default=VOCAB)
    grid = next((n for n in sorted(accepted) if n.endswith("grid_thw")), None)  # `grid_thw`, `image_grid_thw`
    if grid and name in ("hidden_states", "pixel_values", grid, "merge_sizes"):
        return flat_patches(name, size, grid)
    if "spatial_shapes" in accepted and name in ("pixel_values", "spatial_shapes", "pixel_attention_mask"):
        return patch_rows(name, size)
    if name.endswith("_input_ids") and name != "decoder_input_ids":  # another tower's text (`qformer_input_ids`)
        return [Input(name, (BATCH, SEQ), "ids", vocab)]
    if name.endswith("_pixel_values"):  # another image (`prompt_pixel_values`)
        return [replace(i, name=name) for i in make_input("pixel_values", size, set())]
    if name.endswith(("_hidden_states", "_embeds")) and not name.endswith("inputs_embeds"):  # `context_hidden_states`
        return [Input(name, (BATCH, SEQ, size(*WIDTHS, default=WIDTH)))]
    if name in ("input_ids", "decoder_input_ids"):
        inputs = [Input(name, (BATCH, SEQ if name == "input_ids" else SEQ // 2), "ids", vocab)]
        if name == "input_ids" and "attention_mask" in accepted:
            inputs.append(Input("attention_mask", (BATCH, SEQ), "mask"))
        return inputs
    if name in ("pixel_values", "pixel_values_videos"):
        height, width = size.pair("image_size", "img_size", default=32)
        return [Input(name, (BATCH, size("num_channels", "in_chans", default=3), height, width))]
    if name == "input_values":
        return [Input(name, (BATCH, 4000))]
    if name == "input_features":
        mel = size("num_mel_bins", default=0)
        if mel:
            return [Input(name, (BATCH, mel, 2 * size("max_source_positions", default=POSITIONS)))]
        width = size("input_feat_per_channel", "feature_size", default=80) * size("input_channels", default=1)
        inputs = [Input(name, (BATCH, SEQ * 4, width))]
        if "attention_mask" in accepted:
            inputs.append(Input("attention_mask", (BATCH, SEQ * 4), "mask"))
        return inputs
    if name.endswith("inputs_embeds") or name == "input_embeds":  # embeddings: (batch, sequence, width)
        inputs = [Input(name, (BATCH, SEQ, size(*WIDTHS, default=WIDTH)))]
        if "attention_mask" in accepted:
            inputs.append(Input("attention_mask", (BATCH, SEQ), "mask"))
        return inputs
    if name == "bbox":  # one box per token (document models): integer corners on a 0-1000 grid
        return [Input(name, (BATCH, SEQ, size("dim_bbox", default=4)), "ids", 1000)]
    feature = size(*dict.fromkeys((f"{name}_dim", f"{name.removesuffix('s')}_dim")), default=0)
    if feature:  # features a config key sizes after their name (`visual_feats`: `visual_feat_dim`)
        return [Input(name, (BATCH, SEQ // 2, feature))]
    if name in SERIES_INPUTS:  # a time series: context (plus the largest lag) steps, then the predicted ones
        context = size("context_length", default=SEQ * 2)
        context = context if context <= 8 * SEQ else max(4 * size("patch_length", default=SEQ), SEQ * 2)
        lags = getattr(size.configs[0], "lags_sequence", None) or [0]
        steps = size("prediction_length", default=SEQ // 2) if name.startswith("future_") else \
            context + max((x for x in lags if isinstance(x, int)), default=0)
        channels = size("num_input_channels", "input_size", default=1)
        if name.endswith("_time_features"):
            return [Input(name, (BATCH, steps, size("num_time_features", default=1)))]
        return [Input(name, (BATCH, steps, channels) if channels > 1 else (BATCH, steps),
                      "mask" if name.endswith("_mask") else "float")]
    return None


def flat_patches(name: str, size: Sizes, grid: str = "grid_thw") -> list[Input]:
    """Images cut into flattened patches (Qwen-style vision towers): two images of ``grid`` (the
    input called ``grid_thw`` or ``image_grid_thw``: 1 frame, a 2x2 grid of merged patch blocks
    each), one row of channels x frames x patch pixels per patch."""
    merge = size("spatial_merge_size", "merge_size", default=2)
    side = 2 * merge
    if name == grid:
        return [Input(name, (BATCH, 3), "rows", value=((1, side, side),) * BATCH)]
    if name == "merge_sizes":
        return [Input(name, (BATCH,), "rows", value=(merge,) * BATCH)]
    patch = size("patch_size", default=14)
    row = size("in_channels", "num_channels", default=3) * size("temporal_patch_size", default=1) * patch * patch
    return [Input(name, (BATCH * side * side, row))]


def patch_rows(name: str, size: Sizes) -> list[Input]:
    """Images as rows of patches with each image's grid (Siglip2-style towers): a square grid of
    ``num_patches``, one row of channels x patch pixels per patch."""
    side = math.isqrt(size("num_patches", default=16))
    if name == "spatial_shapes":
        return [Input(name, (BATCH, 2), "rows", value=((side, side),) * BATCH)]
    if name == "pixel_attention_mask":
        return [Input(name, (BATCH, side * side), "mask")]
    patch = size("patch_size", default=16)
    return [Input(name, (BATCH, side * side, size("num_channels", default=3) * patch * patch))]


def input_names(cls, config, model) -> tuple[str, list[str]]:
    """The main input's name and the other inputs to make: the forward's required parameters, the
    images of a dual encoder, the decoder's ids of an encoder-decoder."""
    params = parameters(type(model).forward)
    accepted = {p.name for p in params}
    main = getattr(cls, "main_input_name", None)
    if not isinstance(main, str) or main not in accepted:
        main = next(iter(p.name for p in params), None)
    names = [p.name for p in params if p.default is inspect.Parameter.empty and p.name != main]
    vision = getattr(config, "vision_config", None) is not None
    image_tokens = any(getattr(config, k, None) is not None for k in ("image_token_id", "image_token_index"))
    if main == "input_ids" and "pixel_values" in accepted and vision and not image_tokens:
        names.append("pixel_values")  # a dual encoder (CLIP-style) takes text and images together
    if getattr(config, "is_encoder_decoder", False) and "decoder_input_ids" in accepted and main != "decoder_input_ids":
        names.append("decoder_input_ids")
    return main, names


def main_inputs(cls, config, model, torch) -> list[Input]:
    """Inputs named after the model's main input and its other required ones, from the config's sizes
    (a main input of a name no rule knows: shaped for the model's first layer)."""
    accepted = {p.name for p in parameters(type(model).forward)}
    size = Sizes(config)
    main, others = input_names(cls, config, model)
    if main is None:
        defined = type(model).forward is not torch.nn.Module.forward
        raise CannotSynthesize(f"{cls.__name__}'s forward names no input" if defined else
                               f"{cls.__name__} defines no forward to run")
    inputs = make_input(main, size, accepted)
    if inputs is None:
        made = first_layer_input(main, model, torch)
        inputs = [made] if made is not None else None
    if inputs is None:
        raise CannotSynthesize(f"{cls.__name__}'s main input {main!r} is not one fullgraph knows how to make")
    for name in others:
        made = make_input(name, size, accepted) or mask_for(name, inputs)
        if made is None:
            raise CannotSynthesize(f"{cls.__name__}'s input {name!r} is not one fullgraph knows how to make")
        inputs += [i for i in made if i.name not in {j.name for j in inputs}]
    return inputs


def mask_for(name: str, inputs: list[Input]) -> list[Input] | None:
    """A mask named after an input already made (``input_features_mask``, ``audio_mel_mask``,
    ``pixel_attention_mask``, ``past_values_padding``): over that input's positions, its shape
    without the feature axis (the last of a sequence, the channels of an image)."""
    for suffix in MASK_SUFFIXES:
        stem = name[: -len(suffix)] if name.endswith(suffix) else ""
        for i in inputs if stem else ():
            if i.kind == "float" and i.name.startswith(stem):
                shape = i.shape if len(i.shape) < 3 else i.shape[:-1] if len(i.shape) == 3 else (i.shape[0], *i.shape[2:])
                return [Input(name, shape, "mask")]
    return None


def other_layouts(inputs: list[Input], error: str, size: Sizes, accepted: set) -> list[list[Input]]:
    """Inputs to try when the first ones raised, from what the error says: each input the error (or
    a line it passed through) names that the forward accepts (``exactly one of A or B``: A, then
    B), no cache when the cache failed, token sequences of the length a size mismatch names,
    floats for integer inputs a line computes with as floats, the width a linear or norm layer
    asked for, the rank an unpacking asked for, the channels and rank a convolution asked for, the
    size a reshape finds missing (codebooks folded into the batch, or an axis of their own), an
    axis the error spells out (``5D tensor of shape (batch_size, 2, ...)``)."""
    have = {i.name for i in inputs}
    out = []
    if "use_cache" in accepted - have and "cache" in error.lower():
        out.append(inputs + [Input("use_cache", (), "off")])
    named = sorted((m.start(), n) for n in accepted - have if (m := re.search(rf"\b{re.escape(n)}\b", error)))
    for _, n in named:
        added = [i for i in make_input(n, size, accepted) or mask_for(n, inputs) or () if i.name not in have]
        if added:
            out.append(inputs + added)
    if re.search(r"dtype must be either a floating point|same dtype, but got Long and Float|expected scalar type Float but found Long", error):
        floats = [replace(i, kind="float") if i.kind == "ids" and re.search(rf"\b{re.escape(i.name)}\b", error) else i for i in inputs]
        if floats != inputs:  # integers the failing line computes with as floats
            out.append(floats)
    sizes = re.search(r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\)", error)
    for was, now in ((int(sizes[1]), int(sizes[2])), (int(sizes[2]), int(sizes[1]))) if sizes else ():
        if any(i.kind in ("ids", "mask") and i.shape[1:2] == (was,) for i in inputs):  # token sequences tied to another input
            out.append([replace(i, shape=(i.shape[0], now, *i.shape[2:])) if i.kind in ("ids", "mask") and i.shape[1:2] == (was,)
                        else i for i in inputs])
    widths = re.search(r"shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)", error)
    norms = re.search(r"normalized_shape=\[(\d+)\], expected input with shape \[\*, \d+\], but got input of size\s*\[([\d, ]+)\]",
                      error)
    unpack = re.search(r"not enough values to unpack \(expected (\d+), got (\d+)\)", error)
    axis = re.search(r"Dimension out of range \(expected to be in range of \[-(\d+), \d+\], but got (\d+)\)", error)
    ranks = (int(unpack[1]), int(unpack[2])) if unpack else (int(axis[2]) + 1, int(axis[1])) if axis else None
    channels = re.search(r"expected input\[([\d, ]+)\] to have (\d+) channels, but got \d+ channels", error)
    reshape = re.search(r"shape '\[([-\d, ]+)\]' is invalid for input of size (\d+)", error)
    for k, i in enumerate(inputs if reshape else ()):  # a reshape names the size an input lacks
        dims = [int(d) for d in reshape[1].split(",")]
        lacking = math.prod(d for d in dims if d > 0 and d not in i.shape)
        if math.prod(i.shape) == int(reshape[2]) and 1 < lacking <= MAX_FOLD:
            out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]]
                    for shape in ((i.shape[0] * lacking, *i.shape[1:]), (*i.shape, lacking))]
    named_shape = re.search(r"(\d)D tensor of shape \(([^)]*)\)", error)
    conv = re.search(r"Expected \dD \(unbatched\) or (\d)D \(batched\) input to conv\dd, but got input of size: \[([\d, ]+)\]", error)
    for k, i in enumerate(inputs):
        shapes = [*_reshaped(i, widths, norms, ranks, channels), *(_conv_ranked(i, conv, size) if conv else ())]
        parts = [p.strip() for p in named_shape[2].split(",")] if named_shape else []
        literal = next((n for n, p in enumerate(parts) if p.isdigit()), None)
        if literal is not None and i.kind == "float" and len(i.shape) + 1 == int(named_shape[1]) == len(parts):
            shapes.append((*i.shape[:literal], int(parts[literal]), *i.shape[literal:]))  # the axis the error spells out
        out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]] for shape in shapes]
    return out


def _conv_ranked(i: Input, conv, size: Sizes):
    """Input ``i`` of the rank a convolution asked for (``conv``: the batched rank it wants, the
    size it got): without the channel axis the code adds itself, or rows of flattened patches as
    small images (channels x patch x patch)."""
    wanted, seen = int(conv[1]), len(conv[2].split(","))
    patch = size("patch_size", default=14)
    pixels = size("num_channels", "in_channels", default=3) * patch * patch
    if i.kind != "float":
        return
    if seen == wanted + 1 and len(i.shape) == wanted and i.shape[1] == 1:
        yield (i.shape[0], *i.shape[2:])
    elif seen < wanted - 1 and i.shape[-1] == pixels:
        yield (*i.shape[:-1], pixels // patch ** 2, patch, patch)


def _reshaped(i: Input, widths, norms, ranks, channels):
    """Other shapes for input ``i``, from what the error matched: the width a linear or norm layer
    asked for, a channel axis an unpacking, an axis index or a convolution asked for, the number of
    channels it asked for."""
    if i.kind != "float":
        return
    if widths and len(i.shape) > 1 and i.shape[-1] == int(widths[1]):
        yield (*i.shape[:-1], int(widths[2]))
    if norms and tuple(int(d) for d in norms[2].split(",")) == i.shape:
        yield (*i.shape[:-1], int(norms[1]))
    if ranks and ranks[0] == ranks[1] + 1 and len(i.shape) in ranks:  # (rank wanted, rank seen): one axis short
        yield (i.shape[0], 1, *i.shape[1:])  # of the input, or of what the code made of it (images per sample folded)
    if channels:
        seen, want = tuple(int(d) for d in channels[1].split(",")), int(channels[2])
        if len(seen) == len(i.shape) + 1 and seen[:2] == (1, i.shape[0]):  # read unbatched: no channel axis
            yield (i.shape[0], want, *i.shape[1:])
        elif seen == i.shape and len(i.shape) > 2:
            yield (i.shape[0], want, *i.shape[2:])


def guessed_layouts(inputs: list[Input], size: Sizes) -> list[list[Input]]:
    """Inputs to try once what the errors say is spent: the frames of a video, time-major audio
    features, larger images, a series with its channel axis, a waveform with its channel axis."""
    frames = size("num_frames", "frames_per_clip", default=0)
    out = []
    for k, i in enumerate(inputs):
        shapes = []
        if i.kind == "float" and frames and i.name.startswith("pixel_values") and len(i.shape) == 4:
            shapes.append((i.shape[0], frames, *i.shape[1:]))
        if i.kind == "float" and i.name == "input_features" and len(i.shape) == 3:
            shapes.append((i.shape[0], i.shape[2], i.shape[1]))
        if i.kind == "float" and i.name.startswith("pixel_values") and len(i.shape) == 4 and i.shape[-1] < LARGE_IMAGE:
            shapes.append((*i.shape[:2], LARGE_IMAGE, LARGE_IMAGE))
        if i.kind == "float" and i.name in ("past_values", "input_values") and len(i.shape) == 2:
            shapes.append((*i.shape, 1) if i.name == "past_values" else (i.shape[0], 1, i.shape[1]))
        out += [[*inputs[:k], replace(i, shape=shape), *inputs[k + 1 :]] for shape in shapes]
    return out


def hugging_face(cls, config_cls, module, torch, trial=None) -> Synthesized:
    """The first tiny model and inputs that run eagerly (``trial`` returns None, or the error raised):
    the tiny config, then one that keeps the default head size, then (narrow models) the default
    widths; the main inputs, then the layouts their error suggests; a config the error asks to
    repair (``repairs``) is built again. With none that runs, the first built (its run says what failed)."""
    first, problem = None, None
    for widths in ("tiny", "head", "keep") if trial else ("tiny",):
        extra: dict = {}
        for _ in range(REPAIRS + 1):
            try:
                built, config = hugging_face_built(cls, config_cls, module, widths, torch, extra)
            except CannotSynthesize as e:
                problem = e if problem is None or extra else problem  # after a repair, what still fails
                error, config = str(e), None
            else:
                if trial is None:
                    return built
                first = first or built
                ran, error = runs(built, config, trial)
                if ran is not None:
                    return ran
            more = merged(extra, repairs(error, config if config is not None else default_config(config_cls)))
            if more == extra:
                break
            extra = more
    if first is not None:
        return first
    raise problem


def runs(built: Synthesized, config, trial) -> tuple[Synthesized | None, str]:
    """The first input layout of ``built`` that runs (``trial``), from its main inputs and the layouts
    each error suggests, then the guessed ones; else None and the last error."""
    accepted = {p.name for p in parameters(type(built.model).forward)}
    candidates, guesses, seen, error = [built.inputs], [], [], ""
    while (candidates or guesses) and len(seen) < TRIALS:
        inputs = (candidates or guesses).pop(0)
        seen.append(inputs)
        attempt = Synthesized(built.model, inputs, False, built.build, built.imports)
        error = trial(attempt)
        if error is None:
            return attempt, ""
        candidates += [c for c in other_layouts(inputs, error, Sizes(config), accepted)
                       if c not in seen and c not in candidates]
        guesses += [c for c in guessed_layouts(inputs, Sizes(config)) if c not in seen and c not in guesses]
    return None, error


def repairs(error: str, config) -> dict:
    """Config overrides an error asks for (nested configs as dicts of their own): rotary sections that
    must add up to the size a split names (``mrope_section``, which model code may default when the
    config has none), a size the config leaves unset that the error names in backquotes
    (``prediction_length``, ``sliding_window``)."""
    if config is None:
        return {}
    values = {k: v for k, v in vars(config).items() if not k.startswith("_")}
    out: dict = {}
    split = re.search(r"split_sizes to sum exactly to (\d+)\b.*?got split_sizes=\[([\d, ]+)\]", error)
    if split:
        sections = fit_sections([int(x) for x in split[2].split(",")], int(split[1]))
        out.update({k: {**values[k], "mrope_section": sections} for k in ("rope_parameters", "rope_scaling")
                    if isinstance(values.get(k), dict) and values[k].get("mrope_section") != sections})
    out.update({name: SEQ // 2 for name in re.findall(r"`(\w+)`", error) if name in values and values[name] is None})
    for k, sub in values.items():
        if is_config(sub):
            inner = repairs(error, sub)
            if inner:
                out[k] = inner
    return out


def merged(base: dict, more: dict) -> dict:
    """``base`` with ``more`` laid over it, nested dicts merged key by key."""
    out = dict(base)
    for k, v in more.items():
        out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def default_config(config_cls):
    try:
        return config_cls()
    except Exception:  # a config that needs arguments: nothing to repair
        return None


def hugging_face_built(cls, config_cls, module, widths: str, torch, extra: dict) -> tuple[Synthesized, object]:
    model, config, made, named = tiny_model(cls, config_cls, widths, extra)
    inputs = main_inputs(cls, config, model, torch)
    name = named.__name__
    imports = [] if getattr(module, name, None) is named else [f"from {named.__module__} import {name}"]
    build = [f"config = {made}", f"model = {cls.__name__}(config).eval()"]
    return Synthesized(model, inputs, positional=False, build=build, imports=imports), config


def tiny_model(cls, config_cls, widths: str, extra: dict) -> tuple[object, object, str, type]:
    """``cls`` built on a tiny ``config_cls``, else on the one a parent config of the same module
    holds (a sub-config its parent completes: an encoder's dropout set by the encoder-decoder
    config); with the expression that makes the config and the config class it names."""
    try:
        config, overrides = tiny_config(config_cls, widths, extra)
        return cls(config).eval(), config, f"{config_cls.__name__}({keywords(overrides)})", config_cls
    except Exception as e:
        first = e if isinstance(e, CannotSynthesize) else \
            CannotSynthesize(f"{cls.__name__}(tiny {config_cls.__name__}) raised {type(e).__name__}: {e}")
    for parent, key in parent_configs(config_cls):
        try:
            config, overrides = tiny_config(parent, widths)
            return cls(getattr(config, key)).eval(), getattr(config, key), f"{parent.__name__}({keywords(overrides)}).{key}", parent
        except Exception:  # that parent does not build it either
            continue
    raise first


def keywords(overrides: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in overrides.items())


def parent_configs(config_cls):
    """(parent class, attribute) of the config classes in ``config_cls``'s module whose default
    instance holds a ``config_cls`` (``T5Gemma2Config().encoder``)."""
    module = sys.modules.get(config_cls.__module__)
    for parent in list(vars(module).values()) if module is not None else ():
        if not isinstance(parent, type) or parent is config_cls or parent.__module__ != config_cls.__module__ \
                or not hasattr(parent, "to_dict"):
            continue
        try:
            default = parent()
        except Exception:  # a config that needs arguments
            continue
        yield from ((parent, key) for key, value in vars(default).items() if type(value) is config_cls)


# --- plain modules ----------------------------------------------------------------------


def plain(cls, torch) -> Synthesized:
    try:
        model = cls().eval()
    except Exception as e:
        raise CannotSynthesize(f"{cls.__name__}() raised {type(e).__name__}: {e}") from None
    first = next(iter(p.name for p in parameters(cls.forward)), "x")
    made = first_layer_input(first, model, torch)
    if made is None:
        raise CannotSynthesize(f"{cls.__name__} has no Linear, Conv, Embedding or RNN layer to shape an input from")
    return Synthesized(model, [made], positional=True, build=[f"model = {cls.__name__}().eval()"], imports=[])


def first_layer_input(name: str, model, torch) -> Input | None:
    """An input called ``name`` shaped for the model's first `Linear`, `Conv*d` (transposed too),
    `Embedding` or RNN layer (batch 2), or None when it has none."""
    nn = torch.nn
    for layer in model.modules():
        if layer is model:
            continue
        if isinstance(layer, nn.Linear):
            return Input(name, (BATCH, layer.in_features))
        if isinstance(layer, nn.modules.conv._ConvNd) and len(layer.kernel_size) in (1, 2, 3) and layer.in_channels:
            spatial = {1: (32,), 2: (32, 32), 3: (8, 8, 8)}[len(layer.kernel_size)]
            return Input(name, (BATCH, layer.in_channels, *spatial))
        if isinstance(layer, nn.Embedding):
            return Input(name, (BATCH, SEQ), "ids", layer.num_embeddings)
        if isinstance(layer, nn.RNNBase):
            return Input(name, (BATCH, SEQ, layer.input_size) if layer.batch_first else (SEQ, BATCH, layer.input_size))
    return None
