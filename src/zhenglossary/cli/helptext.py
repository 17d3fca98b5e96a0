"""How `zhen … --help` reads: one short line per command in the command lists (whole, never
cut with "…"), an Examples section under each command, and plain metavars (``PATH...``,
``FILE``, ``DIR``, ``N``, ``auto|argos|gloss``) instead of typer's ``{paths}...`` and
``<list[Path]>``.

``apply(app)`` walks the registered commands once, at the end of ``cli/__init__.py``; the
command modules stay as they are. Nothing here computes.
"""

from __future__ import annotations

import typer
from typer.core import TyperArgument, TyperCommand

# command path → (the line shown in command lists, examples)
HELP: dict[str, tuple[str, list[str]]] = {
    "init": ("Start a project here: a commented glossary.yaml, and .gitignore entries.", [
        "zhen init",
        "zhen init --force            # replace an existing glossary.yaml",
    ]),
    "translate": ("Translate notes: writes x.en.md and the parallel x.zh-en.md.", [
        "zhen translate notes/",
        "zhen translate notes/paper.md --engine gloss",
        "zhen translate notes/ --out-dir build/en --format json",
        "zhen translate notes/paper.md --engine llm --dry-run   # the requests, nothing sent",
    ]),
    "status": ("Count each note's blocks: machine, reviewed, edited, stale, invalid, pending.", [
        "zhen status",
        "zhen status notes/paper.md --format json",
        "zhen status --fail-on stale,invalid     # exit 1 in CI while any block needs review",
    ]),
    "mark": ("Mark blocks reviewed in a note's parallel file (their English kept as it is).", [
        "zhen mark notes/paper.md 3 7 12",
        "zhen mark notes/paper.md --all",
        "zhen mark notes/paper.md 7 --as machine     # take a review back",
    ]),
    "export": ("Export translated pairs as TMX or XLIFF for CAT tools.", [
        "zhen export notes/ --format tmx --out memory.tmx",
        "zhen export notes/paper.md --format xliff > paper.xlf",
    ]),
    "review": ("Write review.html: source and English side by side, with findings.", [
        "zhen review",
        "zhen review notes/paper.md --out paper-review.html",
    ]),
    "glossary": ("Check the glossary and the notes; suggest, export and import terms.", []),
    "glossary check": ("Check the glossary, the notes and their translations.", [
        "zhen glossary check",
        "zhen glossary check notes/ --format concise      # path:line:col: severity check message",
        "zhen glossary check --format github              # GitHub Actions annotations",
        "zhen glossary check --strict --info",
        "zhen glossary check --list-checks",
    ]),
    "glossary suggest": ("Suggest terms the glossary lacks, as YAML to paste.", [
        "zhen glossary suggest --limit 20",
        "zhen glossary suggest notes/ --format json",
        "zhen glossary suggest --out candidates.yaml   # review, then zhen glossary import it",
        "zhen glossary suggest --interactive           # a accept, e edit, s skip, q quit",
    ]),
    "glossary export": ("Export the glossary as TBX or TSV.", [
        "zhen glossary export --format tbx --out glossary.tbx",
        "zhen glossary export --format tsv > deepl.tsv",
    ]),
    "glossary import": ("Add entries from a TBX, TSV, CSV or YAML glossary; report conflicts.", [
        "zhen glossary import candidates.yaml   # after reviewing `zhen glossary suggest --out candidates.yaml`",
        "zhen glossary import terms.tsv --dry-run",
        "zhen glossary import termbase.tbx",
    ]),
    "model": ("List and install argos zh→en translation models.", []),
    "model list": ("List installed argos translation packages.", [
        "zhen model list",
        "zhen model list --format json",
    ]),
    "model install": ("Install the argos zh→en model, or a local .argosmodel file.", [
        "zhen model install",
        "zhen model install --file translate-zh_en-1_9.argosmodel",
    ]),
}


def _examples(lines: list[str]) -> str | None:
    if not lines:
        return None
    # \b keeps click from re-flowing the lines
    return "Examples:\n\n\b\n" + "\n".join("  " + line for line in lines)


class _Argument(TyperArgument):
    """An argument shown by its metavar alone: ``PATH...`` (``[PATH...]`` when optional)."""

    def _usage_display_name(self) -> str:
        name = self.metavar or self.name.upper()
        return name if self.required else f"[{name}]"

    def display_type_rich(self, ctx):          # no "<list[Path]>" after the name
        return None


def _metavar(param) -> str | None:
    """A plain metavar from the parameter's name and type (typer's type descriptor)."""
    name = (param.name or "value").upper()
    if isinstance(param, TyperArgument):
        if param.nargs != 1:
            return (name[:-1] if name.endswith("S") else name) + "..."
        return name
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    desc = getattr(param, "type_descriptor", None)
    if desc is None:
        return None
    if desc.is_choice:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    if desc.is_path:
        return "DIR" if "dir" in name.lower() else "FILE"
    if desc.annotation is int:
        return "N"
    if desc.annotation is float:
        return "NUMBER"
    return name


class ZhenCommand(TyperCommand):
    """A typer command with plain metavars (see the module docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperArgument):
                param.__class__ = _Argument
            if param.metavar is None:
                param.metavar = _metavar(param)


def apply(app: typer.Typer, prefix: str = "") -> None:
    """Give every command of ``app`` (and its groups) its line, examples and metavars."""
    for info in app.registered_commands:
        name = f"{prefix}{info.name}"
        short, examples = HELP.get(name, (None, []))
        info.cls = ZhenCommand
        info.short_help = short or info.short_help
        info.epilog = _examples(examples) or info.epilog
    for group in app.registered_groups:
        name = f"{prefix}{group.name}"
        short, _ = HELP.get(name, (None, []))
        group.short_help = short or group.short_help
        apply(group.typer_instance, name + " ")
