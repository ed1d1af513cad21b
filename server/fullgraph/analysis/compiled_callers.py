"""Compiled code in other workspace files that calls a function of this one. A helper module's
function that a model's `forward` elsewhere calls is compiled code too: its own file's analysis
checks it (with what those calls pass it), so a helper opened alone, or checked alone, shows the
breaks the models reach in it.

A caller is compiled code when its file's own analysis would walk it: an entry point of that file
(a module's `forward`, a method an inherited `forward` dispatches to, a `torch.compile`d function,
...) or a function of that file such an entry calls, through plain and `self.` calls; or, through
`REACH_DEPTH` more files, a function only compiled code of other files calls.
"""

from __future__ import annotations

from fullgraph.analysis.regions import ModuleIndex, shared_index

REACH_CALLS = 64  # calls of a function resolved to find its compiled callers; with more, none are sought
REACH_DEPTH = 2  # files of plain functions between a compiled caller and the function it reaches


def compiled_callers(index: ModuleIndex, name: str, depth: int = 0) -> tuple[tuple[str, str, int], ...]:
    """The calls of module-level function `name` of `index`'s file that compiled code of other
    workspace files makes: (file, caller, line) each; none sought for a name more than
    `REACH_CALLS` calls spell."""
    project = index.project
    found = project.call_sites(index.path, name, REACH_CALLS) or ()
    return tuple((file, site.caller, site.line) for file, site in found if _compiled(project, file, site.caller, depth))


def _compiled(project, path: str, qualname: str, depth: int) -> bool:
    """Whether function `qualname` of `path` is compiled code (see the module's doc)."""
    other = shared_index(project, path)
    if other is None:
        return False
    if qualname in other.own_region():
        return True
    owner, _, name = qualname.rpartition(".")
    if owner or depth + 1 >= REACH_DEPTH or name not in other.functions:
        return False
    return bool(compiled_callers(other, name, depth + 1))
