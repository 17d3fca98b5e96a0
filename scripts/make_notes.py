"""Rebuild notes/*.md from the user's plain-text notes (../shared/seeds/).

Only light Markdown structure is added where the text already shows it: paper and
session titles become headings, bullets become list items, the SOSP checklist's
description lines are indented under their item, and three literal ``*`` that
CommonMark would read as emphasis are escaped.  Every word is kept as written;
``tests/test_notes.py`` checks that stripping the added markup gives back the seed
text line for line.

    python scripts/make_notes.py ../shared/seeds notes
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SC24_H2 = {19, 171, 302, 409, 432, 593, 651}
SC24_H3 = {12, 25, 119, 176, 198, 310, 349, 387, 413, 421, 425, 441, 461, 583,
           602, 625, 639, 660, 695, 709}
SC24_H4 = {322, 359, 508, 520, 678, 688, 692}


def sc24(text: str) -> str:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number == 1:
            line = "# " + line
        elif number in SC24_H2:
            line = "## " + line
        elif number in SC24_H3:
            line = "### " + line
        elif number in SC24_H4:
            line = "#### " + line
        elif line.startswith("• "):
            line = "- " + line[2:]
        line = re.sub(r"^(\d)\*", r"\1\\*", line)
        out.append(line)
    return "\n".join(out) + "\n"


def sosp24(text: str) -> str:
    out = []
    for line in text.splitlines():
        if line.startswith("Session "):
            out += ["## " + line, ""]
        elif line.startswith("- ["):
            if out and out[-1] != "":
                out.append("")
            out += [line, ""]
        elif line.startswith("- "):
            # a nested bullet under the current checklist item
            if out[-1] != "" and not out[-1].startswith("  - "):
                out.append("")
            out.append("  " + line)
        else:
            if out[-1].startswith("  - "):
                out.append("")
            out += ["  " + line, ""]
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def main(seeds: Path, notes: Path) -> None:
    notes.mkdir(exist_ok=True)
    (notes / "sc24.md").write_text(
        sc24((seeds / "sc24-brief-summary.txt").read_text("utf-8")), "utf-8")
    (notes / "sosp24.md").write_text(
        sosp24((seeds / "sosp24-sessions.txt").read_text("utf-8")), "utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
