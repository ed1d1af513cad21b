"""The catalog is complete and consistent, and docs/rules is generated from it."""

import re
from pathlib import Path

from fullgraph.findings import FIX_KINDS, SEVERITIES
from fullgraph.rules.catalog import RULES, get_rule
from fullgraph.rules.docs import index_markdown, write_docs

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_rule_fields():
    assert list(RULES) == sorted(RULES)
    for code, rule in RULES.items():
        assert re.fullmatch(r"FG\d{3}", code) and rule.code == code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
        assert all(re.fullmatch(r"GB\d{4}", g) for g in rule.gb_ids)
        assert rule.severity in SEVERITIES
        assert (rule.fix_kind is None) == (rule.fix_title is None)
        assert rule.fix_kind is None or rule.fix_kind in FIX_KINDS
        assert rule.doc_url == f"https://github.com/fullgraph/fullgraph/blob/main/docs/rules/{code}.md"
        assert rule.summary and "\n" not in rule.summary
    assert len({r.name for r in RULES.values()}) == len(RULES)
    assert get_rule("fg301") is RULES["FG301"] and get_rule("FG999") is None


def test_doc_page_sections():
    page = RULES["FG302"].doc_markdown()
    for section in ("# logging (FG302)", "## What it does", "## Why is this bad?", "## Example", "## Fix",
                    "gb0291.html", "```python"):
        assert section in page


def test_a_rule_that_breaks_by_default_is_a_warning_and_its_page_names_its_config_line():
    """The data-dependent shape rules break under the default config: warnings, like the other
    breaks; where a Dynamo flag traces the construct, the page's header says the editor offers it."""
    for code in ("FG451", "FG452", "FG453", "FG454", "FG455"):
        assert RULES[code].severity == "warning"
    header = RULES["FG451"].doc_markdown().splitlines()[4]
    assert "Quick fix: none in `fullgraph fix`; in the editor, " \
           "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`" in header
    assert "in the editor, `torch._dynamo.config.capture_scalar_outputs = True`" in RULES["FG201"].doc_markdown()
    assert "Quick fix: none (manual change)." in RULES["FG454"].doc_markdown()


def test_generated_docs_are_up_to_date(tmp_path):
    written = write_docs(tmp_path)
    assert len(written) == len(RULES) + 1
    for page in written:
        committed = DOCS / page.name
        assert committed.is_file(), f"run `make docs`: {committed.name} is missing"
        assert committed.read_text(encoding="utf-8") == page.read_text(encoding="utf-8"), \
            f"run `make docs`: {committed.name} is stale"
    assert "| [FG101](FG101.md) | tensor-condition-if |" in index_markdown()
