"""The second quick fix of rules whose break has no source rewrite: one Dynamo config line that
lets Dynamo trace the construct itself (each verified on the rule's corpus examples; the
trade-off is on the rule's page)."""

from __future__ import annotations

from fullgraph.fixes.context import FixContext
from fullgraph.fixes.edits import Fix, TextEdit
from fullgraph.fixes.names import import_line, torch_alias
from fullgraph.fixes.preconditions import DEFER_CODES, TRAP_CODES
from fullgraph.rules.catalog import RULES

TITLES = {
    "capture_scalar_outputs": "Let Dynamo capture the Python scalar (capture_scalar_outputs)",
    "capture_dynamic_output_shape_ops": "Let Dynamo trace the data-dependent shape (capture_dynamic_output_shape_ops)",
    "allow_rnn": "Let Dynamo trace the RNN module (allow_rnn)",
}
KNOBS = {rule.code: rule.knob for rule in RULES.values() if rule.knob}


def has_alternatives(code: str) -> bool:
    """Whether the rule has quick fixes to choose that fix-all never applies (a config line, a
    deferral, a lowered check), which the editor offers even when the finding has no safe fix."""
    return code in KNOBS or code in DEFER_CODES or code in TRAP_CODES


def module_line_fix(ctx: FixContext, line_text: str, line: int, title: str, kind: str) -> list[Fix]:
    """Insert one module-level statement before ``line`` (with ``import torch`` when missing);
    nothing when the file already has it."""
    if line_text in ctx.source:
        return []
    prefix = "" if torch_alias(ctx.tree) else "import torch\n"
    return [Fix(title, (TextEdit(line, 0, line, 0, prefix + line_text + "\n"),), preferred=False, kind=kind)]


def config_fix(ctx: FixContext, finding) -> list[Fix]:
    """``torch._dynamo.config.<knob> = True`` after the imports, for the rules that have one."""
    if finding.code not in KNOBS:
        return []
    knob = KNOBS[finding.code]
    return module_line_fix(ctx, f"{ctx.torch}._dynamo.config.{knob} = True", import_line(ctx.tree), TITLES[knob], "config")
