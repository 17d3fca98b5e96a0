"""The one Markdown parser configuration zhen uses everywhere (CommonMark + GFM tables)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def parser():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    # lists nested 1,000 deep must not blow the stack or take minutes
    md.options["maxNesting"] = 100
    return md


def parse_tokens(text: str):
    return parser().parse(text)


@lru_cache(maxsize=1)
def display_parser():
    """For showing a note's blocks to a person (the review page): the same syntax, raw
    HTML escaped instead of passed through, task-list items as (disabled) checkboxes."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    md.options["maxNesting"] = 100
    return md.use(tasklists_plugin)
