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
import sys
import typing
from dataclasses import dataclass

from .inputs import Input, documented_input, make_input, mask_for
from .layouts import guessed_layouts, other_layouts, twinned
from .tiny_config import BATCH, SEQ, CannotSynthesize, Sizes, default_config, merged, repairs, tiny_config

TRIALS = 8  # eager runs of input layouts per config before falling back
REPAIRS = 2  # rebuilds of a config with what its errors ask for


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
    elif getattr(config, "is_encoder_decoder", False) and f"decoder_{main}" in accepted and main not in names:
        names.append(f"decoder_{main}")  # the decoder's own features (`decoder_input_values`), made like the main input
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
        made = make_input(name, size, accepted) or mask_for(name, inputs) or documented_input(name, model, size)
        if made is None:
            raise CannotSynthesize(f"{cls.__name__}'s input {name!r} is not one fullgraph knows how to make")
        inputs += [i for i in made if i.name not in {j.name for j in inputs}]
    return inputs


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
                error, config = str(e), e.config if e.config is not None else default_config(config_cls)
            else:
                if trial is None:
                    return built
                first = first or built
                ran, error = runs(built, config, trial)
                if ran is not None:
                    return ran
            more = merged(extra, repairs(error, config))
            if more == extra:
                break
            extra = more
    if first is not None:
        return first
    raise problem


def runs(built: Synthesized, config, trial) -> tuple[Synthesized | None, str]:
    """The first input layout of ``built`` that runs (``trial``), from its main inputs and the layouts
    each error suggests, then the guessed ones; else None and the errors raised (the first one says
    most about the config: later ones come from layouts tried for it)."""
    accepted = {p.name for p in parameters(type(built.model).forward)}
    candidates, guesses, seen, errors, size = [built.inputs], [], [], [], Sizes(config)
    while (candidates or guesses) and len(seen) < TRIALS:
        inputs = (candidates or guesses).pop(0)
        seen.append(inputs)
        attempt = Synthesized(built.model, inputs, False, built.build, built.imports)
        error = trial(attempt)
        if error is None:
            return attempt, ""
        errors += [error] if error not in errors else []
        candidates += [c for c in map(twinned, other_layouts(inputs, error, size, accepted, built.model))
                       if c not in seen and c not in candidates]
        guesses += [c for c in guessed_layouts(inputs, size) if c not in seen and c not in guesses]
    return None, "\n".join(errors)


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
    config = None
    try:
        config, overrides = tiny_config(config_cls, widths, extra)
        return cls(config).eval(), config, f"{config_cls.__name__}({keywords(overrides)})", config_cls
    except Exception as e:
        first = e if isinstance(e, CannotSynthesize) else \
            CannotSynthesize(f"{cls.__name__}(tiny {config_cls.__name__}) raised {type(e).__name__}: {e}")
        first.config = config  # the tiny config the model failed to build on: repairs start from it
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
