"""The shipped notes are the user's words: only light Markdown structure was added."""

import hashlib
import re

from conftest import NOTES

# sha256 of the seeds (../shared/seeds/*.txt) after the same normalisation
SEED_HASHES = {
    "sc24.md": "f38702661bf054a74bb14c507e5e3226abe39f11c81e8185828daca1e934e659",
    "sosp24.md": "4c5fc634f82a42b46efc16e4ac31d20315427a2d760c40225b885ccc26fd3edc",
}


def words_only(text: str) -> str:
    """Drop what scripts/make_notes.py adds: heading marks, list marks, indentation,
    blank lines and the escaping backslash of a literal '*'."""
    lines = []
    for line in text.splitlines():
        line = line.strip()
        line = re.sub(r"^(#+ |- |• )", "", line)
        line = line.replace("\\*", "*")
        if line:
            lines.append(line)
    return "\n".join(lines)


def test_notes_keep_every_word_of_the_seeds():
    for name, digest in SEED_HASHES.items():
        text = (NOTES / name).read_text("utf-8")
        assert hashlib.sha256(words_only(text).encode()).hexdigest() == digest, name


def test_notes_have_structure():
    sc24 = (NOTES / "sc24.md").read_text("utf-8")
    assert sc24.startswith("# SC 24 Brief Summary 2\n")
    assert "\n### MIXQ: Taming Dynamic Outliers in Mixed-Precision Quantization by Online Prediction\n" in sc24
    sosp = (NOTES / "sosp24.md").read_text("utf-8")
    assert "\n  - 准备一定数量的备用机器" in sosp   # nested list under a checklist item
