"""Sample inputs made by name (``input_ids``, ``pixel_values``, ``input_features``...) and sized
from a config: each is a small spec that makes the tensor and writes the line of Python that makes it."""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass, replace

from .tiny_config import BATCH, POSITIONS, SEQ, VOCAB, WIDTH, WIDTHS, Sizes

MASK_SUFFIXES = ("_attention_mask", "_padding_mask", "_mask", "_padding")  # longest first
SERIES_INPUTS = ("past_values", "past_observed_mask", "past_time_features", "future_values", "future_time_features")


@dataclass
class Input:
    """One synthesized input: a name, a shape, a kind (``ids``, ``mask``, ``float``, ``rows``: the
    integer rows ``value``; ``grid``: each patch's (x, y) on a square grid, row by row; ``off``: the
    flag ``False``; ``flags``: a boolean mask) and the id range."""

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
        if self.kind == "grid":
            xs, ys = torch.meshgrid(torch.arange(self.side), torch.arange(self.side), indexing="xy")
            return torch.stack((xs, ys), -1).reshape(1, -1, 2).repeat(self.shape[0], 1, 1)
        if self.kind == "ids":
            return torch.randint(0, self.high, self.shape)
        if self.kind in ("mask", "flags"):
            mask = torch.ones(self.shape, dtype=torch.long if self.kind == "mask" else torch.bool)
            mask[-1, self.shape[-1] * 3 // 4 :] = 0  # right padding on the last row exercises mask code
            return mask
        return torch.randn(self.shape)

    def source(self) -> list[str]:
        shape = "(" + ", ".join(map(str, self.shape)) + ("," if len(self.shape) == 1 else "") + ")"
        if self.kind == "off":
            return [f"{self.name} = False"]
        if self.kind == "rows":
            return [f"{self.name} = torch.tensor({list(map(list, self.value)) if self.shape[1:] else list(self.value)})"]
        if self.kind == "grid":
            return [f'xs, ys = torch.meshgrid(torch.arange({self.side}), torch.arange({self.side}), indexing="xy")',
                    f"{self.name} = torch.stack((xs, ys), -1).reshape(1, -1, 2).repeat({self.shape[0]}, 1, 1)"]
        if self.kind == "ids":
            return [f"{self.name} = torch.randint(0, {self.high}, {shape})"]
        if self.kind in ("mask", "flags"):
            return [f"{self.name} = torch.ones({shape}, dtype=torch.{'long' if self.kind == 'mask' else 'bool'})",
                    f"{self.name}[-1, {self.shape[-1] * 3 // 4}:] = 0  # right padding on the last row"]
        return [f"{self.name} = torch.randn{shape}"]

    def describe(self) -> str:
        if self.kind == "off":
            return f"{self.name}=False"
        dims = "(" + ", ".join(map(str, self.shape)) + ")"
        return f"{self.name} {dims}" + (" int64" if self.kind in ("ids", "mask", "rows", "grid") else
                                        " bool" if self.kind == "flags" else "")

    @property
    def side(self) -> int:
        """The side of a square grid of ``shape[1]`` patches."""
        return math.isqrt(self.shape[1])


def make_input(name: str, size: Sizes, accepted: set) -> list[Input] | None:
    """The input called ``name`` (with the mask that goes with it), sized from the config; None when unknown."""
    vocab = size("vocab_size", default=VOCAB)
    grid = next((n for n in sorted(accepted) if n.endswith("grid_thw")), None)  # `grid_thw`, `image_grid_thw`
    if grid and name in ("hidden_states", "pixel_values", grid, "merge_sizes"):
        return flat_patches(name, size, grid)
    if "spatial_shapes" in accepted and name in ("pixel_values", "spatial_shapes", "pixel_attention_mask"):
        return patch_rows(name, size)
    coords = next((n for n in sorted(accepted) if re.fullmatch(r"(pixel|image)_position_ids", n)), None)
    if coords and name in ("pixel_values", coords):  # patches with their (x, y) on the image's grid
        return patch_grid(name, size)
    if name.endswith("_input_ids") and name != "decoder_input_ids":  # another tower's text (`qformer_input_ids`)
        return [Input(name, (BATCH, SEQ), "ids", vocab)]
    if name.startswith("decoder_input_") and name != "decoder_input_ids":  # the decoder's features, like the encoder's
        return [replace(i, name=name) for i in make_input(name.removeprefix("decoder_"), size, set()) or ()] or None
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
    if name == "input_features" or name.split("_")[-1] in ("mel", "mels"):  # audio features (a mel spectrogram: `audio_mel`)
        mel = size("num_mel_bins", default=0)
        if mel:  # (batch, bins, frames), with the mask over its frames a forward asks for (`input_features_mask`)
            frames = 2 * size("max_source_positions", default=POSITIONS)
            masks = [Input(name + s, (BATCH, frames), "mask") for s in MASK_SUFFIXES if name + s in accepted]
            return [Input(name, (BATCH, mel, frames)), *masks[:1]]
        width = size("input_feat_per_channel", "input_feat_size", "feature_size", default=80) * size("input_channels", default=1)
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


def patch_grid(name: str, size: Sizes) -> list[Input]:
    """Images as rows of patches with each patch's (x, y) on a square grid (Gemma4-style towers):
    a side of two pooling kernels, one row of channels x patch pixels per patch."""
    side = 2 * size("pooling_kernel_size", "spatial_merge_size", "merge_size", default=2)
    if name != "pixel_values":
        return [Input(name, (BATCH, side * side, 2), "grid")]
    patch = size("patch_size", default=16)
    return [Input(name, (BATCH, side * side, size("num_channels", default=3) * patch * patch))]


def mask_for(name: str, inputs: list[Input]) -> list[Input] | None:
    """A mask named after an input already made (``input_features_mask``, ``audio_mel_mask``,
    ``pixel_attention_mask``, ``past_values_padding``, ``classes_attention_mask``): over that
    input's positions, its shape without the feature axis (the last of a sequence, the channels of
    an image; token ids have none)."""
    for suffix in MASK_SUFFIXES:
        stem = name[: -len(suffix)] if name.endswith(suffix) else ""
        for i in inputs if stem else ():
            if i.kind == "ids" and i.name == f"{stem}_input_ids":  # another tower's text (`classes_input_ids`)
                return [Input(name, i.shape, "mask")]
            if i.kind == "float" and i.name.startswith(stem):
                shape = i.shape if len(i.shape) < 3 else i.shape[:-1] if len(i.shape) == 3 else (i.shape[0], *i.shape[2:])
                return [Input(name, shape, "mask")]
    return None


def documented_input(name: str, model, size: Sizes) -> list[Input] | None:
    """The input called ``name`` as the forward's docstring describes it (``freq (`torch.LongTensor`
    of shape `(batch_size,)`)``): each axis a size of the config it names, or a usual one; integers
    below the size the config gives the input (``freq_size``), else zeros; masks and flags."""
    doc = inspect.getdoc(getattr(type(model), "forward", None)) or ""
    found = re.search(rf"^\s*{re.escape(name)} \(`torch\.(\w*)Tensor` of shape `\(([^)]*)\)`", doc, re.M)
    if not found:
        return None
    height, width = size.pair("image_size", "img_size", default=32)
    usual = {"batch_size": BATCH, "num_channels": size("num_channels", "in_chans", default=3), "height": height,
             "width": width, "image_size": height, "hidden_size": size(*WIDTHS, default=WIDTH)}
    dims = [d.strip() for d in found[2].split(",") if d.strip()]
    shape = tuple(int(d) if d.isdigit() else usual.get(d) or size(d, default=SEQ) for d in dims)
    kind = {"Long": "ids", "Bool": "flags"}.get(found[1], "float")
    if kind == "ids" and name.endswith(MASK_SUFFIXES):
        kind = "mask"
    high = size(f"{name}_size", f"num_{name}s", f"{name}_vocab_size", default=1)
    return [Input(name, shape, kind, high)]


def fed_input(name: str, error: str, model) -> list[Input] | None:
    """The input called ``name`` shaped for the layer a line of the error feeds it to
    (``self.embed_action(actions)``), or for a block's first layer: a sequence of that `Linear`'s
    features or `Embedding`'s ids."""
    fed = re.search(rf"self\.(\w+)\(\s*{re.escape(name)}\s*\)", error)
    block = next((m for n, m in model.named_modules() if n.split(".")[-1] == fed[1]), None) if fed and model else None
    layer = next((m for m in block.modules() if hasattr(m, "in_features") or hasattr(m, "num_embeddings")), None) \
        if block is not None else None  # the layer itself, or the first one of a block of them
    if hasattr(layer, "in_features"):
        return [Input(name, (BATCH, SEQ // 2, layer.in_features))]
    if hasattr(layer, "num_embeddings"):
        return [Input(name, (BATCH, SEQ // 2), "ids", layer.num_embeddings)]
    return None
