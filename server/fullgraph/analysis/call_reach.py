"""Which walked functions never run when the compiled entry does: every call that reaches one sits
under a test every compiled call of its caller decides the other way (`if not check_channels: return
True` before it, with every call leaving `check_channels` False), or is made by a function that never
runs. Entries, and functions no walked call reaches, run."""

from __future__ import annotations

from collections.abc import Callable

from fullgraph.analysis.regions import FunctionInfo


def incoming(walks) -> dict[int, list[tuple[FunctionInfo, object]]]:
    """Function id -> (caller, call) for each call the walks recorded."""
    found: dict[int, list[tuple[FunctionInfo, object]]] = {}
    for walker, visit in walks:
        for target, call, *_ in walker.calls:
            found.setdefault(id(target), []).append((visit.function, call))
    return found


class CallReach:
    """`dead(function)`; `decided(tests, visit)` says whether the tests around one call made in the walk
    of `visit` rule it out (worked out on first use). `chain(function)`: the one chain of calls that
    reaches it; `callers(function)`: every walked call of it."""

    def __init__(self, walks, entries: list[FunctionInfo], decided: Callable) -> None:
        self.walks, self.entries, self.decided = walks, entries, decided
        self._dead: set[int] | None = None
        self._into: dict[int, dict[tuple[int, int], tuple]] | None = None

    def chain(self, function: FunctionInfo) -> list[tuple[object, object, object]]:
        """(the caller's visit, the call, its tests or None) for each call of the chain from an entry
        to `function`, the outermost first, as far up as each function on it has one call reaching
        it from elsewhere (a function two calls reach may run under either's tests: the chain stops
        below it; its calls of itself run inside the one call)."""
        self._calls()
        entries = {id(e) for e in self.entries}
        chain, seen, at = [], {id(function)}, function
        while id(at) not in entries:
            callers = [c for c in self._into.get(id(at), {}).values() if c[0].function is not at]
            if len(callers) != 1:
                break
            chain.append(callers[0])
            at = callers[0][0].function
            if id(at) in seen:
                break
            seen.add(id(at))
        return chain[::-1]

    def callers(self, function: FunctionInfo) -> list[tuple[object, object, object]]:
        """(the caller's visit, the call, its tests or None) for each walked call of `function`."""
        self._calls()
        return list(self._into.get(id(function), {}).values())

    def _calls(self) -> None:
        if self._into is None:
            self._into = {}
            for walker, visit in self.walks:
                for target, call, *_ in walker.calls:
                    self._into.setdefault(id(target), {})[(id(visit.function), id(call))] = \
                        (visit, call, walker.call_tests.get(id(call)))

    def dead(self, function: FunctionInfo) -> bool:
        if self._dead is None:
            self._dead = self._solve()
        return id(function) in self._dead

    def _solve(self) -> set[int]:
        live_calls: list[tuple[int, int]] = []  # (caller id, callee id) of the calls not ruled out
        called: set[int] = set()
        for walker, visit in self.walks:
            for target, call, *_ in walker.calls:
                called.add(id(target))
                tests = walker.call_tests.get(id(call))
                if tests is None or not self.decided(tests, visit):
                    live_calls.append((id(visit.function), id(target)))
        dead = called - {id(e) for e in self.entries}
        changed = True
        while changed:  # a function comes alive once a live caller makes a live call of it
            changed = False
            for caller, callee in live_calls:
                if callee in dead and caller not in dead:
                    dead.discard(callee)
                    changed = True
        return dead
