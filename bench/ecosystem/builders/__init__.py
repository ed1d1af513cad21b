"""Model builders, one module per package: ``MODULE``, ``version()``, ``models()``,
``variants(model)`` and ``build(model, variant) -> Case`` (run inside the bench venv)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Case:
    """What one run calls: ``fn(*args, **kwargs)``, in training mode (with a backward) or not;
    ``reset`` (if any) runs before every call, outside the compiled region (e.g. clears caches)."""

    fn: object
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    train: bool = False
    reset: object = None


RATE = 0.1  # what a rate or weight option that defaults to 0.0 is set to, to turn it on


def off_options(params) -> list[str]:
    """The options of ``params`` ((name, default) pairs) that default to off, spelled as model-name
    suffixes: ``name`` for a boolean that defaults to False (turned on: True), ``name=0.1`` for a
    float that defaults to 0.0 (a dropout rate, a loss weight: turned on: ``RATE``)."""
    out = []
    for name, default in params:
        if default is False:
            out.append(name)
        elif type(default) is float and default == 0.0:
            out.append(f"{name}={RATE}")
    return out


def turned_on(option: str) -> tuple[str, object]:
    """The keyword argument an ``off_options`` spelling stands for."""
    name, _, value = option.partition("=")
    return (name, float(value)) if value else (name, True)


def half_inputs(value):
    """Floating tensors (nested in tuples/lists/dicts) cast to float16."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.half() if value.is_floating_point() else value
    if isinstance(value, dict):
        return {k: half_inputs(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(half_inputs(v) for v in value)
    return value


def construct(cls, kwargs: dict, known: dict):
    """``cls(**kwargs)``, adding the arguments a constructor names missing (a subclass that passes
    ``**kwargs`` on to a base with required ones) from ``known``; the TypeError when it names others."""
    import re

    tried = dict(kwargs)
    while True:
        try:
            return cls(**tried), tried
        except TypeError as exc:
            missing = re.findall(r"'(\w+)'", str(exc)) if "required" in str(exc) and "argument" in str(exc) else []
            if not missing or not all(n in known for n in missing) or all(n in tried for n in missing):
                raise
            tried.update({n: known[n] for n in missing})


def first_accepted(module, candidates, model: str, train: bool) -> Case:
    """The case of the first argument tuple of ``candidates`` (an iterable) that ``module`` runs on
    eagerly (without gradients), in the variant's mode; a TypeError naming the last error otherwise."""
    import torch

    module.train(train)
    error: Exception | None = None
    for args in candidates:
        try:
            with torch.no_grad():
                module(*args)
        except Exception as exc:  # the module rejects these inputs: try the next
            error = exc
            continue
        return Case(module, args, {}, train=train)
    raise TypeError(f"{model}: no candidate input runs: {type(error).__name__}: {error}")


def sized(cls, known: dict) -> dict | None:
    """The arguments to build ``cls`` with, by name from ``known``: every required one (None when one
    is not known) and the known ones its constructor leaves None (`num_classes=None`)."""
    import inspect

    out = {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.default is p.empty and p.name not in known:
            return None
        if p.name in known and (p.default is p.empty or p.default is None):
            out[p.name] = known[p.name]
    return out


def module_classes(spaces, keep) -> dict:
    """Name -> class of the ``torch.nn.Module`` classes the modules ``spaces`` export, in order, one
    name per class (its first, sorted), those ``keep(name, cls)`` accepts."""
    import inspect

    import torch

    out, seen = {}, set()
    for space in spaces:
        for name in sorted(dir(space)):
            cls = getattr(space, name)
            if (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and cls not in seen
                    and keep(name, cls)):
                seen.add(cls)
                out[name] = cls
    return out
