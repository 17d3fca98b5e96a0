"""What zhen last wrote for each note, and from what: an unchanged note is skipped whole.

After ``zhen translate`` writes a note's outputs it records, in the translation memory
(table ``notes``), a :class:`NoteState`: hashes of the note's text and of both outputs as
written, the glossary it was translated with (:func:`glossary_id`; the entries themselves
are kept once per glossary, table ``glossaries``), the run key (:func:`run_key`: zhen's
version, the engine and its model, the options that change the output), and the run's
findings and counts for the note. On the next run a note whose text, outputs and run key
are the same is not parsed, translated or validated: its findings and counts are said
again as they were (but for what happened in that run only: ``EVENTS``). A changed glossary re-runs exactly the notes that hold a form of an
entry that was added, removed or changed (or every note, when the corpus-wide ``forbid``
list changed); within them, the memory re-translates only the sentences that changed.

The record is a cache, like the memory it lives in: a damaged or missing row costs one full
run of that note, never a wrong skip — every value is checked before it is trusted.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .findings import Finding
from .glossary import Glossary

MANIFEST_VERSION = 1
# what happened in the run itself, not what holds of the note: never said again
EVENTS = frozenset({"english-carried", "output-replaced", "source-edited", "state-adopted"})
# a note with these is translated again next time (another engine stood in for a sentence,
# which the memory does not keep): it is never recorded as done
RETRY = frozenset({"engine-fallback"})


def text_hash(text) -> str:
    """The hash of ``text`` (a str, or a ``textutil.Pieces``: a piece at a time)."""
    digest = hashlib.sha256()
    for piece in (text,) if isinstance(text, str) else text:
        for start in range(0, len(piece), _SLICE):   # a long output hashed in slices, not
            digest.update(piece[start:start + _SLICE].encode("utf-8", "surrogatepass"))  # copied
    return digest.hexdigest()


_SLICE = 1 << 20


def _entries(glossary: Glossary) -> list:
    keys = sorted({term.rendering_key() for term in glossary.terms}, key=repr)
    return [list(_plain(key)) for key in keys] + [["forbid", sorted(glossary.forbid)]]


def _plain(value):
    """Tuples (and tuples in tuples) as lists, as JSON gives them back."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def glossary_id(glossary: Glossary) -> str:
    return text_hash(json.dumps(_entries(glossary), ensure_ascii=False, sort_keys=True))


def run_key(engine_identity: str, describe: str, options: dict) -> str:
    """What besides the note and the glossary decides the outputs."""
    data = [MANIFEST_VERSION, __version__, engine_identity, describe, sorted(options.items())]
    return text_hash(json.dumps(data, ensure_ascii=False, default=str))


@dataclass
class NoteState:
    source: str
    english: str
    parallel: str
    glossary: str
    run: str
    findings: list[dict] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    @classmethod
    def read(cls, data: object) -> "NoteState | None":
        """The state in a stored row, or None when it is not one zhen wrote."""
        if not isinstance(data, dict):
            return None
        strings = ("source", "english", "parallel", "glossary", "run")
        if not all(isinstance(data.get(k), str) for k in strings):
            return None
        if not isinstance(data.get("findings"), list) or not isinstance(data.get("stats"), dict):
            return None
        if not all(isinstance(f, dict) and isinstance(f.get("check"), str)
                   and isinstance(f.get("severity"), str) and isinstance(f.get("message"), str)
                   for f in data["findings"]):
            return None
        return cls(**{k: data[k] for k in (*strings, "findings", "stats")})

    def found(self) -> list[Finding]:
        return [Finding.from_json(f) for f in self.findings]


class Manifest:
    """The records of one run, over the memory (``memory.NoMemory`` records nothing)."""

    def __init__(self, memory, glossary: Glossary, run: str) -> None:
        self.memory = memory
        self.glossary = glossary
        self.run = run
        self.gid = glossary_id(glossary)
        self._entries = _entries(glossary)
        self._forms: dict[str, set[str] | None] = {}      # an old glossary id → changed forms
        self._stored = False

    @staticmethod
    def key(en_path: Path) -> str:
        return str(en_path.resolve())

    def unchanged(self, text: str, en_path: Path, par_path: Path) -> NoteState | None:
        """The state of a note nothing of which changed since zhen wrote it, else None."""
        state = NoteState.read(self.memory.get_state("notes", self.key(en_path)))
        if state is None or state.run != self.run or state.source != text_hash(text):
            return None
        for path, want in ((en_path, state.english), (par_path, state.parallel)):
            try:
                if text_hash(path.read_bytes().decode("utf-8")) != want:
                    return None
            except (OSError, UnicodeDecodeError):
                return None
        if state.glossary != self.gid:
            forms = self._changed_forms(state.glossary)
            if forms is None or any(form in text for form in forms):
                return None
        return state

    def _changed_forms(self, old_id: str) -> set[str] | None:
        """The Chinese forms of the entries that differ between the glossary ``old_id`` and
        this run's; None when that cannot be told (so every note is run)."""
        if old_id not in self._forms:
            old = self.memory.get_state("glossaries", old_id)
            forms: set[str] | None = None
            if isinstance(old, list) and old and old[-1] == self._entries[-1]:
                before = {json.dumps(e, ensure_ascii=False) for e in old[:-1]}
                after = {json.dumps(e, ensure_ascii=False) for e in self._entries[:-1]}
                forms = set()
                for entry in before ^ after:
                    zh, _en, variants, *_ = json.loads(entry)
                    forms |= {zh, *(variants or [])}
            self._forms[old_id] = forms
        return self._forms[old_id]

    def record(self, text: str, en_path: Path, english: str, parallel: str,
               findings: list[Finding], stats: dict) -> None:
        if any(f.check in RETRY for f in findings):
            self.memory.put_state("notes", self.key(en_path), {})    # not done: run it again
            return
        if not self._stored:
            self.memory.put_state("glossaries", self.gid, self._entries)
            self._stored = True
        state = NoteState(text_hash(text), text_hash(english), text_hash(parallel), self.gid,
                          self.run, [_jsonable(f.to_json()) for f in findings
                                     if f.check not in EVENTS], stats)
        self.memory.put_state("notes", self.key(en_path), asdict(state))


def _jsonable(data: dict) -> dict:
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))
