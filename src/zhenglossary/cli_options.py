"""Options and choices shared by every `zhen` command module (cli, cli_exchange, cli_review)."""

from __future__ import annotations

from enum import Enum

import typer


class CheckFormat(str, Enum):
    """`--format text|json` of the reporting commands."""

    text = "text"
    json = "json"


def out_dir_option():
    return typer.Option(None, "--out-dir",
                        help="Where `zhen translate --out-dir` wrote x.en.md and x.zh-en.md "
                        "(default: beside each note).")


def glossary_option():
    return typer.Option(None, "--glossary", "-g",
                        help="glossary.yaml to use (default: found upwards from here).")
