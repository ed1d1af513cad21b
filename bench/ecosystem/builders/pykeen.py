"""pykeen: knowledge-graph embedding models, tiny (10 entities, 3 relations, 30 random triples,
embedding width 8, batch of 4), on CPU.

* ``models.<Model>``: every model the package registers (``model_resolver``, 39: TransE, DistMult,
  ComplEx, RotatE, ConvE, RGCN, CompGCN, NodePiece, the literal models, the inductive NodePiece
  models, the co-occurrence filtered RotatE, ...; the ``FixedModel`` test mock left out), built from
  its defaults with ``embedding_dim=8`` on a triples factory made in memory (with inverse triples for
  the models that need or ask for them: CompGCN, ConvE, the NodePiece ones; the literal models on 2
  random numeric literals per entity; the inductive ones with a second random graph of the same size
  for inference, scored in mode ``training``, or ``validation`` in ``base``); ``score_hrt`` on 4
  triples (the call of sLCWA training), and as ``models.<Model>.score_t`` ``score_t`` on their 4
  head-relation pairs (LCWA training and tail prediction; ``score_h`` is its mirror);
* ``interactions.<Interaction>``: every interaction module the package registers
  (``interaction_resolver``, 34) on its own, built with ``p=2``, width 8 and the sizes the package's
  tests give it, called on representations of the shapes it declares (``d`` 8, ``e`` 4, ``f`` 5,
  ``k`` 4, ``s`` 1; complex for ComplEx and RotatE), 4 heads and relations against all 10 tails
  (``h``, ``r``: ``(4, 1, ...)``, ``t``: ``(1, 10, ...)``), as a model's ``score_t`` calls it.

Before every call the model's ``post_parameter_update`` runs, as the training loop calls it after each
step (it drops the cached representations of RGCN and CompGCN, so each call computes them).
``DistMultLiteralGated`` fails with a build error (1.11.1 passes its gated combination an argument it
does not take). Variants: ``base`` (eval) and ``train`` (train mode, forward and backward of the
summed scores; an interaction's representations require gradients).
"""

from __future__ import annotations

import inspect

from builders import Case

MODULE = "pykeen"
ENTITIES, RELATIONS, TRIPLES, BATCH, DIM, LITERALS = 10, 3, 30, 4, 8, 2
LEFT_OUT = {"FixedModel"}  # a mock returning fixed scores, for the package's tests
INVERSE = {"CompGCN", "ConvE", "NodePiece", "InductiveNodePiece", "InductiveNodePieceGNN"}
LITERAL = {"ComplExLiteral", "DistMultLiteral", "DistMultLiteralGated"}
INDUCTIVE = {"InductiveNodePiece", "InductiveNodePieceGNN"}
MODEL_ARGS = {"CooccurrenceFilteredModel": {"embedding_dim": DIM}}  # passed on to its base model
METHODS = ("score_t",)  # besides ``score_hrt``
# Interaction constructor arguments, as the package's tests give them (width DIM).
INTERACTION_ARGS = {
    "AutoSF": {"coefficients": ((0, 0, 0, 1), (1, 1, 1, -1))},
    "ConvE": {"embedding_dim": DIM},
    "ConvKB": {"embedding_dim": DIM, "num_filters": 4},
    "CrossE": {"embedding_dim": DIM},
    "ERMLP": {"embedding_dim": DIM},
    "ERMLPE": {"embedding_dim": DIM},
    "MultiLinearTucker": {"head_dim": DIM, "relation_dim": 4, "tail_dim": 5},
    "ProjE": {"embedding_dim": DIM},
    "Transformer": {"input_dim": DIM, "num_heads": 2, "dim_feedforward": 16},
    "TuckER": {"embedding_dim": DIM},
}
SIZES = {"d": DIM, "e": 4, "f": 5, "k": 4, "s": 1}  # the symbolic dimensions of representation shapes


def version() -> str:
    import pykeen

    return pykeen.get_version()


def model_classes() -> dict:
    from pykeen.models import model_resolver

    return {cls.__name__: cls for cls in model_resolver.lookup_dict.values() if cls.__name__ not in LEFT_OUT}


def interaction_classes() -> dict:
    from pykeen.nn.modules import interaction_resolver

    return {cls.__name__.removesuffix("Interaction"): cls for cls in interaction_resolver.lookup_dict.values()}


def models() -> list[str]:
    out = []
    for name in model_classes():
        out += [f"models.{name}", *(f"models.{name}.{method}" for method in METHODS)]
    out += [f"interactions.{name}" for name in interaction_classes()]
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base", "train"]


def random_triples():
    """``TRIPLES`` random (head, relation, tail) id triples."""
    import torch

    return torch.stack([torch.randint(ENTITIES, (TRIPLES,)), torch.randint(RELATIONS, (TRIPLES,)),
                        torch.randint(ENTITIES, (TRIPLES,))], dim=1)


def triples_factory(name: str, triples):
    """The factory model ``name`` is built on: ``triples`` with labels, inverse triples and numeric
    literals as the model needs."""
    import numpy
    from pykeen.triples import TriplesFactory, TriplesNumericLiteralsFactory

    kwargs = dict(mapped_triples=triples, entity_to_id={f"e{i}": i for i in range(ENTITIES)},
                  relation_to_id={f"r{i}": i for i in range(RELATIONS)}, create_inverse_triples=name in INVERSE)
    if name in LITERAL:
        return TriplesNumericLiteralsFactory(numeric_literals=numpy.random.rand(ENTITIES, LITERALS),
                                             literals_to_id={f"l{i}": i for i in range(LITERALS)}, **kwargs)
    return TriplesFactory(**kwargs)


def build_model(model: str, train: bool) -> Case:
    name, _, method = model.removeprefix("models.").partition(".")
    cls = model_classes()[name]
    triples = random_triples()
    kwargs = dict(MODEL_ARGS.get(name, {}))
    if "embedding_dim" in inspect.signature(cls.__init__).parameters:
        kwargs["embedding_dim"] = DIM
    if name in INDUCTIVE:
        kwargs["inference_factory"] = triples_factory(name, random_triples())
    module = cls(triples_factory=triples_factory(name, triples), **kwargs)
    module.train(train)
    call_kwargs = {"mode": "training" if train else "validation"} if name in INDUCTIVE else {}
    # What the training loop calls after each step: invalidates the message-passing models' cached
    # representations (and applies the embeddings' constraints), so that every call computes them.
    reset = module.post_parameter_update
    if method == "score_t":
        return Case(module.score_t, (triples[:BATCH, :2],), call_kwargs, train=train, reset=reset)
    return Case(module.score_hrt, (triples[:BATCH],), call_kwargs, train=train, reset=reset)


def representations(shapes, prefix: tuple, dtype, train: bool):
    """Random representations of the symbolic ``shapes`` after the ``prefix`` dimensions (one tensor
    unpacked, none or several as a tuple), requiring gradients in training."""
    import torch

    out = tuple(torch.rand(*prefix, *(SIZES[c] for c in shape), dtype=dtype, requires_grad=train) for shape in shapes)
    return out[0] if len(out) == 1 else out


def build_interaction(model: str, train: bool) -> Case:
    import torch

    name = model.removeprefix("interactions.")
    cls = interaction_classes()[name]
    kwargs = dict(INTERACTION_ARGS.get(name, {}))
    if "p" in inspect.signature(cls.__init__).parameters:
        kwargs["p"] = 2  # the norm: required by most, the default of the others
    module = cls(**kwargs)
    module.train(train)
    dtype = torch.cfloat if cls.is_complex else torch.float
    h = representations(module.head_shape, (BATCH, 1), dtype, train)
    r = representations(module.relation_shape, (BATCH, 1), dtype, train)
    t = representations(module.tail_shape, (1, ENTITIES), dtype, train)
    return Case(module, (h, r, t), train=train)


def build(model: str, variant: str) -> Case:
    train = variant == "train"
    if model.startswith("models."):
        return build_model(model, train)
    return build_interaction(model, train)
