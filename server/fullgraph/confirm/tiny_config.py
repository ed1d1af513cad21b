"""A Hugging Face-style default config made tiny by key name (``shrunk``), and repaired as the
errors of a model built on it ask (``repairs``). Standard library only; runs in the confirm worker."""

from __future__ import annotations

import inspect
import re

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
FEATURE_LAYER_SUFFIXES = ("feature_layer", "feature_layers")  # layer indices a tower's features are taken from
WIDTH_SUFFIXES = ("_hidden_size",)  # a part's width (`fpn_hidden_size`): shrunk with the others it matches
WIDTH_PREFIXES = ("hidden_size_",)  # the width of another part (`hidden_size_global`)
TIED_SUFFIXES = ("_in_dim", "_out_dim", "_input_size", "_output_size", "_input_dim", "_output_dim")  # an adapter's ends
KEPT_WIDTH = 4096  # the widest feed-forward a config may have to be tried with its default widths
LARGE_IMAGE = 128  # the side of the larger images tried (once: memory grows with its square)


class CannotSynthesize(Exception):
    """No factory could be built; the message says why. ``config``: the config a model failed to
    build on, when one was made (what repairs start from)."""

    config = None


def shrunk(config, widths: str = "tiny", tied: set | None = None) -> dict:
    """Overrides that make ``config`` tiny, by key name (sub-configs as dicts of their own overrides).

    ``widths`` is ``tiny`` (32 wide), ``head`` (the shrunk head count times the default head size,
    for code sized on it: rotary sections written in the model, not the config) or ``keep`` (the
    default widths and heads, 128-pixel images: only depth, vocabulary, positions and experts
    shrink, for sizes tied to each other in ways no key name tells). ``tied``: the widths of the
    whole config (its parent's and siblings' too) that an adapter's ends must match."""
    values = {k: v for k, v in vars(config).items() if not k.startswith("_")}
    out: dict = {}
    tied = model_widths(config) if tied is None else tied

    def lower(keys, to, width=False):
        for k in keys if not (width and widths == "keep") else ():
            if width and derived(config, k):
                continue  # the config works it out from the widths it shrinks (`2 * hidden_size`)
            if isinstance(values.get(k), int) and not isinstance(values[k], bool) and values[k] > to:
                out[k] = to

    parts = sorted(k for k in values if k.endswith(WIDTH_SUFFIXES) or k.startswith(WIDTH_PREFIXES))
    lower((*WIDTHS, *(k for k in parts if k not in WIDTHS)), WIDTH, width=True)
    lower(FFNS, FFN, width=True)
    lower(sorted(k for k in values if k.endswith(TIED_SUFFIXES) and values[k] in tied and widths == "tiny"), WIDTH)
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
    out.update(layer_kinds(config, values, out) if layers else {})
    if layers:  # the stages a backbone hands on, among those left
        kept = min(layers.values())
        for k, v in ((k, getattr(config, k, None)) for k in ("out_indices", "out_features")):  # properties too
            if isinstance(v, (list, tuple)) and v and all(isinstance(x, int) or stage_number(x) for x in v):
                fit = sorted({min(x if isinstance(x, int) else stage_number(x), kept) for x in v})
                new = fit if k == "out_indices" else [f"stage{n}" for n in fit]
                if new != list(v):
                    out[k] = new
    for k in (k for k in values if k.endswith(FEATURE_LAYER_SUFFIXES)):  # indices into a (sibling) tower's layers
        fit = fit_layer_indices(values[k])
        if fit != values[k]:
            out[k] = fit
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
    head_dim = head_size({**values, **out}) or None
    if widths == "head" and "hidden_size" in out and isinstance(heads, int):
        original = head_size(values)
        out["hidden_size"] = heads * original  # the default head size kept, with few heads
        head_dim = original
    if "head_dim" in values and values["head_dim"] is None and head_dim:
        out["head_dim"] = head_dim  # a default config that leaves it None for code that reads it as a size
    for k in ("rope_parameters", "rope_scaling"):
        rope = values.get(k)
        if head_dim and isinstance(rope, dict) and isinstance(rope.get("mrope_section"), list):
            sections = fit_sections(rope["mrope_section"], rotary_size(head_dim, rope, values) // 2)  # half the rotated part
            if sections != rope["mrope_section"]:
                out[k] = {**rope, "mrope_section": sections}
    image, patch = values.get("image_size"), values.get("patch_size")
    if isinstance(image, int) and widths == "keep" and image > LARGE_IMAGE:
        out["image_size"] = LARGE_IMAGE  # patches and windows kept: a size they still divide
    elif isinstance(image, int) and image > 32 and widths != "keep":
        out["image_size"] = min(image, max(32, windowed_side(values)))
        if isinstance(patch, int) and patch > 8 and out["image_size"] == 32:
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
            inner = nested_overrides(sub, widths, tied)
            if inner:
                out[k] = inner
    return out


def derived(config, key: str) -> bool:
    """Whether the config's class leaves ``key`` unset (None) and the config filled it in from others."""
    return getattr(type(config), key, 0) is None and getattr(config, key, None) is not None


def windowed_side(values: dict) -> int:
    """The smallest image whose last stage still holds a whole attention window (``window_size``),
    each of the ``depths`` stages after the first halving the grid of ``patch_size`` patches; 0 for
    a model without windowed stages."""
    window, patch, stages = values.get("window_size"), values.get("patch_size"), values.get("depths")
    if type(window) is not int or type(patch) is not int or not isinstance(stages, (list, tuple)) or not stages:
        return 0
    return window * patch * 2 ** (len(stages) - 1)


def model_widths(config) -> set:
    """The widths wider than the tiny one in a config and its nested configs (hidden sizes)."""
    return {v for k, v in nested_items(config) if (k in WIDTHS or k.endswith(WIDTH_SUFFIXES)) and type(v) is int and v > WIDTH}


def nested_items(config, depth: int = 0):
    """The (key, value) pairs of a config and of its nested configs, four levels deep at most."""
    for k, v in vars(config).items():
        yield k, v
        if is_config(v) and depth < 4:
            yield from nested_items(v, depth + 1)


def layer_kinds(config, values: dict, out: dict) -> dict:
    """Counts of a kind of layer (``num_sparse_encoder_layers``) that follow the layer counts cut in
    ``out``: one layer of that kind beside the others; a count the config's class subtracts from a
    layer count (``num_hidden_layers - num_kv_shared_layers``: the last layers) scaled with it."""
    tails = {part: whole for whole, part in
             re.findall(rf"\b({'|'.join(LAYER_KEYS)})\s*-\s*self\.(\w+)", class_source(config))}
    lengths = {len(x) for x in (out.get(j, v) for j, v in values.items()) if isinstance(x, (list, tuple))}
    kinds = {}
    for k, v in values.items():
        if k in LAYER_KEYS or not re.fullmatch(r"num_\w+_layers", k) or type(v) is not int or v < 2 or v in lengths:
            continue  # (a count that per-layer lists left whole must match: `len(conv_dim)`)
        whole = tails.get(k)
        if whole in out and type(values[whole]) is int and v < values[whole]:
            kinds[k] = v * out[whole] // values[whole]
        elif whole is None:
            kinds[k] = 1
    return kinds


def class_source(config) -> str:
    """The source of a config's class (its defaults and checks), or "" where there is none."""
    try:
        return inspect.getsource(type(config))
    except (OSError, TypeError):
        return ""


def nested_overrides(sub, widths: str, tied: set | None = None) -> dict:
    """A nested config's overrides: what the parent set apart from the sub-config class's defaults,
    and what shrinks it (nothing when nothing shrinks)."""
    inner = shrunk(sub, widths, tied)
    if not inner:
        return {}
    kind = getattr(sub, "model_type", None)
    return {**({"model_type": kind} if isinstance(kind, str) and kind else {}), **own_values(sub), **inner}


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


def fit_layer_indices(v):
    """Layer indices (``vision_feature_layer = [24, 18]``) that index the shrunk layers: those past
    them counted down from the last one, deepest first; negative ones (from the end) kept."""
    items = [v] if type(v) is int else list(v) if isinstance(v, (list, tuple)) else []
    if not items or not all(type(x) is int for x in items):
        return v
    deep = sorted({x for x in items if x >= LAYERS}, reverse=True)
    fit = [max(LAYERS - 1 - deep.index(x), 0) if x in deep else x for x in items]
    return fit[0] if type(v) is int else type(v)(fit)


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
        config = config_cls(**overrides)
        refilled = {k: nested_overrides(getattr(config, k), widths) for k, v in overrides.items()
                    if v is None and is_config(getattr(config, k, None))}  # a dropped sub-config, back as its default
        if any(refilled.values()):
            overrides = {**overrides, **refilled}
            config = config_cls(**overrides)
        return config, overrides
    except Exception as e:
        raise CannotSynthesize(f"a tiny {config_cls.__name__} raised {type(e).__name__}: {e}") from None


def widest(config) -> int:
    """The largest width (hidden or feed-forward size) of a config and its nested configs."""
    return max((v for k, v in nested_items(config) if k in WIDTHS + FFNS and isinstance(v, int)), default=0)


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


def repairs(error: str, config) -> dict:
    """Config overrides an error asks for (nested configs as dicts of their own): rotary sections that
    must add up to the size a split names (``mrope_section``, which model code may default when the
    config has none), a size the config leaves unset that the error names in backquotes
    (``prediction_length``, ``sliding_window``), ids for the special tokens it leaves unset when
    ids were compared with one (a bool where a mask was due), per-layer kinds it leaves unset where
    None was indexed, a key-value head count or a special token's id the model reads and the config's
    class lacks (one key-value head per query head; a free id), rotary sections a rope dict lacks where
    the error names them as None (``len(self.mrope_section)``), each kind of layer twice where tied
    weights found no other layer to tie to (``tie_weights_keys``), a switch off an optional library
    the environment lacks (``without_library``)."""
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
    if re.search(r"'bool' object has no attribute", error):  # `input_ids == config.image_token_id` with no id
        out.update(unset_tokens(values, Sizes(config)("vocab_size", default=VOCAB)))
    lacking = re.search(r"'(\w+)' object has no attribute '(\w+)'", error)
    heads = next((values[h] for h in HEAD_KEYS if type(values.get(h)) is int), None)
    own = lacking and lacking[1] == type(config).__name__ and lacking[2] not in values  # a key its class lacks
    if own and lacking[2] in KV_HEAD_KEYS and heads:
        out[lacking[2]] = heads  # one key-value head per query head
    if own and lacking[2].endswith(TOKEN_SUFFIXES):  # a special token's id (`vision_start_token_id`)
        out.update(unset_tokens({**values, lacking[2]: None}, Sizes(config)("vocab_size", default=VOCAB)))
    if "'NoneType' object is not subscriptable" in error:  # `config.layer_types[i]` with none set
        out.update(unset_layer_types(values))
    if re.search(r"'NoneType' has no len|'NoneType' object is not (iterable|subscriptable)", error):
        out.update(unset_sections(error, values))
    if "tie_weights_keys" in error:  # weights tied across the layers of a kind, with one layer of it
        out.update(doubled_layers(values))
    missing = re.search(r"requires the (\w+) library", error)
    if missing:
        out.update(without_library(missing[1], config, values))
    for k, sub in values.items():
        if is_config(sub):
            inner = repairs(error, sub)
            if inner:
                out[k] = inner
    return out


def unset_sections(error: str, values: dict) -> dict:
    """Rotary sections (``mrope_section``) the model reads from a rope dict that has none, where the
    error names them: three axes sharing half the head."""
    if "mrope_section" not in error:
        return {}
    ropes = {k: values[k] for k in ("rope_parameters", "rope_scaling")
             if isinstance(values.get(k), dict) and values[k].get("mrope_section") is None}
    halves = {k: rotary_size(head_size(values), rope, values) // 2 for k, rope in ropes.items()}
    return {k: {**ropes[k], "mrope_section": fit_sections([1, 1, 1], half)} for k, half in halves.items() if half}


def head_size(values: dict) -> int:
    """An attention head's size: the explicit ``head_dim``, else the width over the heads (0 when unknown)."""
    heads = next((values[h] for h in HEAD_KEYS if type(values.get(h)) is int and values[h]), None)
    width = values.get("hidden_size")
    return values["head_dim"] if type(values.get("head_dim")) is int else width // heads if type(width) is int and heads else 0


def rotary_size(head: int, rope: dict, values: dict) -> int:
    """The rotated part of a head of size ``head``: its ``partial_rotary_factor`` (the rope dict's or the config's)."""
    partial = rope.get("partial_rotary_factor", values.get("partial_rotary_factor"))
    return int(head * partial) if isinstance(partial, (int, float)) and 0 < partial <= 1 else head


def doubled_layers(values: dict) -> dict:
    """Twice the layers, the per-layer lists repeated: each kind of layer in two of them (a block one
    layer shares with the others of its kind)."""
    counts = {k: values[k] for k in LAYER_KEYS if type(values.get(k)) is int and values[k] > 0}
    lists = {k: list(v) * 2 for k, v in values.items() if isinstance(v, (list, tuple)) and len(v) in counts.values()
             and len(v) > 1 and k not in LIST_WIDTHS}
    return {**{k: 2 * v for k, v in counts.items()}, **lists} if lists else {}


def unset_tokens(values: dict, vocab: int) -> dict:
    """Ids below ``vocab``, apart from those in use, for the special tokens a config leaves unset
    (``image_token_index = None``), besides padding, start and end."""
    keys = sorted(k for k in values if k.endswith(TOKEN_SUFFIXES) and k not in TOKEN_KEYS and values[k] is None)
    used = {v for k, v in values.items() if k.endswith(TOKEN_SUFFIXES) and isinstance(v, int)}
    free = (i for i in range(vocab - 1, -1, -1) if i not in used)
    return dict(zip(keys, free))


def unset_layer_types(values: dict) -> dict:
    """Per-layer kinds a config leaves unset (``layer_types = None``): full attention in every layer,
    as many as the (shrunk) layer count."""
    count = next((values[k] for k in LAYER_KEYS if type(values.get(k)) is int), None)
    keys = [k for k in values if k.endswith("layer_types") and values[k] is None]
    return {k: ["full_attention"] * min(count, LAYERS) for k in keys} if count else {}


def without_library(library: str, config, values: dict) -> dict:
    """Overrides that build ``config`` without an optional library the environment lacks: each switch
    its class's source names after the library (``use_timm_backbone``) turned off, and each nested
    config whose model type names it dropped (the class's default for it comes in its place)."""
    switches = set(re.findall(rf"\b(use_\w*{re.escape(library)}\w*)\b", class_source(config)))
    if not switches:
        return {}
    nested = {k: None for k, v in values.items() if is_config(v) and library in str(getattr(v, "model_type", ""))}
    return {**{k: False for k in sorted(switches)}, **nested}


def merged(base: dict, more: dict) -> dict:
    """``base`` with ``more`` laid over it, nested dicts merged key by key."""
    out = dict(base)
    for k, v in more.items():
        out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def default_config(config_cls):
    """The class's default config (to repair when no tiny one could be made), or None."""
    try:
        return config_cls()
    except Exception:  # a config that needs arguments: nothing to repair
        return None
