"""The extension in real VS Code (code-server + chromium), against the real `fullgraph serve`.

Runs vscode-client/e2e/run.sh (first run installs Node 24, code-server and playwright-core
into .cache/vscode-e2e/, several minutes; later runs take about a minute) and checks its
JSON result against the engine and the rewrites run in this process.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from fullgraph.engine import analyze
from fullgraph.fixes import apply_edits, fix_all, fixes_for

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).resolve().parents[2] / "vscode-client" / "e2e" / "workspace" / "model.py"


def _lsp(findings):
    """Findings as (code, 0-based range) like VS Code reports them (the fixture is ASCII)."""
    return [(f.code, [f.line - 1, f.col, f.end_line - 1, f.end_col]) for f in findings]


def _seen(diagnostics):
    return sorted((d["code"], d["range"]) for d in diagnostics)


def _run_e2e(client_dir: Path, out: Path) -> dict:
    env = dict(os.environ, PYTHON=sys.executable, FULLGRAPH_E2E_RESULT=str(out / "result.json"),
               FULLGRAPH_E2E_SHOT=str(out / "quickfix.png"), FULLGRAPH_E2E_HOVER_SHOT=str(out / "hover.png"))
    done = subprocess.run(["bash", str(client_dir / "e2e" / "run.sh")], env=env, capture_output=True, text=True, timeout=1500)
    assert (out / "result.json").exists(), done.stdout[-4000:] + done.stderr[-4000:]
    report = json.loads((out / "result.json").read_text())
    assert done.returncode == 0 and report["ok"], json.dumps(report, indent=1)[-6000:] + done.stdout[-3000:] + done.stderr[-3000:]
    return report


@pytest.fixture(scope="module")
def result(client_dir, tmp_path_factory):
    """One e2e run per test session, also under pytest-xdist (workers share it through a lock)."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run_id:
        return _run_e2e(client_dir, tmp_path_factory.mktemp("vscode-e2e"))
    shared = Path(tempfile.gettempdir()) / f"fullgraph-vscode-e2e-{run_id}"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (shared / "result.json").exists():
            report = json.loads((shared / "result.json").read_text())
            assert report["ok"], "the e2e run of another worker failed"
            return report
        return _run_e2e(client_dir, shared)


def test_diagnostics_match_the_engine(result):
    source = FIXTURE.read_text()
    seen = result["exttest"]["diagnostics"]
    assert _seen(seen) == sorted(_lsp(analyze(source, str(FIXTURE))))
    assert {"FG101", "FG301"} <= {d["code"] for d in seen}
    print_line = source.splitlines().index('        print("hidden norm", h.norm())')
    assert any(d["code"] == "FG301" and d["range"][0] == print_line for d in seen)
    assert all(d["href"].endswith(f'{d["code"]}.md') for d in seen)


def test_quick_fix_applies_the_engine_rewrite(result):
    ext = result["exttest"]
    source = FIXTURE.read_text()
    finding = next(f for f in analyze(source, str(FIXTURE)) if f.code == "FG101")
    preferred = fixes_for(source, finding)[0]
    assert any(a["title"] == f"fullgraph (FG101): {preferred.title}" and a["isPreferred"] for a in ext["codeActions"])
    assert any(a["kind"] == "source.fixAll.fullgraph" for a in ext["codeActions"])
    assert ext["afterQuickFix"] == apply_edits(source, preferred.edits)
    assert "torch.where(" in ext["afterQuickFix"]
    assert "FG101" not in {d["code"] for d in ext["diagnosticsAfterQuickFix"]}
    assert _seen(ext["diagnosticsAfterQuickFix"]) == sorted(_lsp(analyze(ext["afterQuickFix"], str(FIXTURE))))


def test_fix_all_command_rewrites_the_file(result):
    ext = result["exttest"]
    assert ext["afterFixAll"] == fix_all(ext["afterQuickFix"], str(FIXTURE), None).source
    assert ext["afterFixAll"] != ext["afterQuickFix"]
    assert _seen(ext["diagnosticsAfterFixAll"]) == sorted(_lsp(analyze(ext["afterFixAll"], str(FIXTURE))))


def test_commands_restore_and_restart(result):
    ext = result["exttest"]
    assert set(ext["commands"]) == {"fullgraph.fixAll", "fullgraph.runConfirm", "fullgraph.restart", "fullgraph.showOutput", "fullgraph.applyFixAll"}
    assert ext["restoredTextMatches"]
    assert [s["name"] for s in ext["steps"]] == ["activated", "diagnostics", "quickFix", "fixAll", "restored", "confirmed", "restarted", "reconfigured", "notInstalled", "interpreterRestored", "missingInterpreter", "interpreterRestoredAgain", "notebookCell"]


def test_confirm_command_runs_dynamo_on_the_sample_inputs(result):
    ext = result["exttest"]
    assert ext["confirm"]["ok"] and ext["confirm"]["replaced"]
    (target,) = ext["confirm"]["targets"]
    assert target["breaks"] == len(ext["diagnostics"]) and not target["run_errors"]
    assert sorted(d["code"] for d in ext["diagnosticsAfterConfirm"]) == sorted(d["code"] for d in ext["diagnostics"])
    assert ext["diagnosticsAfterConfirm"] != ext["diagnostics"]


def test_notebook_python_cell_gets_diagnostics(result):
    ext = result["exttest"]
    assert ext["notebookCell"]["uri"].startswith("vscode-notebook-cell:")
    expected = sorted(_lsp(analyze(ext["notebookCell"]["text"], "<cell>")))
    assert expected and _seen(ext["notebookCellDiagnostics"]) == expected


def test_packaged_vsix_shows_squiggles_and_quick_fix_menu(result):
    assert result["vsix_installed"].startswith("fullgraph.fullgraph@")
    assert result["shot"]["squiggles"] >= 2
    assert any(t.startswith("fullgraph (FG") for t in result["shot"]["quickFixes"])
    assert Path(result["screenshot"]).stat().st_size > 20_000


def test_settings_change_reaches_the_running_server(result):
    ext = result["exttest"]
    assert [d["code"] for d in ext["diagnosticsIgnoringFG3"]] == [d["code"] for d in ext["diagnostics"] if not d["code"].startswith("FG3")]


def test_missing_fullgraph_is_explained_with_the_install_command(result):
    assert "fullgraph is not installed in " in result["log"]
    assert "-S -m pip install fullgraph" in result["log"]


def test_cold_start_is_measured(result):
    ext = result["exttest"]
    print("\n".join(result["cold_start"]))  # what run.sh printed
    assert result["shot"]["openToSquiggleMs"] > 0 and ext["openToDiagnosticsMs"] > 0  # a figure, not a timed assertion
    assert ext["firstStart"]["ms"] > 0 and ext["restartStart"]["ms"] > 0
    assert ext["importChecksAtFirstStart"] == 0  # nothing runs in front of (or beside) a server start that works


def test_failed_start_is_explained_once(result):
    ext = result["exttest"]
    assert ext["importChecksWhenNotInstalled"] == 1  # the import check ran after the failed start, to say why
    assert [m["message"] for m in ext["shownWhenNotInstalled"]] == [ext["notInstalledMessage"]["message"]]


def test_lens_hover_and_status_bar_say_what_the_diagnostics_say(result):
    ext = result["exttest"]
    assert [lens["title"] for lens in ext["lenses"] if "graph break" in lens["title"]] == ["3 likely graph breaks · 2 fixable"]  # keeping `scale` as a tensor is an unsafe fix
    assert ext["statusText"] == "$(warning) fullgraph: 3"
    hover = "\n".join(ext["hover"])
    assert not any(d["message"] in hover for d in ext["diagnostics"])  # VS Code shows the message already
    assert hover.count("**FG101**") == 1 and hover.count("```diff") == 1 and "gb0170.html" in hover
    assert all("http" not in d["message"] for d in ext["diagnostics"])


def test_nothing_to_fix_stays_silent(result):
    ext = result["exttest"]
    assert ext["secondFixAll"]["applied"] is False and ext["secondFixAll"]["reason"] == "nothing to fix"
    assert not [m for m in ext["shownAfterNothingToFix"] if "nothing to fix" in m["message"]]


def test_missing_fullgraph_offers_install_into_the_chosen_interpreter(result):
    shown = result["exttest"]["notInstalledMessage"]
    assert shown["level"] == "error" and shown["actions"] == ["Install fullgraph", "Select interpreter", "Show output"]


def test_missing_interpreter_offers_to_pick_one(result):
    ext = result["exttest"]
    shown = ext["missingInterpreterMessage"]
    assert shown["level"] == "error" and "fullgraph-e2e-no-such-python" in shown["message"]
    assert shown["actions"] == ["Select interpreter"]  # nothing to install into
    assert [m["message"] for m in ext["shownWhenInterpreterMissing"]] == [shown["message"]]


def test_output_channel_is_quiet_and_stamped_once(result):
    log = result["log"]
    assert "Cancel notification for unknown message id" not in log
    assert not re.search(r"\[error\].*exited with code 0", log)
    assert "exited with code 0" in log  # the restart's normal exit, as information
    stamped_twice = [line for line in log.splitlines() if re.search(r"\d:\d\d:\d\d.*\d:\d\d:\d\d", line)]
    assert not stamped_twice, stamped_twice[:3]
