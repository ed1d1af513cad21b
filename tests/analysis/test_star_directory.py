"""Names re-exported through a wide fan of star imports (a lazy package's `if TYPE_CHECKING:
from .models import *`, hundreds of model packages each star-importing its modules) resolve
from the files' text, only the module binding the name summarised; the editor's read-only
analysis lacks the directory once, and the fill makes it."""

import textwrap

from fullgraph.analysis.project import MAX_STARS, ProjectIndex
from fullgraph.analysis.star_directory import bound_names
from fullgraph.engine import analyze_document

WIDE = MAX_STARS + 4  # more star imports than a name search follows one by one


def _lazy_package(root, name="lazylib"):
    """`name`: `from .models import *` under TYPE_CHECKING; `models/__init__.py` star-imports WIDE
    packages `m<i>`, each star-importing its `modeling.py`, which exports `Net<i>` (its `forward`
    branches on a tensor) and keeps `Hidden<i>` out of `__all__`."""
    pkg = root / name
    (pkg / "models").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .models import *\n"
                                     "else:\n    import sys\n")
    (pkg / "models" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        + "".join(f"    from .m{i} import *\n" for i in range(WIDE)))
    for i in range(WIDE):
        sub = pkg / "models" / f"m{i}"
        sub.mkdir()
        (sub / "__init__.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                         "    from .modeling import *\n")
        (sub / "modeling.py").write_text(textwrap.dedent(f"""\
            from torch import nn

            class Net{i}(nn.Module):
                def forward(self, x):
                    if x.sum() > 0:
                        return x * 2
                    return x

            class Hidden{i}(Net{i}):
                pass

            __all__ = ["Net{i}"]
            """))


USER = """\
    import torch
    from torch import nn
    from lazylib import Net17, Hidden3

    class Wrapper(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Net17()

        def forward(self, x):
            return self.inner(x)
    """


def _setup(tmp_path):
    _lazy_package(tmp_path / "lib")
    (tmp_path / "ws").mkdir()
    user = tmp_path / "ws" / "user.py"
    user.write_text(textwrap.dedent(USER))
    return user, ProjectIndex(roots=[tmp_path / "ws"], search_paths=(str(tmp_path / "lib"),))


def test_a_name_a_lazy_package_re_exports_through_a_wide_star_fan_resolves(tmp_path):
    user, project = _setup(tmp_path)
    found = project.lookup(str(user), "Net17")
    assert found is not None and found.kind == "class" and found.path.endswith("m17/modeling.py")
    assert project.lookup(str(user), "Hidden3") is None  # left out of its module's `__all__`
    report = analyze_document(user.read_text(), str(user), project=project)
    assert [(f.code, f.line) for f in report.findings] == [("FG101", 11)]
    assert "breaks in library code at lazylib/models/m17/modeling.py:5" in report.findings[0].message


def test_the_editor_lacks_the_directory_once_and_the_fill_makes_it(tmp_path):
    user, project = _setup(tmp_path)
    assert project.resolver is not None  # asked of the interpreter when the server's index build starts
    models = str(tmp_path / "lib" / "lazylib" / "models" / "__init__.py")
    assert project.summary(models) is not None  # summarised by the build: the directory is not made then
    lacked, rounds = set(), 0
    while True:
        with project.readonly() as use:
            found = project.lookup(str(user), "Net17")
        if not use.missing:
            break
        rounds += 1
        assert found is None and rounds < 10
        lacked |= use.missing
        for path in use.missing:
            project.fill(path)
    assert models in lacked
    assert found is not None and found.path.endswith("m17/modeling.py")
    with project.readonly() as use:  # kept: nothing is lacked again
        assert project.lookup(str(user), "Net17") == found and not use.missing


def test_a_workspace_module_with_many_star_imports_is_searched_as_before(tmp_path):
    """In the workspace a directory would go stale as files change: the search stays bounded
    (MAX_STARS star imports of a module, STAR_DEPTH levels), so the lazy package's names are not found."""
    _lazy_package(tmp_path / "ws")
    user = tmp_path / "ws" / "user.py"
    user.write_text(textwrap.dedent(USER))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    assert project.lookup(str(user), "Net17") is None


def test_the_names_a_module_binds_at_top_level_within_its_all():
    text = textwrap.dedent("""\
        import torch, numpy as np
        from .x import a as b, c
        from typing import TYPE_CHECKING
        class Kept:
            def method(self):
                inner = 1
        def helper(): pass
        value: int = 3
        _private = 2
        if value == 3:
            pass
        """)
    assert bound_names(text) == {"torch", "np", "b", "c", "TYPE_CHECKING", "Kept", "helper", "value"}
    assert bound_names(text + '__all__ = ["Kept", "helper"]\n') == {"Kept", "helper"}


def test_every_name_of_a_parenthesised_import_over_lines():
    """kornia's `from .spatial_soft_argmax import (\\n    AdaptiveQuadInterp3d,\\n    ConvQuadInterp3d, ...)`:
    every name inside the parentheses, not only the first line's, comments and aliases read."""
    text = textwrap.dedent("""\
        from .spatial import (
            Adaptive,
            Conv,  # the second
            helper as renamed,
        )
        from .other import (one, two)
        """)
    assert bound_names(text) == {"Adaptive", "Conv", "renamed", "one", "two"}
