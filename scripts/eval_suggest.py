"""Precision and recall of the parenthetical finder and of `zhen glossary suggest`.

    python scripts/eval_suggest.py                 # the development sets (parentheticals.yaml …
                                                   # unseen10.yaml, unseen9.yaml, unseen11.yaml,
                                                   # unseen12.yaml … unseen20.yaml, unseen23.yaml,
                                                   # unseen25.yaml, unseen30.yaml, unseen31.yaml)
    python scripts/eval_suggest.py --notes         # also the shipped notes against glossary.yaml
    python scripts/eval_suggest.py --errors        # list every miss and wrong boundary
    python scripts/eval_suggest.py --half A        # only the passages of half A (or B) of each set
    python scripts/eval_suggest.py --unseen        # only the held-out sets (not among the
                                                   # development sets): unseen21.yaml, a
                                                   # textbook on systems for AI (round eighteen),
                                                   # unseen22.yaml, an HPC/ML group's wiki
                                                   # (round nineteen), unseen24.yaml, a blog on
                                                   # databases and security (round twenty), and
                                                   # unseen26.yaml and unseen27.yaml, a survey
                                                   # paper and a project's docs (round 21),
                                                   # unseen28.yaml and unseen29.yaml, lecture
                                                   # slides on parallel programming and an SRE
                                                   # team's postmortems (round 22), unseen32.yaml,
                                                   # unseen33.yaml and unseen34.yaml, an OS
                                                   # textbook, an engineer's blog and an SDK's
                                                   # docs (round 24)
    python scripts/eval_suggest.py FILE.yaml ...   # only the gold sets named

Halves (round twelve): every passage of every set belongs to half A or half B by the
SHA-256 of its text (even first byte: A, odd: B), so the split is the same on every
machine and for every set, old or new. Rules are developed on A's error listings; B is
looked at only as aggregate numbers, to tell a rule that generalises from one fitted to
A's words.

Gold set: hand-written passages, each parenthetical labelled with its exact Chinese term
and English (or marked as not a term). The *finder* is scored per sighting: a sighting is
right when its Chinese is exactly the labelled term and its English (or abbreviation)
matches; precision = right / found, recall = right / labelled. A found sighting whose
English matches a label but whose Chinese does not is a *boundary error*; one that
matches no label is a *non-term*. *Suggest* is scored per distinct pair: its
parenthetical candidates against the distinct labelled pairs.

Shipped notes: the labels are the glossary — a parenthetical whose Chinese run ends with
a glossary form is labelled with that form and the entry's English. Sightings whose run
ends with no glossary form are not labelled and not scored.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "gold" / "parentheticals.yaml"
HELDOUT = ROOT / "tests" / "gold" / "heldout.yaml"     # issue 22: held out, other shapes
FINAL = ROOT / "tests" / "gold" / "final.yaml"         # issue 22: a development set since round 3
UNSEEN = ROOT / "tests" / "gold" / "unseen.yaml"       # issue 22 round 3: held out then, dev since
PROBE = ROOT / "tests" / "gold" / "probe.yaml"         # issue 22 round 3: a development set
UNSEEN2 = ROOT / "tests" / "gold" / "unseen2.yaml"     # issue 22 round 4: a development set
UNSEEN3 = ROOT / "tests" / "gold" / "unseen3.yaml"     # issue 22 round 4: held out, dev since
UNSEEN4 = ROOT / "tests" / "gold" / "unseen4.yaml"     # issue 22 round 5: held out, dev since
UNSEEN5 = ROOT / "tests" / "gold" / "unseen5.yaml"     # issue 22 round 6: held out, dev since
UNSEEN6 = ROOT / "tests" / "gold" / "unseen6.yaml"     # issue 22 round 7: held out, dev since
UNSEEN7 = ROOT / "tests" / "gold" / "unseen7.yaml"     # issue 22 round 8: held out, dev since
UNSEEN8 = ROOT / "tests" / "gold" / "unseen8.yaml"     # issue 22 round 9: held out to its end, dev since
UNSEEN9 = ROOT / "tests" / "gold" / "unseen9.yaml"     # issue 22 round 10: held out to its end, dev since
UNSEEN11 = ROOT / "tests" / "gold" / "unseen11.yaml"   # issue 22 round 11: held out to its end, dev since
UNSEEN12 = ROOT / "tests" / "gold" / "unseen12.yaml"   # issue 22 round 12: held out to its end, dev since
UNSEEN13 = ROOT / "tests" / "gold" / "unseen13.yaml"   # issue 22 round 13: held out to its end, dev since
UNSEEN14 = ROOT / "tests" / "gold" / "unseen14.yaml"   # issue 22 round 14: held out, dev since
UNSEEN15 = ROOT / "tests" / "gold" / "unseen15.yaml"   # issue 22 round 15: held out, dev since
UNSEEN16 = ROOT / "tests" / "gold" / "unseen16.yaml"   # issue 22 round 15: held out (a textbook), dev since
UNSEEN17 = ROOT / "tests" / "gold" / "unseen17.yaml"   # issue 22 round 15: held out, dev since
UNSEEN18 = ROOT / "tests" / "gold" / "unseen18.yaml"   # issue 22 round 16: held out (a textbook), dev since
UNSEEN19 = ROOT / "tests" / "gold" / "unseen19.yaml"   # issue 22 round 17: held out (lecture notes), dev since
UNSEEN20 = ROOT / "tests" / "gold" / "unseen20.yaml"   # issue 22 round 17: held out (paper notes), dev since
UNSEEN21 = ROOT / "tests" / "gold" / "unseen21.yaml"   # issue 22 round 18: held out (a textbook)
UNSEEN22 = ROOT / "tests" / "gold" / "unseen22.yaml"   # issue 22 round 19: held out (a group's wiki)
UNSEEN23 = ROOT / "tests" / "gold" / "unseen23.yaml"   # issue 22 round 20: held out (a textbook), dev since
UNSEEN24 = ROOT / "tests" / "gold" / "unseen24.yaml"   # issue 22 round 20: held out (a blog)
UNSEEN25 = ROOT / "tests" / "gold" / "unseen25.yaml"   # issue 22 round 20: held out (lectures), dev since
UNSEEN26 = ROOT / "tests" / "gold" / "unseen26.yaml"   # issue 22 round 21: held out (a survey paper)
UNSEEN27 = ROOT / "tests" / "gold" / "unseen27.yaml"   # issue 22 round 21: held out (project docs)
UNSEEN30 = ROOT / "tests" / "gold" / "unseen30.yaml"   # issue 22 round 22: a development set (project docs)
UNSEEN31 = ROOT / "tests" / "gold" / "unseen31.yaml"   # issue 22 round 22: a development set (a survey)
UNSEEN28 = ROOT / "tests" / "gold" / "unseen28.yaml"   # issue 22 round 22: held out (lecture slides)
UNSEEN29 = ROOT / "tests" / "gold" / "unseen29.yaml"   # issue 22 round 22: held out (postmortems)
UNSEEN32 = ROOT / "tests" / "gold" / "unseen32.yaml"   # issue 22 round 24: held out (an OS textbook)
UNSEEN33 = ROOT / "tests" / "gold" / "unseen33.yaml"   # issue 22 round 24: held out (a blog)
UNSEEN34 = ROOT / "tests" / "gold" / "unseen34.yaml"   # issue 22 round 24: held out (SDK docs)
UNSEEN35 = ROOT / "tests" / "gold" / "unseen35.yaml"   # issue 22 round 25: a development set (message-queue docs)
UNSEEN36 = ROOT / "tests" / "gold" / "unseen36.yaml"   # issue 22 round 25: a development set (an LLM-systems survey)
UNSEEN37 = ROOT / "tests" / "gold" / "unseen37.yaml"   # issue 22 round 25: a development set (a networks textbook)
UNSEEN10 = ROOT / "tests" / "gold" / "unseen10.yaml"   # issue 22 round 10: a development set


def _label(english: str, abbr: str) -> tuple[str, str]:
    """(English, normalised abbreviation) of a labelled or found pair."""
    from zhenglossary.textutil import normalize_abbreviation

    return english, normalize_abbreviation(abbr).lower() if abbr else ""


def _agree(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Do two pairs name the same term: the same abbreviation, or English compared as the
    project compares it (english.term_key, so *anchor boxes* is *anchor box*, and
    english.same_term, each word by its lemmas: the finder's head singular *metallic
    glass* is the writer's *metallic glasses*, which term_key keeps whole)."""
    from zhenglossary.english import same_term, term_key

    if a[1] and a[1] == b[1]:
        return True
    # one bracket token, one word, that one side reads as an abbreviation and the other as
    # English (the writer's abbreviation *rkey*, *ssthresh*; the writer's English
    # *SmartNIC*): the same pair, which suggest renders the same
    for x, y in ((a, b), (b, a)):
        if x[0] and not x[1] and y[1] and not y[0] and " " not in x[0].strip() \
                and _label("", x[0].strip())[1] == y[1]:
            return True
    return bool(a[0] and b[0]) and (term_key(a[0]) == term_key(b[0]) or same_term(a[0], b[0]))


def _related(a: str, b: str) -> bool:
    """Two renderings share an English word or the abbreviation."""
    from zhenglossary.english import normalize_english
    from zhenglossary.textutil import normalize_abbreviation, split_abbreviation

    (ea, aa), (eb, ab) = split_abbreviation(a), split_abbreviation(b)
    if aa is None and a.isupper():
        ea, aa = "", a
    if aa and ab and normalize_abbreviation(aa) == normalize_abbreviation(ab):
        return True
    return bool(set(normalize_english(ea).split()) & set(normalize_english(eb).split()))


def _ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def half_of(text: str) -> str:
    """The half, "A" or "B", a passage belongs to: by the SHA-256 of its text."""
    import hashlib

    return "AB"[hashlib.sha256(text.encode("utf-8")).digest()[0] & 1]


def evaluate_gold(path: Path = GOLD, half: str | None = None, with_suggest: bool = True) -> dict:
    from zhenglossary.bilingual import find_parentheticals
    from zhenglossary.checks import NoteText
    from zhenglossary.glossary import Glossary
    from zhenglossary.prose import prose_view
    from zhenglossary.suggest import suggest
    from zhenglossary.textutil import is_abbreviation, split_abbreviation

    items = yaml.safe_load(path.read_text("utf-8"))["items"]
    if half:
        items = [item for item in items if half_of(item["text"]) == half]
    labelled = right = found = boundary = nonterm = 0
    errors: list[str] = []
    for item in items:
        gold = [(g["zh"], _label(g.get("en", ""), g.get("abbr", ""))) for g in item["terms"]]
        labelled += len(gold)
        pars = find_parentheticals(prose_view(item["text"]), source=item["text"])
        found += len(pars)
        hit = set()
        for par in pars:
            label = _label(par.english, par.abbr)
            match = [i for i, (zh, k) in enumerate(gold) if _agree(k, label)]
            if any(gold[i][0] == par.zh for i in match):
                right += 1
                hit.update(i for i in match if gold[i][0] == par.zh)
            elif match:
                boundary += 1
                errors.append(f"boundary: {par.zh} ({par.rendering()}) but gold "
                              f"{gold[match[0]][0]} in {item['text']}")
            else:
                nonterm += 1
                errors.append(f"non-term: {par.zh} ({par.rendering()}) in {item['text']}")
        for i, (zh, _) in enumerate(gold):
            if i not in hit:
                errors.append(f"missed: {zh} in {item['text']}")

    finder = {"labelled": labelled, "found": found, "right": right,
              "boundary_errors": boundary, "non_terms": nonterm,
              "precision": _ratio(right, found), "recall": _ratio(right, labelled)}
    if not with_suggest:
        return {"finder": finder, "errors": errors}
    # suggest over the passages grouped into their notes
    texts: dict[str, list[str]] = defaultdict(list)
    for item in items:
        texts[item["file"]].append(item["text"])
    notes = [NoteText(Path(name), name, "\n\n".join(parts) + "\n",
                      prose_view("\n\n".join(parts) + "\n")) for name, parts in texts.items()]
    pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for item in items:
        for g in item["terms"]:
            pairs[g["zh"]].append(_label(g.get("en", ""), g.get("abbr", "")))
    suggestions = [s for s in suggest(Glossary([]), notes) if s.source == "parenthetical"]
    good = 0
    covered = set()
    for s in suggestions:
        english, abbr = split_abbreviation(s.en)
        if abbr is None and " " not in s.en and (s.en.isupper() or is_abbreviation(s.en)):
            english, abbr = "", s.en      # an abbreviation alone: IRC, and FinFET too
        label = _label(english, abbr or "")
        if any(_agree(k, label) for k in pairs.get(s.zh, ())):
            good += 1
            covered.add(s.zh)
        else:
            errors.append(f"suggest: {s.zh} → {s.en!r} is not a gold pair")
    return {
        "finder": finder,
        "suggest": {"pairs": len(pairs), "suggested": len(suggestions), "right": good,
                    "precision": _ratio(good, len(suggestions)),
                    "recall": _ratio(len(covered), len(pairs))},
        "errors": errors,
    }


def evaluate_notes(root: Path = ROOT) -> dict:
    """The shipped notes, labelled by glossary.yaml (see the module docstring)."""
    from zhenglossary.api import load_notes
    from zhenglossary.bilingual import find_parentheticals
    from zhenglossary.checks.notes import agrees
    from zhenglossary.glossary import Glossary, load_glossary
    from zhenglossary.suggest import suggest

    glossary = load_glossary(root / "glossary.yaml")
    forms = glossary.form_map
    notes, _ = load_notes([root / "notes"])
    labelled = right = found = 0
    gold_pairs: dict[str, object] = {}
    errors = []
    for note in notes:
        # the finder without the glossary's help (no user words): as for a new user
        for par in find_parentheticals(note.prose):
            found += 1
            run_end = par.run
            term = next(((run_end[k:], forms[run_end[k:]]) for k in range(len(run_end))
                         if run_end[k:] in forms), None)
            if term is None:
                continue
            labelled += 1
            form, entry = term
            gold_pairs[form] = entry
            if par.zh == form and agrees(par, entry):
                right += 1
            else:
                errors.append(f"notes: {par.zh} ({par.rendering()}) but glossary {form} "
                              f"({entry.en}) at {note.display}")
    labelled_found = labelled
    suggestions = [s for s in suggest(Glossary([]), notes) if s.source == "parenthetical"]
    by_zh = {s.zh: s for s in suggestions}
    hit = sum(1 for form in gold_pairs if form in by_zh)
    # a suggestion is right when its Chinese is a glossary form, a boundary error when it
    # overlaps one (is inside it or holds it) and shares an English word with its entry,
    # else it is not labelled

    good = cut = 0
    for s in suggestions:
        if s.zh in forms:
            good += 1
        elif any((s.zh in form or form in s.zh) and _related(s.en, entry.en)
                 for form, entry in gold_pairs.items()):
            cut += 1
            errors.append(f"notes suggest: {s.zh} → {s.en!r} cuts a glossary term")
    return {"sightings_on_glossary_terms": labelled_found, "right": right,
            "boundary_precision": _ratio(right, labelled_found),
            "found": found, "suggested": len(suggestions),
            "glossary_pairs": len(gold_pairs), "suggested_exact": hit,
            "suggest_recall": _ratio(hit, len(gold_pairs)),
            "suggest_right": good, "suggest_boundary_errors": cut,
            "suggest_precision": _ratio(good, good + cut), "errors": errors}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", action="store_true", help="also score the shipped notes")
    parser.add_argument("--errors", action="store_true", help="list misses and wrong boundaries")
    parser.add_argument("--unseen", action="store_true",
                        help="score only the held-out sets, tests/gold/unseen21.yaml (a "
                             "textbook on systems for AI), unseen22.yaml (an HPC/ML group's "
                             "wiki), unseen24.yaml (a blog on databases and security), "
                             "unseen26.yaml (a survey paper on LLM inference), unseen27.yaml "
                             "(a systems project's documentation), unseen28.yaml (lecture "
                             "slides on parallel programming), unseen29.yaml (an SRE team's "
                             "postmortems and runbooks), unseen32.yaml (a textbook on operating "
                             "systems), unseen33.yaml (an engineer's blog) and unseen34.yaml "
                             "(an edge-AI SDK's documentation), not among the development sets")
    parser.add_argument("--half", choices=("A", "B"),
                        help="score only the passages of this half of each set (by a hash of "
                             "the passage's text)")
    parser.add_argument("sets", nargs="*", type=Path, help="gold set files to score instead")
    args = parser.parse_args(argv)
    import zhenglossary

    # the tree scored is this script's own (its src/ comes first on sys.path, before
    # PYTHONPATH): to score another commit, run that commit's copy of the script
    print(f"(scoring the finder of {Path(zhenglossary.__file__).parent})")
    if args.sets:
        sets = [(str(path), path) for path in args.sets]
    elif args.unseen:
        sets = [("held-out set (unseen21, a textbook on systems for AI)", UNSEEN21),
                ("held-out set (unseen22, an HPC/ML group's wiki)", UNSEEN22),
                ("held-out set (unseen24, a blog on databases and security)", UNSEEN24),
                ("held-out set (unseen26, a survey paper on LLM inference)", UNSEEN26),
                ("held-out set (unseen27, a systems project's documentation)", UNSEEN27),
                ("held-out set (unseen28, lecture slides on parallel programming)", UNSEEN28),
                ("held-out set (unseen29, an SRE team's postmortems and runbooks)", UNSEEN29),
                ("held-out set (unseen32, a textbook on operating systems)", UNSEEN32),
                ("held-out set (unseen33, an engineer's blog on observability, storage, "
                 "the web and cryptography)", UNSEEN33),
                ("held-out set (unseen34, an edge-AI SDK's documentation)", UNSEEN34)]
    else:
        sets = [("gold set", GOLD), ("heldout set", HELDOUT), ("final set", FINAL),
                ("probe set", PROBE), ("unseen set", UNSEEN), ("unseen2 set", UNSEEN2),
                ("unseen3 set", UNSEEN3), ("unseen4 set", UNSEEN4), ("unseen5 set", UNSEEN5),
                ("unseen6 set", UNSEEN6), ("unseen7 set", UNSEEN7), ("unseen8 set", UNSEEN8),
                ("unseen10 set", UNSEEN10), ("unseen9 set", UNSEEN9),
                ("unseen11 set", UNSEEN11), ("unseen12 set", UNSEEN12),
                ("unseen13 set", UNSEEN13), ("unseen14 set", UNSEEN14),
                ("unseen15 set", UNSEEN15), ("unseen16 set", UNSEEN16),
                ("unseen17 set", UNSEEN17), ("unseen18 set", UNSEEN18),
                ("unseen19 set", UNSEEN19), ("unseen20 set", UNSEEN20),
                ("unseen23 set", UNSEEN23), ("unseen25 set", UNSEEN25),
                ("unseen30 set", UNSEEN30), ("unseen31 set", UNSEEN31),
                ("unseen35 set", UNSEEN35), ("unseen36 set", UNSEEN36),
                ("unseen37 set", UNSEEN37)]
    total: dict[str, int] = defaultdict(int)
    for name, path in sets:
        result = evaluate_gold(path, args.half)
        f, s = result["finder"], result["suggest"]
        for key in ("labelled", "found", "right", "boundary_errors", "non_terms"):
            total[key] += f[key]
        if args.half:
            name = f"{name}, half {args.half}"
        print(f"{name}: {f['labelled']} labelled sightings, {f['found']} found")
        print(f"  finder:  precision {f['precision']:.1%}  recall {f['recall']:.1%}  "
              f"({f['right']} right, {f['boundary_errors']} boundary errors "
              f"({_ratio(f['boundary_errors'], f['found']):.1%} of found), "
              f"{f['non_terms']} non-terms)")
        print(f"  suggest: precision {s['precision']:.1%}  recall {s['recall']:.1%}  "
              f"({s['right']} of {s['suggested']} suggestions right; {s['pairs']} gold pairs)")
        if args.errors:
            for line in result["errors"]:
                print("  " + line)
    if len(sets) > 1:
        print(f"all {len(sets)} sets{', half ' + args.half if args.half else ''}: "
              f"{total['labelled']} labelled, {total['found']} found; finder precision "
              f"{_ratio(total['right'], total['found']):.1%}  recall "
              f"{_ratio(total['right'], total['labelled']):.1%}  ({total['right']} right, "
              f"{total['boundary_errors']} boundary errors "
              f"({_ratio(total['boundary_errors'], total['found']):.1%} of found), "
              f"{total['non_terms']} non-terms)")
    if args.notes:
        n = evaluate_notes()
        print(f"shipped notes: {n['found']} parentheticals found, "
              f"{n['sightings_on_glossary_terms']} end in a glossary term")
        print(f"  finder:  boundary and English right on {n['boundary_precision']:.1%} "
              f"({n['right']} of {n['sightings_on_glossary_terms']})")
        print(f"  suggest (empty glossary): {n['suggested_exact']} of {n['glossary_pairs']} "
              f"glossary pairs suggested with the exact Chinese ({n['suggest_recall']:.1%}); "
              f"{n['suggested']} parenthetical suggestions in all")
        print(f"  suggest precision on labelled suggestions: {n['suggest_precision']:.1%} "
              f"({n['suggest_right']} right, {n['suggest_boundary_errors']} boundary errors)")
        if args.errors:
            for line in n["errors"]:
                print("  " + line)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main())
