"""transformers: one tiny random model per modeling module, built from its default config.

Variants: ``base`` (AutoModel, eval, fp32), ``fp16`` (model and float inputs in half),
``train`` (train mode, forward and backward), ``head`` (the first task head the type has, eval),
and ``rope-<type>`` (base model with that RoPE scaling) for types whose config has
``rope_parameters``.
"""

from __future__ import annotations

import inspect

from builders import Case, half_inputs

MODULE = "transformers"
BATCH, SEQ = 2, 12
VOCAB = 128
WIDTH = 32
ROPE_TYPES = ("linear", "dynamic", "yarn", "longrope", "llama3")
HEADS = (
    "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
    "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES",
    "MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES",
    "MODEL_FOR_MASKED_LM_MAPPING_NAMES",
    "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_CTC_MAPPING_NAMES",
    "MODEL_FOR_TIME_SERIES_PREDICTION_MAPPING_NAMES",
)
WIDTH_KEYS = {
    "hidden_size", "d_model", "n_embd", "n_embed", "dim", "embed_dim", "hidden_dim", "d_embed",
    "embedding_size", "word_embed_proj_dim", "projection_dim", "text_embed_dim", "vision_embed_dim",
    "encoder_hidden_size", "decoder_hidden_size", "proj_dim", "model_dim", "emb_dim", "d_latent",
    "hidden_channels", "embedding_dim", "cross_attention_hidden_size", "output_hidden_size",
}
FFN_KEYS = {
    "intermediate_size", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim", "n_inner", "d_ff",
    "dim_feedforward", "mlp_dim", "moe_intermediate_size", "shared_expert_intermediate_size",
    "decoder_intermediate_size", "encoder_intermediate_size", "ffn_hidden_size", "inner_dim",
    "expert_intermediate_size", "mlp_hidden_size",
}
LAYER_KEYS = {
    "num_hidden_layers", "n_layer", "num_layers", "encoder_layers", "decoder_layers", "n_layers",
    "num_decoder_layers", "num_encoder_layers", "decoder_num_hidden_layers", "encoder_num_hidden_layers",
    "num_hidden_groups_layers", "text_num_hidden_layers", "vision_num_hidden_layers",
}
HEAD_KEYS = {
    "num_attention_heads", "n_head", "encoder_attention_heads", "decoder_attention_heads",
    "num_heads", "n_heads", "decoder_num_attention_heads", "encoder_num_attention_heads",
}
KV_HEAD_KEYS = {"num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num"}
HEAD_DIM_KEYS = {"head_dim", "attention_head_size", "d_kv", "kv_channels", "qk_head_dim", "v_head_dim"}
SMALL_DIM_KEYS = {"qk_rope_head_dim", "qk_nope_head_dim", "num_frames", "rotary_dim"}
RANK_KEYS = {"kv_lora_rank", "q_lora_rank"}
EXPERT_KEYS = {"num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"}
TOPK_KEYS = {"num_experts_per_tok", "moe_topk", "top_k", "num_selected_experts"}
POSITION_KEYS = {"max_position_embeddings", "n_positions", "max_seq_len", "max_sequence_length", "n_ctx"}
IMAGE_KEYS = {"image_size", "img_size"}
GROUP_KEYS = {"num_groups", "norm_num_groups", "resnet_groups", "num_norm_groups", "groups"}


def version() -> str:
    import transformers

    return transformers.__version__


def _auto():
    from transformers.models.auto import configuration_auto, modeling_auto

    return configuration_auto, modeling_auto


def models() -> list[str]:
    """One model type per modeling module: the type named like its module, else the shortest."""
    configuration_auto, modeling_auto = _auto()
    by_module: dict[str, list[str]] = {}
    for model_type in modeling_auto.MODEL_MAPPING_NAMES:
        if model_type in configuration_auto.CONFIG_MAPPING_NAMES:
            module = configuration_auto.model_type_to_module_name(model_type)
            by_module.setdefault(module, []).append(model_type)
    chosen = []
    for module, types in by_module.items():
        named = [t for t in types if t.replace("-", "_") == module]
        chosen.append(named[0] if named else min(types, key=len))
    return sorted(chosen)


def variants(model: str) -> list[str]:
    """The variants of one type: rope ones only when its config carries rope parameters."""
    out = ["base", "fp16", "train"]
    if head_class_name(model):
        out.append("head")
    if has_rope(tiny_config(model)):
        out += [f"rope-{t}" for t in ROPE_TYPES]
    return out


def head_class_name(model: str) -> str | None:
    """The first task-head class the type maps to, in HEADS order."""
    _, modeling_auto = _auto()
    for name in HEADS:
        cls = getattr(modeling_auto, name, {}).get(model)
        if isinstance(cls, (list, tuple)):
            cls = cls[0]
        if cls:
            return cls
    return None


def sub_configs(cfg):
    """Nested configs of a config (text/vision/audio/backbone...)."""
    from transformers import PretrainedConfig

    for key in list(vars(cfg)):
        value = getattr(cfg, key, None)
        if isinstance(value, PretrainedConfig):
            yield value


def shrink(cfg, depth: int = 0) -> None:
    """Tiny sizes by key name, recursively into sub-configs; token ids kept below the vocab."""
    for key, value in list(vars(cfg).items()):
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            new = small_int(key, value)
            if new is not None and new != value:
                setattr(cfg, key, new)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            new_list = small_list(key, value)
            if new_list is not None:
                setattr(cfg, key, type(value)(new_list))
    heads = next((getattr(cfg, k) for k in HEAD_KEYS if isinstance(getattr(cfg, k, None), int)), None)
    width = next((getattr(cfg, k) for k in ("hidden_size", "d_model", "n_embd") if isinstance(getattr(cfg, k, None), int)), None)
    if heads and width and width % heads:
        for k in HEAD_KEYS:
            if isinstance(getattr(cfg, k, None), int):
                setattr(cfg, k, 2)
    layers = next((getattr(cfg, k) for k in LAYER_KEYS if isinstance(getattr(cfg, k, None), int)), None)
    for key in ("layer_types", "mlp_only_layers", "block_types", "layers_block_type", "attn_layer_indices"):
        value = getattr(cfg, key, None)
        if isinstance(value, list) and layers and len(value) > layers and key in ("layer_types", "block_types", "layers_block_type"):
            setattr(cfg, key, value[:layers])
    vocab = getattr(cfg, "vocab_size", None)
    if isinstance(vocab, int):
        taken = 0
        for key, value in list(vars(cfg).items()):
            if (key.endswith("_token_id") or key.endswith("_token_index")) and isinstance(value, int) and value >= vocab:
                taken += 1
                setattr(cfg, key, vocab - taken)
    if depth < 3:
        for sub in sub_configs(cfg):
            shrink(sub, depth + 1)


def small_int(key: str, value: int) -> int | None:
    """The tiny value for one integer config key, or None to keep it."""
    if key in WIDTH_KEYS:
        return min(value, WIDTH)
    if key in FFN_KEYS:
        return min(value, 2 * WIDTH)
    if key in LAYER_KEYS:
        return min(value, 2)
    if key in HEAD_KEYS:
        return min(value, 4)
    if key in KV_HEAD_KEYS:
        return 1 if value < 2 else min(value, 2)
    if key in HEAD_DIM_KEYS:
        return min(value, WIDTH // 2)
    if key in SMALL_DIM_KEYS:
        return min(value, 8 if key != "num_frames" else 2)
    if key in RANK_KEYS:
        return min(value, 16)
    if key in EXPERT_KEYS:
        return min(value, 4)
    if key in TOPK_KEYS:
        return min(value, 2)
    if key == "vocab_size":
        return min(value, VOCAB)
    if key in POSITION_KEYS:
        return min(value, 128)
    if key in IMAGE_KEYS:
        return min(value, 32)
    if key in GROUP_KEYS:
        return min(value, 2)
    if key == "patch_size":
        return min(value, 4)
    return None


def small_list(key: str, value: list[int]) -> list[int] | None:
    """Element-wise tiny values for list-valued sizes (hidden_sizes, depths, conv_dim...)."""
    if key in {"hidden_sizes", "embed_dims", "conv_dim", "embed_dim", "dims", "hidden_dims", "channels"}:
        return [min(v, WIDTH) for v in value]
    if key in {"depths", "num_layers", "layers"}:
        return [min(v, 1) for v in value]
    if key in {"num_heads", "num_attention_heads", "heads"}:
        return [min(v, 2) for v in value]
    return None


def has_rope(cfg) -> bool:
    return isinstance(getattr(cfg, "rope_parameters", None), dict) and "rope_type" in cfg.rope_parameters


def set_rope(cfg, rope_type: str) -> None:
    """RoPE scaling of one type, with an original context shorter than the inputs."""
    params = dict(cfg.rope_parameters)
    theta = params.get("rope_theta", 10000.0)
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    partial = params.get("partial_rotary_factor", getattr(cfg, "partial_rotary_factor", 1.0)) or 1.0
    half = int(head_dim * partial) // 2
    new = {"rope_type": rope_type, "rope_theta": theta, "factor": 2.0}
    if rope_type in ("yarn", "longrope", "llama3"):
        new["original_max_position_embeddings"] = SEQ // 2
    if rope_type == "longrope":
        new["short_factor"] = [1.0] * half
        new["long_factor"] = [2.0] * half
    if rope_type == "llama3":
        new.update(low_freq_factor=1.0, high_freq_factor=4.0)
    if "partial_rotary_factor" in params:
        new["partial_rotary_factor"] = params["partial_rotary_factor"]
    cfg.rope_parameters = new


def tiny_config(model: str):
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    cfg = CONFIG_MAPPING[model]()
    shrink(cfg)
    return cfg


def model_class(model: str, variant: str):
    import transformers

    _, modeling_auto = _auto()
    name = head_class_name(model) if variant == "head" else modeling_auto.MODEL_MAPPING_NAMES[model]
    if isinstance(name, (list, tuple)):
        name = name[0]
    return getattr(transformers, name)


def build(model: str, variant: str) -> list[Case]:
    """The run's module with candidate inputs: the first that runs eagerly is used."""
    cfg = tiny_config(model)
    if variant.startswith("rope-"):
        set_rope(cfg, variant[len("rope-") :])
    cls = model_class(model, variant)
    module = cls._from_config(cfg) if hasattr(cls, "_from_config") else cls(cfg)
    module.train(variant == "train")
    if variant == "fp16":
        module = module.half()
    train = variant == "train"
    cases = []
    for kwargs in input_layouts(inputs(module, cfg)):
        cases.append(Case(module, (), half_inputs(kwargs) if variant == "fp16" else kwargs, train=train))
    return cases


def input_layouts(kwargs: dict) -> list[dict]:
    """The inputs as built, then other layouts: time-major audio features, a mono channel, 2 video frames."""
    out = [kwargs]
    if "input_features" in kwargs:
        out.append(dict(kwargs, input_features=kwargs["input_features"].transpose(1, 2).contiguous()))
    if "pixel_values" in kwargs:
        frames = kwargs["pixel_values"][:, None].expand(-1, 2, -1, -1, -1).contiguous()
        out.append(dict(kwargs, pixel_values=frames))
    if "input_values" in kwargs:
        out.append(dict(kwargs, input_values=kwargs["input_values"][:, None, :]))
    return out


def sub(cfg, *names):
    """The first nested config among ``names``, else the config itself."""
    for name in names:
        value = getattr(cfg, name, None)
        if value is not None and hasattr(value, "to_dict"):
            return value
    return cfg


def inputs(module, cfg) -> dict:
    """Inputs for every required forward parameter we know, plus the main input and masks."""
    import torch

    params = inspect.signature(module.forward).parameters
    main = getattr(module, "main_input_name", "input_ids")
    wanted = {n for n, p in params.items() if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD}
    wanted.add(main)
    text = sub(cfg, "text_config", "decoder", "text_encoder")
    vocab = getattr(text, "vocab_size", None) or getattr(cfg, "vocab_size", None) or VOCAB
    vocab = min(vocab, VOCAB)
    kwargs: dict = {}
    if "input_ids" in params and "input_ids" in wanted | {"attention_mask"}:
        ids = torch.randint(4, max(vocab, 5), (BATCH, SEQ))
        kwargs["input_ids"] = ids
        if "attention_mask" in params:
            mask = torch.ones(BATCH, SEQ, dtype=torch.long)
            mask[1, -3:] = 0
            kwargs["attention_mask"] = mask
    if "decoder_input_ids" in params and getattr(cfg, "is_encoder_decoder", False):
        kwargs["decoder_input_ids"] = torch.randint(4, max(vocab, 5), (BATCH, SEQ // 2))
    if "pixel_values" in params and "pixel_values" in wanted:
        vision = sub(cfg, "vision_config", "backbone_config", "image_config")
        size = getattr(vision, "image_size", None) or getattr(cfg, "image_size", None) or 32
        if isinstance(size, (list, tuple)):
            size = size[0]
        channels = getattr(vision, "num_channels", None) or getattr(cfg, "num_channels", 3) or 3
        kwargs["pixel_values"] = torch.randn(BATCH, channels, size, size)
    if "input_values" in params and "input_values" in wanted:
        kwargs["input_values"] = torch.randn(BATCH, 4000)
    if "input_features" in params and "input_features" in wanted:
        bins = getattr(cfg, "num_mel_bins", None) or getattr(cfg, "feature_size", None) or 80
        frames = 2 * getattr(cfg, "max_source_positions", 50) if hasattr(cfg, "max_source_positions") else 64
        kwargs["input_features"] = torch.randn(BATCH, bins, min(frames, 3000))
    if "past_values" in params and "past_values" in wanted:
        context = getattr(cfg, "context_length", 16) + max(getattr(cfg, "lags_sequence", [0]) or [0])
        kwargs["past_values"] = torch.randn(BATCH, context)
        if "past_time_features" in params:
            n = getattr(cfg, "num_time_features", 0)
            kwargs["past_time_features"] = torch.randn(BATCH, context, n)
            kwargs["past_observed_mask"] = torch.ones(BATCH, context)
    if not kwargs:
        raise ValueError(f"no known inputs for {type(module).__name__}({', '.join(sorted(wanted))})")
    return kwargs
