"""litgpt: Lightning AI's config-driven decoder-only LLMs (``litgpt.model.GPT``), tiny (width 32, 2 layers,
4 heads of 8, MLP width 64, 64 tokens, block size 32, 4 experts picking 2, sliding windows of 8), on CPU.

* ``GPT.<name>``: one model per distinct architecture among the package's named configs, named after
  the first config (in the package's order) that has it. A config is shrunk by key (the sizes above;
  grouped queries: 2 groups, multi-query: 1; a per-layer pattern, of sliding windows or local RoPE,
  becomes its first value then its other one) and two configs are the same architecture when they differ
  only in sizes or in values that only scale (norm eps, RoPE base and condensing, softcapping
  thresholds, attention scalar, local RoPE base; a partial rotary fraction counts as partial);
  input: token ids (2, 16);
* ``GPT.<base>+<option>`` (``<base>``: Llama 3.1's architecture, GQA, RMSNorm, SwiGLU, scaled RoPE): once
  per ``Config`` option that defaults to off, turned on (``shared_attention_norm`` with a parallel
  residual, ``norm_topk_prob`` with grouped expert routing), and once per feature no named config
  uses (multi-head latent attention, YaRN RoPE, mixture of experts with grouped top-k routing, shared
  experts, dense first layers, a routed scaling factor) and per forward option (``lm_head_chunk_size``);
* ``next_token.<name>``: ``litgpt.generate.base.next_token`` (what ``litgpt generate --compile``
  compiles) for each architecture, one decoding step of 1 token through the KV cache after a prompt
  of 8 (temperature 0.8, top-k 50, as ``generate`` defaults); on ``<base>`` also with latent
  attention, with ``top_p=0.9`` and with ``temperature=0.0``;
* ``lora.<name>``, ``adapter.<name>``, ``adapter_v2.<name>``: the fine-tuning models on ``<base>``
  (LoRA as ``litgpt finetune lora`` defaults: rank 8, alpha 16, dropout 0.05, query and value; the
  adapter prompt of 4 in the second layer); LoRA once per target that defaults to off (``+lora_key``,
  ...), and merged (``+merged``); LoRA (``+lora_mlp``) and adapter v2 also on the first architecture
  of each other MLP class (GPT-NeoX, Gemma, mixture of experts).

Models are called through their bound ``forward``: lightning, which litgpt imports, wraps ``torch.compile``
so that compiling a module deep-copies the compile arguments (the recorder's backend among them). A
combination the package rejects fails with a build error. Variants: ``base`` (eval) and ``train`` (train
mode, forward and backward; the fine-tuning models with only their own parameters trainable, as their
``mark_only_*_as_trainable`` leaves them); ``next_token`` and merged LoRA: ``base`` only.
"""

from __future__ import annotations

import dataclasses

from builders import Case, off_options, turned_on

MODULE = "litgpt"
WIDTH, LAYERS, HEADS, HIDDEN, VOCAB, BLOCK, SEQ, PROMPT, WINDOW = 32, 2, 4, 64, 64, 32, 16, 8, 8
GROUPS = {"mha": HEADS, "gqa": 2, "mqa": 1}
BASE = "Llama-3.1-8B"
DROP = {"name", "hf_config", "norm_eps", "rope_base", "rope_condense_ratio"}  # values that only scale
SET = {"attention_scores_scalar", "attention_logit_softcapping", "final_logit_softcapping", "rope_local_base_freq"}
MOE = {"mlp_class_name": "LLaMAMoE", "n_expert": 4, "n_expert_per_token": 2, "moe_intermediate_size": WIDTH}
GROUPED = dict(MOE, n_expert_groups=2, n_topk_groups=1, n_topk_scores_per_group=2)
# What an option needs besides itself.
WITH = {"shared_attention_norm": {"parallel_residual": True}, "norm_topk_prob": GROUPED}
CHOICES = {
    "latent_attention": {"n_query_groups": HEADS, "latent_attention": {
        "q_lora_rank": 16, "kv_lora_rank": 16, "qk_rope_head_dim": 4, "qk_nope_head_dim": 4, "v_head_dim": 8}},
    "rope_adjustments=yarn": {"rope_adjustments": {"factor": 4.0, "beta_fast": 32, "beta_slow": 1,
                                                   "original_max_seq_len": 8, "mscale": 1.0, "mscale_all_dim": 1.0}},
    "n_expert_groups=2": GROUPED,
    "n_shared_expert=1": dict(MOE, n_shared_expert=1),
    "first_k_dense_replace=1": dict(MOE, first_k_dense_replace=1),
    "routed_scaling_factor=2.5": dict(MOE, routed_scaling_factor=2.5),
}
CALL_CHOICES = {"lm_head_chunk_size=8": {"lm_head_chunk_size": 8}}
SAMPLE = {"temperature": 0.8, "top_k": 50}
SAMPLE_CHOICES = {"top_p=0.9": {"top_p": 0.9}, "temperature=0.0": {"temperature": 0.0}}
LORA = {"lora_r": 8, "lora_alpha": 16, "lora_dropout": 0.05, "lora_query": True, "lora_value": True}
ADAPTER = {"adapter_prompt_length": 4, "adapter_start_layer": 1}
BASE_ONLY = ("next_token.",)


def version() -> str:
    from importlib.metadata import version as installed

    return installed("litgpt")


def indicators(pattern: list[int]) -> list[int]:
    """A per-layer 0/1 pattern for 2 layers: its first value, then its other one (if any)."""
    values = list(dict.fromkeys(pattern))
    return (values * LAYERS)[:LAYERS]


def shrink(conf: dict) -> dict:
    """A named config's keyword arguments with tiny sizes."""
    out = dict(conf, block_size=BLOCK, n_layer=LAYERS, n_embd=WIDTH, vocab_size=VOCAB, padding_multiple=VOCAB,
               padded_vocab_size=None, n_head=HEADS, head_size=None, intermediate_size=HIDDEN)
    heads = conf.get("n_head") or 32  # the Config default
    groups = conf.get("n_query_groups") or heads
    out["n_query_groups"] = GROUPS["mha" if groups == heads else "mqa" if groups == 1 else "gqa"]
    if conf.get("n_expert"):
        out.update(n_expert=MOE["n_expert"], n_expert_per_token=MOE["n_expert_per_token"])
    if conf.get("moe_intermediate_size"):
        out["moe_intermediate_size"] = WIDTH
    if conf.get("sliding_window_size") is not None:
        out["sliding_window_size"] = WINDOW
    if conf.get("attention_scores_scalar") is not None:
        out["attention_scores_scalar"] = 16
    for key in ("sliding_window_indices", "rope_indices"):
        if conf.get(key) is not None:
            out[key] = indicators(conf[key])
    return out


def architecture(conf: dict) -> str:
    """What a shrunk config builds: its settings, values that only scale reduced to set or not."""
    from litgpt.config import Config

    full = {f.name: f.default for f in dataclasses.fields(Config) if f.default is not dataclasses.MISSING}
    full.update(shrink(conf))
    key = {}
    for name, value in sorted(full.items()):
        if name in DROP:
            continue
        if name in SET:
            value = value is not None
        elif name == "rotary_percentage":
            value = value == 1.0
        elif name == "rope_adjustments" and value is not None:
            value = "yarn" if "beta_fast" in value else "llama3" if "low_freq_factor" in value else "linear"
        key[name] = value
    return repr(key)


def architectures() -> dict[str, dict]:
    """Name -> named config, one per architecture (the first config that has it)."""
    from litgpt.config import configs

    out, seen = {}, set()
    for conf in configs:
        key = architecture(conf)
        if key not in seen:
            seen.add(key)
            out[conf["name"]] = conf
    return out


def options() -> dict[str, dict]:
    """Model-name suffix -> config arguments, for each option on ``BASE``."""
    from litgpt.config import Config

    fields = [(f.name, f.default) for f in dataclasses.fields(Config)]
    out = {o: dict([turned_on(o)], **WITH.get(o, {})) for o in off_options(fields)}
    return dict(out, **CHOICES)


def lora_options() -> list[str]:
    """The LoRA targets that default to off in ``litgpt finetune lora``."""
    from litgpt.lora import Config

    return [o for o in off_options((f.name, f.default) for f in dataclasses.fields(Config))
            if o.startswith("lora_") and o not in LORA and "=" not in o]


def mlp_classes() -> list[str]:
    """The first architecture of each MLP class other than ``BASE``'s."""
    found = {}
    for name, conf in architectures().items():
        found.setdefault(conf.get("mlp_class_name", "GptNeoxMLP"), name)
    base = architectures()[BASE].get("mlp_class_name")
    return [name for cls, name in found.items() if cls != base]


def models() -> list[str]:
    names = list(architectures())
    out = [f"GPT.{n}" for n in names] + [f"next_token.{n}" for n in names]
    out += [f"GPT.{BASE}+{o}" for o in [*options(), *CALL_CHOICES]]
    out += [f"next_token.{BASE}+{o}" for o in ["latent_attention", *SAMPLE_CHOICES]]
    out += [f"{kind}.{BASE}" for kind in ("lora", "adapter", "adapter_v2")]
    out += [f"lora.{BASE}+{o}" for o in [*lora_options(), "merged"]]
    for name in mlp_classes():
        out += [f"lora.{name}+lora_mlp", f"adapter_v2.{name}"]
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base"] if model.startswith(BASE_ONLY) or model.endswith("+merged") else ["base", "train"]


def clear_adapter_caches(net) -> None:
    """Forget the adapter prompts' keys and values (cached at a forward), so each call computes them."""
    for module in net.modules():
        if hasattr(module, "adapter_kv_cache"):
            module.adapter_kv_cache = None


def build(model: str, variant: str) -> Case:
    import importlib

    import torch
    from litgpt.generate.base import next_token

    train = variant == "train"
    kind, _, rest = model.partition(".")
    name, _, option = rest.partition("+")
    kwargs = shrink(architectures()[name])
    call: dict = {}
    sample = dict(SAMPLE)
    if option in options():
        kwargs.update(options()[option])
    elif option in CALL_CHOICES:
        call = CALL_CHOICES[option]
    elif option in SAMPLE_CHOICES:
        sample.update(SAMPLE_CHOICES[option])
    elif option.startswith("lora_"):
        kwargs.update(dict([turned_on(option)]))
    space = importlib.import_module("litgpt.model" if kind in ("GPT", "next_token") else f"litgpt.{kind}")
    if kind == "lora":
        kwargs.update(LORA)
    elif kind.startswith("adapter"):
        kwargs.update(ADAPTER)
    net = space.GPT(space.Config(**kwargs))
    net.train(train)
    if kind == "next_token":
        net.set_kv_cache(batch_size=1)
        with torch.no_grad():
            net(torch.randint(0, VOCAB, (1, PROMPT)), torch.arange(PROMPT), input_pos_maxp1=PROMPT)
        x = torch.randint(0, VOCAB, (1, 1))
        return Case(next_token, (net, torch.tensor([PROMPT]), x), dict(sample, input_pos_maxp1=PROMPT + 1))
    if option == "merged":
        space.merge_lora_weights(net)
    if train and kind == "lora":
        space.mark_only_lora_as_trainable(net)
    elif train and kind == "adapter":
        space.mark_only_adapter_as_trainable(net)
    elif train and kind == "adapter_v2":
        space.mark_only_adapter_v2_as_trainable(net)
    reset = (lambda: clear_adapter_caches(net)) if kind.startswith("adapter") else None
    # ``net.forward``, not ``net``: lightning wraps ``torch.compile`` to deep-copy its arguments for a module.
    return Case(net.forward, (torch.randint(0, VOCAB, (2, SEQ)),), call, train=train, reset=reset)
