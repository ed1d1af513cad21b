"""Call sites in other workspace files give an assumed entry's parameters their facts."""

import os
import textwrap

from fullgraph.analysis.project import ProjectIndex
from fullgraph.config import Config
from fullgraph.engine import analyze_document

ALL = Config(assume_compiled="all")

HELPERS = """
    import enum
    import torch

    class Kind(enum.Enum):
        FAST = 1

    def pick(kind, mode, x):
        if kind == Kind.FAST and mode == "train":
            return x
        return x + 1

    def to_int(x):
        return int(x)

    def route(msg: "Message"):
        if msg["done"]:
            return 1
        return 0
    """


def make(tmp_path, caller: str) -> ProjectIndex:
    for name, text in {"ws/helpers.py": HELPERS, "ws/caller.py": caller}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return ProjectIndex(roots=[tmp_path / "ws"], search_paths=())


def findings(project, tmp_path, config=ALL):
    path = tmp_path / "ws" / "helpers.py"
    report = analyze_document(path.read_text(), str(path), config, project=project)
    return [(f.line, f.code, f.data.get("guess")) for f in report.findings]


def test_values_passed_from_another_file_are_not_guessed_tensors(tmp_path):
    project = make(tmp_path, """
        import torch
        from helpers import Kind, pick, to_int, route

        def run(t: torch.Tensor, msg: "Message"):
            n = to_int(t.shape[0] // 2)
            route(msg)
            return pick(Kind.FAST, "train", t * n)
        """)
    assert findings(project, tmp_path) == []


def test_a_tensor_passed_from_another_file_is_known(tmp_path):
    project = make(tmp_path, """
        import torch
        from helpers import to_int

        def run(t: torch.Tensor):
            return to_int(t.sum())
        """)
    [(line, code, guess)] = findings(project, tmp_path)
    assert (line, code, guess) == (14, "FG204", None)


def test_a_callers_guess_stays_a_guess_and_names_it(tmp_path):
    project = make(tmp_path, """
        from helpers import to_int, route

        def run(t, msg):
            route(msg)
            return to_int(t)
        """)
    assert findings(project, tmp_path) == [(14, "FG204", ["run.t"])]


def test_without_callers_elsewhere_the_entry_guess_applies(tmp_path):
    project = make(tmp_path, "x = 1\n")
    assert findings(project, tmp_path) == [(14, "FG204", ["x"])]


def test_only_assumed_entries_take_remote_call_sites(tmp_path):
    project = make(tmp_path, """
        from helpers import to_int

        def run(n: int):
            return to_int(n)
        """)
    assert findings(project, tmp_path, Config(assume_compiled="modules")) == []
    assert findings(project, tmp_path) == []
    (tmp_path / "ws" / "helpers.py").write_text(textwrap.dedent(HELPERS).replace(
        "def to_int(x):", "@torch.compile\ndef to_int(x):"))
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    assert [(c, g) for _, c, g in findings(project, tmp_path)] == [("FG204", ["x"])]


def test_linked_packages_are_in_the_workspace_once(tmp_path):
    project = make(tmp_path, "x = 1\n")
    (tmp_path / "ws" / "caller.py").unlink()
    package = tmp_path / "lib" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text("from helpers import to_int\ndef run(n: int):\n    return to_int(n)\n")
    os.symlink(package, tmp_path / "ws" / "pkg")  # a package linked in: followed
    os.symlink(package, package / "again")  # a loop: each real folder once
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "big.py").write_text("")
    os.symlink(tmp_path / "data", tmp_path / "ws" / "data")  # not a package: not followed
    files = ProjectIndex(roots=[tmp_path / "ws"], search_paths=()).workspace_files()
    assert sorted(os.path.relpath(f, tmp_path / "ws") for f in files) == ["helpers.py", "pkg/__init__.py",
                                                                          "pkg/caller.py"]
    assert findings(project, tmp_path) == []


def test_facts_from_other_files_take_no_rewrite(tmp_path):
    # `to_int(2.5)` at a script's module level is no call the index records: keeping `int(x)` a
    # tensor because `caller.py` passes one would break that script.
    project = make(tmp_path, """
        import torch
        from helpers import to_int

        def run(t: torch.Tensor):
            return to_int(t.sum())
        """)
    path = tmp_path / "ws" / "helpers.py"
    [finding] = analyze_document(path.read_text(), str(path), ALL, project=project).findings
    assert "takes its parameters' facts from calls in `caller.py`" in finding.fix_blocked


SCALE = """
    import torch

    def scale(x, k):
        if (k > 0).all():
            return x * 2
        return x

    @torch.compile
    def run(t: torch.Tensor):
        return scale(t, t.sum())
    """


def _fix_blocked(tmp_path, model: str, script: str | None) -> str | None:
    """The fix check of the one finding of `model.py`, with `script` (None: no such file) beside it."""
    files = {"ws/model.py": model, **({"ws/script.py": script} if script is not None else {})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    path = tmp_path / "ws" / "model.py"
    project = ProjectIndex(roots=[tmp_path / "ws"], search_paths=())
    [finding] = analyze_document(path.read_text(), str(path), Config(), project=project).findings
    return finding.fix_blocked


def _scale_fix_blocked(tmp_path, script: str | None) -> str | None:
    """The fix check of `scale`'s `if`, with `script` (None: no such file) beside `model.py`."""
    return _fix_blocked(tmp_path, SCALE, script)


def test_a_rewrite_of_a_function_other_files_call_is_declined(tmp_path):
    # `run` passes tensors, so `if (k > 0).all()` would be predicated; `script` in another file
    # passes Python numbers, and the rewrite's tensor code would raise there.
    script = "from model import scale\ndef script():\n    return scale(3.0, 2)\n"
    assert _scale_fix_blocked(tmp_path, script).startswith("`scale` is also called from `script.py`")
    assert _scale_fix_blocked(tmp_path / "alone", None) is None


def test_other_files_passing_the_same_known_facts_allow_the_rewrite(tmp_path):
    script = """
        import torch
        from model import scale

        def script(a: torch.Tensor, b: torch.Tensor):
            return scale(a, b.mean())
        """
    assert _scale_fix_blocked(tmp_path, script) is None


def test_other_files_calls_not_shown_to_pass_tensors_keep_the_decline(tmp_path):
    guessed = "from model import scale\n\ndef script(a, b):\n    return scale(a, b)\n"  # guesses only
    module_level = ("import torch\nfrom model import scale\n\ndef script(a: torch.Tensor):\n    return scale(a, a)\n\n"
                    "DEFAULT = scale(1.0, 2)\n")  # a module-level call no function walk sees
    spread = "import torch\nfrom model import scale\n\ndef script(*args):\n    return scale(*args)\n"
    for script in (guessed, module_level, spread):
        assert _scale_fix_blocked(tmp_path, script).startswith("`scale` is also called from `script.py`"), script


def test_other_files_may_pass_other_facts_to_parameters_the_rewrite_does_not_rest_on(tmp_path):
    # `steps` differs (an int here, unknown in `script.py`), but the predicated `if` rests only on
    # `x` and `k`, which every call passes as tensors.
    model = """
        import torch

        def scale(x, k, steps):
            for _ in range(steps):
                x = x + 1
            if (k > 0).all():
                return x * 2
            return x

        @torch.compile
        def run(t: torch.Tensor):
            return scale(t, t.sum(), 3)
        """
    same = ("import torch\nfrom model import scale\nfrom elsewhere import count\n\n"
            "def script(a: torch.Tensor):\n    return scale(a, a.sum(), count())\n")
    other = same.replace("a.sum()", "2.0")
    assert _fix_blocked(tmp_path, model, same) is None
    assert _fix_blocked(tmp_path, model, other).startswith("`scale` is also called from `script.py`")


def test_parameters_annotated_as_tensors_need_no_check_of_other_files(tmp_path):
    # The annotation is the contract every caller is held to, as it is for a compiled entry.
    model = SCALE.replace("def scale(x, k):", "def scale(x: torch.Tensor, k: torch.Tensor):")
    assert _fix_blocked(tmp_path, model, "from model import scale\ndef script():\n    return scale(3.0, 2)\n") is None
