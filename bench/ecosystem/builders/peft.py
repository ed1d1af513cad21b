"""peft: every adapter method the package exports a config for (LoRA and its variants, IA3,
prompt and prefix tuning, OFT/BOFT, VeRA, ...), on a tiny Llama causal LM built from its config
(width 32, 2 layers, 4 heads, 64 tokens), once with the method's defaults and once per option of
its config that defaults to off, turned on (a boolean that defaults to False set True, a rate that
defaults to 0.0 set to 0.1) (``inference_mode`` and ``fan_in_fan_out``
left out: they freeze the adapter, or apply to GPT-2-style layers only). Adapters target the
attention's ``q_proj`` and ``v_proj`` (the methods that target modules), rank 4, 4 virtual tokens;
a method or option that needs other settings fails with a build error and is not counted.
Input: token ids (2, 16) with an all-ones attention mask.

Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import dataclasses

from builders import Case, off_options, turned_on

MODULE = "peft"
SEQ, VOCAB = 16, 64
SIZES = {"task_type": "CAUSAL_LM", "target_modules": ["q_proj", "v_proj"], "r": 4, "num_virtual_tokens": 4,
         "encoder_hidden_size": 32}
SKIPPED_OPTIONS = ("inference_mode", "fan_in_fan_out")


def version() -> str:
    from importlib.metadata import version as installed

    return installed("peft")


def configs() -> dict:
    """Name -> config class of every adapter method ``peft`` exports."""
    import inspect

    import peft

    return {n: c for n in sorted(dir(peft)) if inspect.isclass(c := getattr(peft, n)) and issubclass(c, peft.PeftConfig)
            and n.endswith("Config") and n not in ("PeftConfig", "PromptLearningConfig")}


def options(cls) -> list[str]:
    return off_options((f.name, f.default) for f in dataclasses.fields(cls) if f.name not in SKIPPED_OPTIONS)


def models() -> list[str]:
    return sorted(f"{name}{suffix}" for name, cls in configs().items() for suffix in ["", *(f"+{o}" for o in options(cls))])


def variants(model: str) -> list[str]:
    return ["base", "train"]


def base_model():
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, vocab_size=VOCAB, max_position_embeddings=64)
    return LlamaForCausalLM(config)


def build(model: str, variant: str) -> Case:
    import torch
    from peft import get_peft_model

    name, _, option = model.partition("+")
    cls = configs()[name]
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in SIZES.items() if k in fields}
    if option:
        kwargs.update([turned_on(option)])
    net = get_peft_model(base_model(), cls(**kwargs))
    net.train(variant == "train")
    ids = torch.randint(0, VOCAB, (2, SEQ))
    return Case(net, (), {"input_ids": ids, "attention_mask": torch.ones_like(ids)}, train=variant == "train")
