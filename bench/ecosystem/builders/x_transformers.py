"""x-transformers: a small decoder-only language model (``TransformerWrapper`` over a ``Decoder``,
width 32, 2 layers, 2 heads, 64 tokens) once with its defaults and once per option that
defaults to off, turned on (a boolean that defaults to False set True, a rate that defaults to 0.0
set to 0.1): every such option of the wrapper, of ``AttentionLayers``, and of ``Attention`` and
``FeedForward`` (passed as ``attn_<name>`` / ``ff_<name>``); plus an encoder and
an encoder-decoder (``XTransformer``). An option that needs other settings fails with a build
error. Input: token ids (2, 16) (and a source of 16 tokens for the encoder-decoder).

Variants: ``base`` (eval) and ``train`` (train mode, forward and backward).
"""

from __future__ import annotations

import inspect

from builders import Case, off_options, turned_on

MODULE = "x_transformers"
DIM, DEPTH, HEADS, TOKENS, SEQ = 32, 2, 2, 64, 16


def version() -> str:
    from importlib.metadata import version as installed

    return installed("x-transformers")


def switches(fn) -> list[str]:
    """Keyword parameters of ``fn`` that default to off (``off_options`` spellings)."""
    return off_options((n, p.default) for n, p in inspect.signature(fn).parameters.items())


def keywords(option: str, prefix: str = "") -> dict:
    name, value = turned_on(option)
    return {prefix + name: value}


def options() -> dict[str, tuple[str, dict]]:
    """model name -> (where the option goes: "wrapper" or "layers", its keyword arguments)."""
    from x_transformers.x_transformers import Attention, AttentionLayers, FeedForward, TransformerWrapper

    out: dict[str, tuple[str, dict]] = {"decoder": ("layers", {})}
    out.update({f"wrapper.{n}": ("wrapper", keywords(n)) for n in switches(TransformerWrapper.__init__)})
    out.update({f"layers.{n}": ("layers", keywords(n)) for n in switches(AttentionLayers.__init__)})
    out.update({f"attn.{n}": ("layers", keywords(n, "attn_")) for n in switches(Attention.__init__)})
    out.update({f"ff.{n}": ("layers", keywords(n, "ff_")) for n in switches(FeedForward.__init__)})
    return out


def models() -> list[str]:
    return sorted([*options(), "encoder", "encoder_decoder"])


def variants(model: str) -> list[str]:
    return ["base", "train"]


def build(model: str, variant: str) -> Case:
    import torch
    from x_transformers import Decoder, Encoder, TransformerWrapper, XTransformer

    tokens = torch.randint(0, TOKENS, (2, SEQ))
    if model == "encoder_decoder":
        net = XTransformer(dim=DIM, enc_num_tokens=TOKENS, enc_depth=DEPTH, enc_heads=HEADS, enc_max_seq_len=SEQ * 2,
                           dec_num_tokens=TOKENS, dec_depth=DEPTH, dec_heads=HEADS, dec_max_seq_len=SEQ * 2)
        net.train(variant == "train")
        return Case(net, (torch.randint(0, TOKENS, (2, SEQ)), tokens), {}, train=variant == "train")
    layers, wrapper = (Encoder, {}) if model == "encoder" else (Decoder, {})
    extra: dict = {}
    if model != "encoder":
        where, extra = options()[model]
        if where == "wrapper":
            wrapper, extra = extra, {}
    net = TransformerWrapper(num_tokens=TOKENS, max_seq_len=SEQ * 2,
                             attn_layers=layers(dim=DIM, depth=DEPTH, heads=HEADS, **extra), **wrapper)
    net.train(variant == "train")
    return Case(net, (tokens,), {}, train=variant == "train")
