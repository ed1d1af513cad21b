"""torchdiffeq: what a neural-ODE user compiles, a solve over a small learned vector field (two
Linear layers, state width 8, hidden 16, batch 2) from t = 0 to 1 (5 output times).

* ``odeint.<method>`` for every solver in ``SOLVERS`` (``fixed_adams``, an alias of
  ``implicit_adams``, left out), once as given and once per option that defaults to off, turned on:
  the fixed-grid and Adams solvers' ``step_size``, ``grid_constructor``, ``perturb`` and cubic
  ``interp``; the adaptive Runge-Kutta solvers' ``first_step``, ``step_t`` and ``jump_t``; and, for
  every solver but ``scipy_solver``, a tuple state ``(z, v)`` (a second-order ODE) and time running
  backwards (``+tuple``, ``+reverse``);
* ``adjoint.<method>``: ``odeint_adjoint`` (the memory-saving backward), with dopri5 and rk4, and
  dopri5 with the seminorm adjoint option;
* ``event.<method>``: ``odeint_event``, solving until t = 0.5 (an event function of t and the state);
* ``dense.dopri5``: ``odeint_dense``, the dense solution evaluated between two output times.

Tolerances rtol=1e-4, atol=1e-5 (a typical user's: the defaults, 1e-7/1e-9, only add steps).
Variants: ``base`` (eval) and ``train`` (train mode, forward and backward; not for scipy_solver,
whose solution, computed by SciPy on NumPy arrays, carries no gradient).
"""

from __future__ import annotations

from builders import Case

MODULE = "torchdiffeq"
WIDTH, HIDDEN, BATCH = 8, 16, 2
TOL = dict(rtol=1e-4, atol=1e-5)
FIXED = ("euler", "midpoint", "heun2", "heun3", "rk4", "explicit_adams", "implicit_adams")
ADAPTIVE = ("dopri8", "dopri5", "bosh3", "fehlberg2", "adaptive_heun")
FIXED_OPTIONS = ("step_size", "grid_constructor", "perturb", "interp=cubic")
ADAPTIVE_OPTIONS = ("first_step", "step_t", "jump_t")
INPUTS = ("tuple", "reverse")


def version() -> str:
    import torchdiffeq

    return torchdiffeq.__version__


def models() -> list[str]:
    out = ["odeint.scipy_solver", "adjoint.dopri5", "adjoint.rk4", "adjoint.dopri5+seminorm",
           "event.dopri5", "event.rk4+step_size", "dense.dopri5"]
    for methods, options in ((FIXED, FIXED_OPTIONS), (ADAPTIVE, ADAPTIVE_OPTIONS)):
        for method in methods:
            out += [f"odeint.{method}{suffix}" for suffix in ["", *(f"+{o}" for o in options + INPUTS)]]
    return sorted(out)


def variants(model: str) -> list[str]:
    return ["base"] if model == "odeint.scipy_solver" else ["base", "train"]


def dynamics():
    """The learned vector field dy/dt = f(y); with a tuple state (z, v), dz/dt = v, dv/dt = f(z)."""
    import torch
    from torch import nn

    class Dynamics(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.Linear(WIDTH, HIDDEN)
            self.out = nn.Linear(HIDDEN, WIDTH)

        def forward(self, t, y):
            if isinstance(y, tuple):
                z, v = y
                return v, self.out(torch.tanh(self.hidden(z)))
            return self.out(torch.tanh(self.hidden(y)))

    return Dynamics()


def grid(func, y0, t):
    """A user's grid_constructor: 9 evenly spaced times from t[0] to t[-1]."""
    import torch

    return t[0] + (t[-1] - t[0]) * torch.linspace(0, 1, 9, dtype=t.dtype)


def options(option: str) -> dict:
    import torch

    return {"step_size": dict(step_size=0.05), "grid_constructor": dict(grid_constructor=grid),
            "perturb": dict(perturb=True), "interp=cubic": dict(interp="cubic"),
            "first_step": dict(first_step=0.05), "step_t": dict(step_t=torch.tensor([0.3, 0.6])),
            "jump_t": dict(jump_t=torch.tensor([0.5]))}[option]


def build(model: str, variant: str) -> Case:
    import torch
    from torchdiffeq import odeint, odeint_adjoint, odeint_dense, odeint_event

    name, _, option = model.partition("+")
    kind, method = name.split(".")
    func = dynamics().train(variant == "train")
    y0 = torch.randn(BATCH, WIDTH)
    t = torch.linspace(1, 0, 5) if option == "reverse" else torch.linspace(0, 1, 5)
    if option == "tuple":
        y0 = (y0, torch.randn(BATCH, WIDTH))
    opts = options(option) if option in FIXED_OPTIONS + ADAPTIVE_OPTIONS else None

    def solve(y0, t):
        return odeint(func, y0, t, method=method, options=opts, **TOL)

    def solve_adjoint(y0, t):
        adjoint_options = dict(norm="seminorm") if option == "seminorm" else None
        return odeint_adjoint(func, y0, t, method=method, adjoint_options=adjoint_options, **TOL)

    def event_fn(t, y):
        return (t - 0.5) * (1 + y.pow(2).mean())

    def solve_event(y0, t):
        return odeint_event(func, y0, t[0], event_fn=event_fn, method=method, options=opts, **TOL)

    def solve_dense(y0, t):
        dense = odeint_dense(func, y0, t[0], t[-1], method=method, **TOL)
        return dense(t[2])

    fn = {"odeint": solve, "adjoint": solve_adjoint, "event": solve_event, "dense": solve_dense}[kind]
    return Case(fn, (y0, t), {}, train=variant == "train")
