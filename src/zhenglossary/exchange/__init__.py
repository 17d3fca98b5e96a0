"""Exchange formats: zhen's pairs and glossary out to CAT tools, other glossaries in.

One module per format — ``tm.py`` (TMX, XLIFF), ``tbx.py``, ``table.py`` (TSV, CSV) — plus
``entries.py`` (what an imported entry is), ``merge.py`` (into glossary.yaml) and
``formats.py``, the format table every entry point below dispatches through. Reading the
glossary file and writing its entries belong to ``glossary.py``; collecting the pairs of
the parallel files to ``pairs.py``.

* ``export_tm(pairs, "tmx" | "xliff")`` — every translated block pair of the parallel files
  as a translation unit (zh source, en target), marked with its review status, with the note,
  block and lines as context, for OmegaT, memoQ, Trados, Okapi, Weblate, ...
* ``export_glossary(glossary, "tbx" | "tsv")`` — the glossary as TBX (one ``termEntry`` per
  term) or as the two-column TSV that DeepL's glossary API accepts.
* ``import_glossary(path)`` reads TBX, TSV and CSV (DeepL and Amazon Translate forms) into
  :class:`Candidate` entries; ``merge(glossary, candidates)`` sorts them into new, already
  identical and conflicting; ``apply_merge`` appends the new ones to ``glossary.yaml``.

Pure functions: nothing here prints. Bad input raises a :class:`~zhenglossary.errors.ZhenError`
(``GlossaryError`` for a glossary or import file, ``UsageError`` for an unsupported format)
whose message says what to do.

Why Translate Toolkit (``translate-toolkit``, module ``translate.storage``) and not
hand-written ``xml.etree``:

* It is the maintained reference implementation of these formats (it is what Pootle and
  Weblate use): ``tmx.tmxfile``, ``xliff.xlifffile`` and ``tbx.tbxfile`` know the element
  order each DTD requires (TMX ``note``/``prop`` before ``tuv``), ``xml:lang`` and language
  codes, XLIFF ``state``/``approved`` as one workflow state (``set_state_n``), XLIFF location
  context groups, and TBX term alternatives with their ``administrativeStatus``
  (``TBXTerm.deprecated``) and notes by scope.
* Reading files made by *other* tools is the hard half: TBX from termbases comes with
  ``ntig``/``termGrp``, inherited ``xml:space``, notes at three levels, statuses spelled
  several ways; Translate Toolkit reads all of that, and reads XML with a hardened lxml parser
  (no entity expansion, no network), so a hostile file costs nothing.
* Cost (measured on this machine, Python 3.11, a fresh venv): 3 wheels, 6.4 MB downloaded
  (translate-toolkit 0.9 MB, lxml 5.2 MB, unicode-segmentation-rs 0.3 MB), about 20 MB
  installed, about 2 s to install; importing the three storage modules takes about 35 ms,
  and zhen imports them only inside these functions, so other commands do not pay it.
  Licence: Translate Toolkit is GPL-3.0-or-later (lxml is BSD).

What it cannot do, and how it is done instead (on the lxml tree it builds, so the documents
stay Translate Toolkit documents):

* It writes XLIFF 1.1; zhen writes XLIFF 1.2 (what OmegaT/Okapi and the 1.2 ``state-qualifier``
  ``mt-suggestion`` need) by giving ``xlifffile.parsestring`` a 1.2 skeleton, which it keeps.
* Per-unit TMX attributes (``tuid``), the ``x-zhen-status`` prop, the TMX header's tool
  name, XLIFF's ``state-qualifier``, and TBX ``termNote``/``descrip`` elements (status,
  term type, subject field) have no API: they are set on the units' lxml elements.
* TBX v3 (ISO 30042:2019, root ``<tbx>``, ``conceptEntry/langSec/termSec``) is not read by
  Translate Toolkit's ``tbxfile``; a DCA-style v3 file is renamed element by element to the
  2008 (``martif``) form it reads.
* CSV/TSV use the standard library ``csv`` module (see table.py).

TSV (``export_glossary(g, "tsv")``) is DeepL's glossary form: ``source<TAB>target`` per line,
UTF-8, no header, no quoting, one line per Chinese form (``zh`` and each variant, all with the
entry's ``en``). A value with a tab, a line break or another control character, or longer
than DeepL's 1024 bytes, cannot be written and is refused. (Amazon Translate's custom
terminology wants a header line of language codes, ``zh<TAB>en``; add it by hand for Amazon —
``import_glossary`` reads both.)
"""

from __future__ import annotations

from ..parallel import collect_pairs
from .entries import Candidate, ImportedGlossary, require_toolkit
from .formats import (FORMATS, GLOSSARY_EXPORT_FORMATS, GLOSSARY_IMPORT_FORMATS, TM_FORMATS,
                      detect_format, export_glossary, export_tm, import_glossary, read_import)
from .merge import (NEW_GLOSSARY, Conflict, MergeReport, Skipped, append_terms, apply_merge,
                    load_for_merge, merge)
from .tm import STATUS_NOTES, XLIFF_STATES, exportable, exported_status

__all__ = ["FORMATS", "GLOSSARY_EXPORT_FORMATS", "GLOSSARY_IMPORT_FORMATS", "NEW_GLOSSARY",
           "STATUS_NOTES", "TM_FORMATS", "XLIFF_STATES", "Candidate", "Conflict",
           "ImportedGlossary", "MergeReport", "Skipped", "append_terms", "apply_merge",
           "collect_pairs", "detect_format", "export_glossary", "export_tm", "exportable",
           "exported_status", "import_glossary", "load_for_merge", "merge", "read_import",
           "require_toolkit"]
