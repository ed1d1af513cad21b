"""`Rule`: one catalog entry (the data every front end reads) and its doc page."""

from __future__ import annotations

from dataclasses import dataclass

from fullgraph.findings import gb_doc_url

DOCS_BASE_URL = "https://github.com/fullgraph/fullgraph/blob/main/docs/rules/"


@dataclass(frozen=True)
class Rule:
    """A rule's identity, default severity, fix kind and documentation."""

    code: str
    name: str  # kebab-case
    summary: str  # one line
    gb_ids: tuple[str, ...]
    what: str
    why: str
    example: str
    fixed_example: str
    fix_text: str
    fix_kind: str | None = None
    fix_title: str | None = None
    severity: str = "warning"
    knob: str | None = None  # a `torch._dynamo.config` flag that lets Dynamo trace it (the editor's extra quick fix)

    @property
    def doc_url(self) -> str:
        return f"{DOCS_BASE_URL}{self.code}.md"

    def doc_markdown(self) -> str:
        """The rule's documentation page (ruff style)."""
        ids = ", ".join(f"[{g}]({gb_doc_url(g)})" for g in self.gb_ids) or "none"
        fix = f"{self.fix_kind} ({self.fix_title})" if self.fix_kind else \
            "none in `fullgraph fix`" if self.knob else "none (manual change)"
        if self.knob:
            fix += f"; in the editor, `torch._dynamo.config.{self.knob} = True` (see Fix)"
        parts = [
            f"# {self.name} ({self.code})",
            "",
            f"{self.summary}",
            "",
            f"Default severity: **{self.severity}**. Dynamo registry ids: {ids}. Quick fix: {fix}.",
            "",
            "## What it does",
            "",
            self.what.strip(),
            "",
            "## Why is this bad?",
            "",
            self.why.strip(),
            "",
            "## Example",
            "",
            "```python",
            self.example.strip("\n"),
            "```",
            "",
            "Use instead:",
            "",
            "```python",
            self.fixed_example.strip("\n"),
            "```",
            "",
            "## Fix",
            "",
            self.fix_text.strip(),
            "",
            "## Suppress",
            "",
            (f"Add `# fullgraph: ignore[{self.code}]` (or `# noqa: {self.code}`) to the line, or list "
             f"`{self.code}` under `ignore` in `[tool.fullgraph]`."),
            "",
        ]
        return "\n".join(parts)
