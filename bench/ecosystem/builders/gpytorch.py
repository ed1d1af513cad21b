"""gpytorch: what a Gaussian-process user compiles, on 16 training points in 2 dimensions and 8 test
points (2 tasks, 3 classes).

* ``kernels.<Kernel>``: every kernel of ``gpytorch.kernels`` (one name per class), built with its
  required arguments given by name (``RBFKernel`` as the base kernel of the wrappers, ``RBFKernel``
  and ``PeriodicKernel`` for ``AdditiveKernel``/``ProductKernel``/``LCMKernel``, 4 inducing points,
  grid size 8, 2 mixtures, 8 spectral samples or deltas, power 2, vocabulary 4), called as a module
  and evaluated, ``kernel(x1, x2).to_dense()`` (training: ``x2`` is ``x1``, as a GP's training
  forward calls it); ``.diag`` once more with ``diag=True`` on the 16 points; once per constructor
  option that defaults to off, turned on (``GridKernel``'s ``interpolation_mode``), and with
  ``ard_num_dims=2`` for ``LinearKernel``, ``MaternKernel`` and ``RBFKernel``. Inputs by kind: task
  indices (``IndexKernel``), one-hot sequences of 2 tokens (``HammingIMQKernel``), the kernel's own
  4x4 grid (``GridKernel``), points inside the unit disc (``CylindricalKernel``);
  ``RBFKernelGradGrad`` between two sets of 16 points (on sets of different sizes it fails inside
  gpytorch).
* ``means.<Mean>``: every mean of ``gpytorch.means`` on the inputs (input size 2, ``MultitaskMean``
  of a ``ConstantMean`` for 2 tasks).
* ``likelihoods.<Likelihood>.<method>``: every likelihood of ``gpytorch.likelihoods`` applied to a
  ``MultivariateNormal`` built in the call from a mean and a covariance root (multitask for
  ``MultitaskGaussianLikelihood`` and ``SoftmaxLikelihood``, 4 features; a batch of 3 for
  ``DirichletClassificationLikelihood``; ``LikelihoodList`` of two ``GaussianLikelihood`` on it
  twice): ``marginal`` (``likelihood(mvn)``: mean and variance, or class probabilities) and
  ``expected_log_prob`` on targets of its kind, ``log_marginal`` for the closed forms (Gaussian,
  Gaussian with missing observations, Bernoulli); ``marginal`` once more per option that defaults to
  off, turned on, and with ``rank=1`` (``MultitaskGaussianLikelihood``).
* ``models.<model>.<call>``: complete models as the tutorials write them: an exact GP (``ConstantMean``
  + ``ScaleKernel(RBFKernel)``), SGPR (``InducingPointKernel``), KISS-GP (``GridInterpolationKernel``),
  a multitask exact GP, an SVGP (``VariationalStrategy`` + ``CholeskyVariationalDistribution``, 4
  inducing points) and an SVGP classifier (``BernoulliLikelihood``); ``loss`` is the training loss
  ``-mll(model(x), y)`` (``ExactMarginalLogLikelihood``, ``VariationalELBO``), ``predict`` the
  posterior ``likelihood(model(x))`` under ``torch.no_grad()``; the exact GP once more with
  ``fast_pred_var`` and with ``max_cholesky_size(0)`` (the iterative solvers), the SVGP loss once per
  other variational distribution, strategy and objective. The options of their constructors
  (``learn_inducing_locations``, ``combine_terms``) default to on: none is turned on.

Left out: the abstract bases (``Kernel``, ``Mean``, ``Likelihood`` and the private likelihood bases),
the KeOps kernels (``gpytorch.kernels.keops``: they need pykeops), ``MultiDeviceKernel`` (it needs
CUDA devices), ``HeteroskedasticNoise`` (a noise model of another GP, not a likelihood); two calls
that fail inside gpytorch: ``ProductStructureKernel.diag`` (it wraps the diagonal vector in a
``DenseLinearOperator``) and ``SoftmaxLikelihood`` in eval mode (with pyro installed its samples come
from ``MultitaskMultivariateNormal.expand``, which reads a missing ``_covar``).
Variants: ``base`` (eval, no backward) and ``train`` (train mode, forward and backward; the
likelihoods' distributions require gradients) for kernels, means and likelihoods (modules without
parameters: ``base``; ``SoftmaxLikelihood``: ``train``); model losses ``train``, predictions ``base``.
Before every call the modules' caches are cleared (``_clear_cache``: prediction strategies, cached
kernel matrices), so the compiled call computes what the eager one did.
"""

from __future__ import annotations

import inspect

from builders import Case, off_options, sized, turned_on

MODULE = "gpytorch"
N, M, DIM, TASKS, CLASSES, FEATURES, INDUCING, VOCAB = 16, 8, 2, 2, 3, 4, 4, 4
LEFT_OUT = ("Kernel", "MultiDeviceKernel", "Mean", "Likelihood", "HeteroskedasticNoise")
NO_DIAG = ("ProductStructureKernel",)
SQUARE = ("RBFKernelGradGrad",)
ARD = ("LinearKernel", "MaternKernel", "RBFKernel")
SMALLER = {"SpectralDeltaKernel": {"num_deltas": 8}, "SpectralMixtureKernel": {"ard_num_dims": DIM}}
MODES = {"MultitaskGaussianLikelihood": ("rank=1",)}
LOG_MARGINAL = ("BernoulliLikelihood", "GaussianLikelihood", "GaussianLikelihoodWithMissingObs")  # closed forms
TRAIN_ONLY = ("SoftmaxLikelihood",)  # eval mode fails inside gpytorch
MODELS = {  # model: its calls and their options
    "exact": {"loss": ("max_cholesky_size=0",), "predict": ("fast_pred_var", "max_cholesky_size=0")},
    "sgpr": {"loss": (), "predict": ()},
    "kissgp": {"loss": (), "predict": ()},
    "multitask": {"loss": (), "predict": ()},
    "svgp": {"loss": ("MeanFieldVariationalDistribution", "DeltaVariationalDistribution",
                      "NaturalVariationalDistribution", "TrilNaturalVariationalDistribution",
                      "UnwhitenedVariationalStrategy", "CiqVariationalStrategy",
                      "OrthogonallyDecoupledVariationalStrategy", "PredictiveLogLikelihood",
                      "GammaRobustVariationalELBO"), "predict": ()},
    "classification": {"loss": (), "predict": ()},
}


def version() -> str:
    import gpytorch

    return gpytorch.__version__


def known() -> dict:
    """Constructor arguments by name (fresh modules every call)."""
    import gpytorch
    import torch
    from gpytorch.kernels.gaussian_symmetrized_kl_kernel import _symmetrized_kl

    K = gpytorch.kernels
    return {
        "num_dims": DIM, "num_mixtures": 2, "num_tasks": TASKS, "grid_size": 8, "num_samples": 8,
        "power": 2, "vocab_size": VOCAB, "num_angular_weights": 2, "input_size": DIM,
        "num_features": FEATURES, "num_classes": CLASSES, "base_kernel": K.RBFKernel(),
        "radial_base_kernel": K.RBFKernel(), "data_covar_module": K.RBFKernel(),
        "base_kernels": [K.RBFKernel(), K.PeriodicKernel()], "base_means": [gpytorch.means.ConstantMean()],
        "inducing_points": torch.rand(INDUCING, DIM), "likelihood": gpytorch.likelihoods.GaussianLikelihood(),
        "grid": grid(), "distance_function": _symmetrized_kl, "noise": torch.full((N,), 0.05),
        "targets": labels(),
    }


def grid():
    """``GridKernel``'s grid: 4 points a dimension."""
    import torch

    return torch.linspace(0, 1, 4).unsqueeze(-1).repeat(1, DIM)


def labels():
    import torch

    return torch.arange(N) % CLASSES


def positional() -> dict:
    """The modules a class taking ``*args`` combines."""
    import gpytorch

    K, L = gpytorch.kernels, gpytorch.likelihoods
    return {"AdditiveKernel": (K.RBFKernel(), K.PeriodicKernel()),
            "ProductKernel": (K.RBFKernel(), K.PeriodicKernel()),
            "LikelihoodList": (L.GaussianLikelihood(), L.GaussianLikelihood())}


def classes(kind: str) -> dict:
    """Name -> class of every module of ``gpytorch.<kind>`` (one name per class), bases left out."""
    import gpytorch
    import torch

    out = {}
    for name in sorted(dir(getattr(gpytorch, kind))):
        cls = getattr(getattr(gpytorch, kind), name)
        if (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and not name.startswith("_")
                and name not in LEFT_OUT and cls not in out.values()):
            out[name] = cls
    return out


def parameters(cls) -> list:
    return list(inspect.signature(cls.__init__).parameters.values())[1:]


def options(name: str, cls) -> list[str]:
    """Constructor options that default to off, ``ard_num_dims=2`` (``ARD``), modes (``MODES``)."""
    return [*off_options((p.name, p.default) for p in parameters(cls)),
            *([f"ard_num_dims={DIM}"] if name in ARD else []), *MODES.get(name, ())]


def option_kwargs(option: str) -> dict:
    if not option:
        return {}
    name, _, value = option.partition("=")
    return {name: int(value)} if value.isdigit() else dict([turned_on(option)])  # a size, a rank


def models() -> list[str]:
    out = []
    for name, cls in classes("kernels").items():
        out += [f"kernels.{name}", *([] if name in NO_DIAG else [f"kernels.{name}.diag"]),
                *(f"kernels.{name}+{o}" for o in options(name, cls))]
    out += [f"means.{name}" for name in classes("means")]
    for name, cls in classes("likelihoods").items():
        methods = ["marginal", "expected_log_prob", *(["log_marginal"] if name in LOG_MARGINAL else [])]
        out += [f"likelihoods.{name}.{m}" for m in methods]
        out += [f"likelihoods.{name}.marginal+{o}" for o in options(name, cls)]
    for model, calls in MODELS.items():
        for call, opts in calls.items():
            out += [f"models.{model}.{call}", *(f"models.{model}.{call}+{o}" for o in opts)]
    return sorted(out)


def construct_named(kind: str, name: str, option: str = ""):
    """The class built from its required arguments by name, ``option`` turned on."""
    cls = classes(kind)[name]
    if name in positional():
        return cls(*positional()[name])
    return cls(**sized(cls, known()), **SMALLER.get(name, {}), **option_kwargs(option))


def kernel_inputs(name: str, train: bool) -> tuple:
    """(x1, x2) of the kernel's kind; x2 is x1 in training."""
    import torch
    from gpytorch.utils.grid import create_data_from_grid

    x1, x2 = torch.rand(N, DIM), torch.rand(N if name in SQUARE else M, DIM)
    if name == "IndexKernel":
        x1, x2 = torch.randint(TASKS, (N, 1)), torch.randint(TASKS, (M, 1))
    elif name == "HammingIMQKernel":
        x1, x2 = (torch.nn.functional.one_hot(torch.randint(VOCAB, (n, 2)), VOCAB).view(n, -1).float()
                  for n in (N, M))
    elif name == "GridKernel":
        x1 = x2 = create_data_from_grid(grid())
    elif name == "CylindricalKernel":
        x1, x2 = x1 / 2, x2 / 2
    return (x1, x1) if train else (x1, x2)


def clearer(*modules):
    """A reset that clears every gpytorch module's caches."""
    import gpytorch

    def reset():
        for module in modules:
            for child in module.modules():
                if isinstance(child, gpytorch.Module):
                    child._clear_cache()

    return reset


def kernel_case(name: str, diag: bool, option: str, train: bool) -> Case:
    kernel = construct_named("kernels", name, option)
    kernel.train(train)
    x1, x2 = kernel_inputs(name, train)
    if diag:
        return Case(lambda x: kernel(x, diag=True), (x1,), train=train, reset=clearer(kernel))
    return Case(lambda x1, x2: kernel(x1, x2).to_dense(), (x1, x2), train=train, reset=clearer(kernel))


def mean_case(name: str, train: bool) -> Case:
    import torch

    mean = construct_named("means", name)
    mean.train(train)
    return Case(mean, (torch.rand(N, DIM),), train=train)


def target(name: str):
    """Observations of the likelihood's kind."""
    import torch

    if name == "BernoulliLikelihood":
        return (torch.arange(N) % 2).float()
    if name == "BetaLikelihood":
        return torch.rand(N) * 0.9 + 0.05
    if name in ("NegativeBinomialLikelihood", "PoissonLikelihood"):
        return torch.randint(5, (N,)).float()
    if name == "SoftmaxLikelihood":
        return labels()
    if name == "MultitaskGaussianLikelihood":
        return torch.randn(N, TASKS)
    if name == "GaussianLikelihoodWithMissingObs":
        return torch.randn(N).masked_fill(torch.arange(N) % 4 == 0, float("nan"))
    return torch.randn(N)


def likelihood_case(name: str, method: str, option: str, train: bool) -> Case:
    """The likelihood called on a ``MultivariateNormal`` it builds from ``mean`` and ``root``."""
    import torch
    from gpytorch.distributions import MultitaskMultivariateNormal, MultivariateNormal

    likelihood = construct_named("likelihoods", name, option)
    likelihood.train(train)
    tasks = {"MultitaskGaussianLikelihood": TASKS, "SoftmaxLikelihood": FEATURES}.get(name)
    batch = (CLASSES,) if name == "DirichletClassificationLikelihood" else ()
    size = N * (tasks or 1)
    mean = torch.randn(*batch, N, *([tasks] if tasks else []), requires_grad=train)
    root = (torch.randn(*batch, size, size) / size ** 0.5).requires_grad_(train)
    y = likelihood.transformed_targets if batch else target(name)
    params = (torch.arange(N).unsqueeze(-1) % TASKS,) if name == "HadamardGaussianLikelihood" else ()

    def function_dist(mean, root):
        covariance = root @ root.mT + 0.1 * torch.eye(size)
        if tasks:
            return MultitaskMultivariateNormal(mean, covariance)
        return MultivariateNormal(mean, covariance)

    def summary(dist):
        if isinstance(dist, torch.distributions.Categorical):
            return dist.probs
        return dist.mean, dist.variance

    if method == "marginal":
        def call(mean, root):
            dist = function_dist(mean, root)
            if name == "LikelihoodList":
                return [summary(d) for d in likelihood(dist, dist)]
            return summary(likelihood(dist, *params))

        return Case(call, (mean, root), train=train, reset=clearer(likelihood))

    def call(mean, root, y):
        dist = function_dist(mean, root)
        if name == "LikelihoodList":
            return likelihood.expected_log_prob((y, dist), (y, dist))
        return getattr(likelihood, method)(y, dist, *params)

    return Case(call, (mean, root, y), train=train, reset=clearer(likelihood))


def data(multitask: bool = False, labelled: bool = False) -> tuple:
    """Training inputs and targets of a smooth function, test inputs."""
    import math

    import torch

    x, test_x = torch.rand(N, DIM), torch.rand(M, DIM)
    f = torch.sin(2 * math.pi * x[:, 0]) + torch.cos(2 * math.pi * x[:, 1])
    if labelled:
        return x, (f > 0).float(), test_x
    y = torch.stack([f, -f], -1) if multitask else f
    return x, y + 0.1 * torch.randn_like(y), test_x


def exact_model(model: str):
    """The objective of an exact GP as the tutorials write it (model and likelihood inside), its data."""
    import gpytorch

    K, means, L = gpytorch.kernels, gpytorch.means, gpytorch.likelihoods
    multitask = model == "multitask"
    x, y, test_x = data(multitask)
    if multitask:
        likelihood = L.MultitaskGaussianLikelihood(num_tasks=TASKS)
        mean = means.MultitaskMean(means.ConstantMean(), num_tasks=TASKS)
        covar = K.MultitaskKernel(K.RBFKernel(), num_tasks=TASKS, rank=1)
    else:
        likelihood, mean = L.GaussianLikelihood(), means.ConstantMean()
        covar = {
            "exact": lambda: K.ScaleKernel(K.RBFKernel()),
            "sgpr": lambda: K.InducingPointKernel(K.ScaleKernel(K.RBFKernel()), inducing_points=x[:INDUCING].clone(),
                                                  likelihood=likelihood),
            "kissgp": lambda: K.ScaleKernel(K.GridInterpolationKernel(K.RBFKernel(), grid_size=8, num_dims=DIM)),
        }[model]()
    Distribution = (gpytorch.distributions.MultitaskMultivariateNormal if multitask
                    else gpytorch.distributions.MultivariateNormal)

    class ExactGPModel(gpytorch.models.ExactGP):
        def __init__(self):
            super().__init__(x, y, likelihood)
            self.mean_module, self.covar_module = mean, covar

        def forward(self, x):
            return Distribution(self.mean_module(x), self.covar_module(x))

    mll = gpytorch.mlls.ExactMarginalLogLikelihood(likelihood, ExactGPModel())
    return mll, (x, y, test_x)


def variational_model(model: str, option: str):
    """The objective of an SVGP as the tutorials write it (model and likelihood inside), its data;
    ``option`` names another variational distribution, strategy or objective."""
    import gpytorch

    V = gpytorch.variational
    x, y, test_x = data(labelled=model == "classification")
    inducing = x[:INDUCING].clone()
    distribution = getattr(V, option) if option.endswith("Distribution") else V.CholeskyVariationalDistribution
    strategy = option if option.endswith("Strategy") else "VariationalStrategy"

    class SVGP(gpytorch.models.ApproximateGP):
        def __init__(self):
            if strategy == "OrthogonallyDecoupledVariationalStrategy":
                covar_strategy = V.VariationalStrategy(self, inducing, V.CholeskyVariationalDistribution(INDUCING),
                                                       learn_inducing_locations=True)
                variational_strategy = V.OrthogonallyDecoupledVariationalStrategy(
                    covar_strategy, inducing.clone(), V.DeltaVariationalDistribution(INDUCING))
            else:
                variational_strategy = getattr(V, strategy)(self, inducing, distribution(INDUCING),
                                                            learn_inducing_locations=True)
            super().__init__(variational_strategy)
            self.mean_module = gpytorch.means.ConstantMean()
            self.covar_module = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel())

        def forward(self, x):
            return gpytorch.distributions.MultivariateNormal(self.mean_module(x), self.covar_module(x))

    L = gpytorch.likelihoods
    likelihood = L.BernoulliLikelihood() if model == "classification" else L.GaussianLikelihood()
    objective = option if option in ("PredictiveLogLikelihood", "GammaRobustVariationalELBO") else "VariationalELBO"
    mll = getattr(gpytorch.mlls, objective)(likelihood, SVGP(), num_data=N)
    return mll, (x, y, test_x)


def model_case(model: str, call: str, option: str) -> Case:
    import gpytorch
    import torch

    if model in ("svgp", "classification"):
        mll, (x, y, test_x) = variational_model(model, option)
    else:
        mll, (x, y, test_x) = exact_model(model)
    gp, likelihood = mll.model, mll.likelihood
    reset = clearer(gp, likelihood)
    train = call == "loss"
    gp.train(train)
    likelihood.train(train)
    if train:
        if option.startswith("max_cholesky_size"):
            def loss(x, y):
                with gpytorch.settings.max_cholesky_size(0):
                    return -mll(gp(x), y)
        else:
            def loss(x, y):
                return -mll(gp(x), y)

        return Case(loss, (x, y), train=True, reset=reset)
    setting = {"fast_pred_var": gpytorch.settings.fast_pred_var,
               "max_cholesky_size=0": lambda: gpytorch.settings.max_cholesky_size(0)}.get(option)

    def summary(pred):
        return pred.mean, pred.variance

    if setting is None:
        def predict(x):
            with torch.no_grad():
                return summary(likelihood(gp(x)))
    else:
        def predict(x):
            with torch.no_grad(), setting():
                return summary(likelihood(gp(x)))
    return Case(predict, (test_x,), reset=reset)


def split(model: str) -> tuple[str, str, str]:
    """(kind, name and method, option) of a model name."""
    name, _, option = model.partition("+")
    kind, _, rest = name.partition(".")
    return kind, rest, option


def variants(model: str) -> list[str]:
    kind, rest, option = split(model)
    if kind == "models":
        return ["train"] if rest.endswith(".loss") else ["base"]
    if kind == "likelihoods":
        return ["train"] if rest.partition(".")[0] in TRAIN_ONLY else ["base", "train"]
    module = construct_named(kind, rest.partition(".")[0], option)
    return ["base", "train"] if any(p.requires_grad for p in module.parameters()) else ["base"]


def build(model: str, variant: str) -> Case:
    kind, rest, option = split(model)
    name, _, method = rest.partition(".")
    train = variant == "train"
    if kind == "kernels":
        return kernel_case(name, method == "diag", option, train)
    if kind == "means":
        return mean_case(name, train)
    if kind == "likelihoods":
        return likelihood_case(name, method, option, train)
    return model_case(name, method, option)
