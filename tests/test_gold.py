"""The hand-labelled gold set (tests/gold/parentheticals.yaml): the finder's boundary
precision and recall, and suggest's, must stay above the targets of issue 11."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("eval_suggest", ROOT / "scripts" / "eval_suggest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gold_set_is_large_and_varied():
    items = yaml.safe_load((ROOT / "tests" / "gold" / "parentheticals.yaml").read_text("utf-8"))["items"]
    sightings = [t for item in items for t in item["terms"]]
    assert len(sightings) >= 80
    assert sum(item.get("nonterm", 0) for item in items) >= 20
    assert len({item["file"] for item in items}) >= 6
    for item in items:
        for term in item["terms"]:
            assert term["zh"] in item["text"], term


def test_finder_and_suggest_meet_the_targets():
    result = _script().evaluate_gold()
    finder, suggest = result["finder"], result["suggest"]
    assert finder["precision"] >= 0.95, result["errors"]
    assert finder["recall"] >= 0.90, result["errors"]
    assert finder["non_terms"] == 0, result["errors"]
    assert suggest["precision"] >= 0.90 and suggest["recall"] >= 0.85, result["errors"]


def test_held_out_set_meets_issue_22s_targets():
    """tests/gold/heldout.yaml: 118 sightings in shapes and fields the first set lacks,
    written before the round-two rules (which were then developed against it: see the
    README for what that means for the numbers)."""
    gold = ROOT / "tests" / "gold"
    items = [i for name in ("parentheticals.yaml", "heldout.yaml")
             for i in yaml.safe_load((gold / name).read_text("utf-8"))["items"]]
    assert sum(len(i["terms"]) for i in items) >= 200
    result = _script().evaluate_gold(gold / "heldout.yaml")
    finder, suggest = result["finder"], result["suggest"]
    assert finder["recall"] >= 0.90 and finder["precision"] >= 0.95, result["errors"]
    assert finder["boundary_errors"] <= 0.05 * finder["found"], result["errors"]
    assert finder["non_terms"] == 0, result["errors"]
    assert suggest["recall"] >= 0.90, result["errors"]


def test_round_three_development_sets_meet_the_targets():
    """tests/gold/final.yaml (written after round two, scored once, then developed against
    in round three) and tests/gold/probe.yaml (written during round three) keep issue 22's
    targets (unseen.yaml, a development set since round three's end, is asserted with the
    round-four sets below)."""
    gold = ROOT / "tests" / "gold"
    for name in ("final.yaml", "probe.yaml"):
        result = _script().evaluate_gold(gold / name)
        finder = result["finder"]
        assert finder["recall"] >= 0.90 and finder["precision"] >= 0.95, (name, result["errors"])
        assert finder["boundary_errors"] <= 0.05 * finder["found"], (name, result["errors"])
        assert finder["non_terms"] <= 1, (name, result["errors"])


def test_round_four_development_sets_keep_the_level_reached():
    """tests/gold/unseen2.yaml (193 sightings in four batches, each written in round four
    before the rules that were then developed against it) and tests/gold/unseen.yaml
    (held out in round three, developed against in round four) stay at the level the
    round-seven rules reached (README: round seven): unseen2 P 96.4% R 95.9% with 6
    boundary errors of 192 found, unseen P 97.4% R 95.0% with 2 of 78; round eight: unseen2
    P 96.4% R 96.4% with 6 of 193, unseen P 97.5% R 97.5% with 2 of 80; round ten: unseen
    P 98.8% R 98.8% with 1 of 80 (内禀反应坐标 *IRC* gained), unseen2 unchanged."""
    gold = ROOT / "tests" / "gold"
    for name, precision, recall, boundary, non_terms in (("unseen2.yaml", 0.96, 0.96, 6, 1),
                                                         ("unseen.yaml", 0.98, 0.98, 1, 0)):
        result = _script().evaluate_gold(gold / name)
        finder, suggest = result["finder"], result["suggest"]
        assert finder["precision"] >= precision and finder["recall"] >= recall, (name, result["errors"])
        assert finder["boundary_errors"] <= boundary, (name, result["errors"])
        assert finder["non_terms"] <= non_terms, (name, result["errors"])
        assert suggest["recall"] >= recall - 0.01, (name, result["errors"])


# The sets still held out: a failing guard on them reports its numbers, never its errors,
# so that reading a failure does not turn a held-out set into a development set
HELD_OUT = frozenset({"unseen21", "unseen22", "unseen24", "unseen26", "unseen27", "unseen28",
                      "unseen29", "unseen32", "unseen33", "unseen34"})


def _holds(name: str, precision: float, recall: float, boundary: int,
           non_terms: int = 0) -> dict:
    """A gold set does not fall below a level: finder and suggest precision and recall, at
    most ``boundary`` boundary errors and ``non_terms`` non-terms; the finder's result."""
    result = _script().evaluate_gold(ROOT / "tests" / "gold" / f"{name}.yaml")
    finder, suggest = result["finder"], result["suggest"]
    shown = f"held-out set {name}: {finder}, {suggest} (errors not listed)" \
        if name in HELD_OUT else result["errors"]
    assert finder["precision"] >= precision and finder["recall"] >= recall, shown
    assert finder["boundary_errors"] <= boundary and finder["non_terms"] <= non_terms, shown
    assert suggest["precision"] >= precision and suggest["recall"] >= recall, shown
    return {**finder, "errors": shown}


def _meets_targets(name: str, precision: float, recall: float, boundary: int,
                   non_terms: int = 0) -> None:
    """A gold set holds its level (:func:`_holds`) and meets issue 22's targets: finder
    recall at least 90% with at most 5% boundary errors."""
    finder = _holds(name, precision - 1e-9, recall - 1e-9, boundary, non_terms)
    assert finder["recall"] >= 0.90 and finder["boundary_errors"] <= 0.05 * finder["found"], \
        finder["errors"]


def _keeps_level(name: str, precision: float, recall: float, boundary: int) -> None:
    """A development set keeps issue 22's targets (at most 5% boundary errors, no
    non-terms) and the level it reached: finder and suggest precision and recall, and at
    most ``boundary`` boundary errors."""
    finder = _holds(name, precision, recall, boundary)
    assert finder["boundary_errors"] <= 0.05 * finder["found"], finder["errors"]


def test_round_four_held_out_set_meets_the_targets_as_a_development_set():
    """tests/gold/unseen3.yaml (84 sightings in astronomy, neuroscience, drug discovery,
    hydrology, particle physics, fabs and control theory) was held out for all of round
    four (P 93.8%, R 90.5%, 5 boundary errors of 81 found at its end) and developed
    against in rounds five to eight, which reached P 98.8%, R 97.6%, 1 boundary error of
    83: it keeps issue 22's targets and that level."""
    _keeps_level("unseen3", 0.98, 0.97, 1)


def test_round_five_held_out_set_meets_the_targets_as_a_development_set():
    """tests/gold/unseen4.yaml (104 sightings, 10 non-terms, in seismology, epidemiology,
    oceanography, power grids, phonology, econometrics and fermentation) was held out
    until the end of round five (P 89.8%, R 84.6%, 10 boundary errors of 98 found) and
    developed against in rounds six and seven, which reached P 97.1%, R 97.1%, 3 of 104,
    and round ten P 98.1%, R 98.1%, 2 of 104 (同步相量测量单元 *PMUs* gained): it keeps
    issue 22's targets and that level."""
    _keeps_level("unseen4", 0.98, 0.98, 2)


def test_round_six_held_out_set_meets_the_targets_as_a_development_set():
    """tests/gold/unseen5.yaml (137 sightings, 12 non-terms, in tribology, entomology,
    ophthalmology, crystallography, demography, additive manufacturing and cardiology)
    was held out until the end of round six (P 90.6%, R 84.7%, 12 boundary errors of 128
    found) and developed against in rounds seven and eight, which reached P 96.3%, R 95.6%
    (suggest R 94.9%), 5 of 136, and round ten P 97.8%, R 97.1% (suggest R 96.4%), 3 of
    136 (尖端扭转型室速, 心脏再同步治疗 gained): it keeps issue 22's targets and that level."""
    _keeps_level("unseen5", 0.97, 0.96, 3)


def test_round_seven_held_out_set_keeps_the_level_reached_as_a_development_set():
    """tests/gold/unseen6.yaml (159 sightings, 11 non-terms, in dermatology, ornithology,
    mycology, volcanology, combustion, plasma physics and anesthesiology) was held out
    until the end of round seven (P 88.7%, R 84.3%, 17 boundary errors of 151 found) and
    developed against in rounds eight and nine, which reached P 94.9%, R 93.7%, 8 boundary
    errors of 157 found (5.1%: issue 22's boundary target not met), and round ten, which
    reached P 96.8%, R 95.6%, 5 of 157 (3.2%), and round twelve, which reached P 97.5%,
    R 96.2%, 4 of 157 (2.5%; 低温等离子体 right): it keeps issue 22's targets and that level."""
    _keeps_level("unseen6", 153 / 157 - 1e-9, 153 / 159 - 1e-9, 4)


def test_round_eight_held_out_set_keeps_the_level_reached_as_a_development_set():
    """tests/gold/unseen7.yaml (218 sightings, 16 non-terms, in rheology, endocrinology,
    limnology, metallurgy, toxicology, geodesy and virology) was held out until the end
    of round eight (P 92.7%, R 87.6%, 12 boundary errors of 206 found, 3 non-terms) and
    developed against in round nine, which reached P 94.8%, R 92.7%, 10 boundary errors
    of 213 found (4.7%), 1 non-term, and round ten, which reached P 95.8%, R 94.5%, 8 of
    215 (3.7%), 1 non-term: it keeps that level (the one non-term is a scorer's artefact:
    *transaminases* and the finder's *transaminase* get different lemmas)."""
    _holds("unseen7", 206 / 215 - 1e-9, 206 / 218 - 1e-9, 8, 1)


def test_round_nine_held_out_set_does_not_fall_below_its_final_score():
    """tests/gold/unseen8.yaml (241 sightings, 16 non-terms, in hematology, speleology,
    apiculture, cartography, pharmacokinetics, glass science and coastal engineering) was
    held out until the end of round nine: written before any round-nine rule, scored at
    the start (P 93.0%, R 87.6%, 11 boundary errors of 227 found, 5 non-terms) and once at
    the end (P 93.0%, R 88.4%, 11 of 229 found, 5 non-terms; see README, which also says
    how its misses were once listed by mistake during the round). Round ten developed
    against it and reached P 95.7%, R 92.1%, 6 boundary errors of 232 found (2.6%),
    4 non-terms (scorer's artefacts: plurals such as *metallic glasses* whose lemma
    lemminflect gives as the plural itself): it keeps that level. (Round seventeen's rule
    for a widespread noun glossed by a common English noun, bilingual._common_noun_gloss,
    reads 大厅（chambers） as a sighting, which the set counts a non-term: finder 224 right
    of 235 found, suggest 223 of 234, 5 non-terms.)"""
    _holds("unseen8", 223 / 235 - 1e-9, 222 / 241 - 1e-9, 6, 5)


def test_round_ten_development_set_keeps_the_level_reached():
    """tests/gold/unseen10.yaml (202 sightings, 12 non-terms, in pulmonology, photonics,
    soil science, brewing, avionics, sports biomechanics and archival science) was
    written at round ten's start, before any round-ten rule, and scored once with the
    round-nine rules (P 93.0%, R 85.6%, 13 boundary errors of 186 found = 7.0%); the
    round was then developed against it, and reached P 99.5%, R 95.5% (suggest P 99.5%,
    R 93.1%), 1 boundary error of 194 found: it keeps issue 22's targets and that level
    (a development set's level, not a held-out number)."""
    _keeps_level("unseen10", 0.99, 0.93, 1)


def test_round_ten_held_out_set_keeps_round_elevens_level_as_a_development_set():
    """tests/gold/unseen9.yaml (256 sightings, 30 non-terms, in ichthyology, nephrology,
    room acoustics, dyeing chemistry, viticulture and enology, railway signalling and
    numismatics) was written for round ten by someone who ran no part of zhen on it, and
    held out from the one who wrote the round's rules: never seen, listed or scored during
    the round. Scored at the start with the round-nine rules (P 92.2%, R 83.6%, 17 boundary
    errors of 232 found, 1 non-term) and once at round ten's end (P 92.3%, R 84.8%, 17 of
    235 found, 1 non-term; suggest P 92.3%, R 84.7%). Since round eleven it is a
    development set (its misses were read and rules written against them), held to round
    eleven's level: P 94.1%, R 87.5%, 13 boundary errors of 238 found (5.5%: issue 22's
    boundary target is still missed, so it is not asserted), 1 non-term; suggest P 94.0%,
    R 86.3%. Raised from round ten's guard because the rules now do better on it, not as a
    held-out number: see README, round eleven."""
    # (suggest's pairs, 220 of 234 right and of 255, are the lower bounds)
    _holds("unseen9", 220 / 234 - 1e-9, 220 / 255 - 1e-9, 13, 1)


@pytest.mark.slow          # an older set's guard: .ci/run runs it
def test_round_eleven_held_out_set_keeps_round_thirteens_level_as_a_development_set():
    """tests/gold/unseen11.yaml (366 sightings, 41 non-terms, in orthopedics, herpetology,
    tunnel engineering, perfumery, musicology, paper making and meteoritics, each note in
    another writer's style) was written for round eleven by someone who ran no part of zhen
    on it, and held out from the one who wrote the round's rules. Scored at the start with
    the round-ten rules (P 85.1%, R 78.1%, 46 boundary errors of 336 found, 4 non-terms)
    and once at the end (P 85.4%, R 78.4%, 45 of 336, 4 non-terms; suggest P 85.9%,
    R 78.4%). Since round twelve it is a development set (half A's misses read), held to
    round thirteen's level: P 87.0%, R 80.6%, 40 boundary errors of 339 found (11.8%:
    issue 22's targets are far from met on it, so they are not asserted), 4 non-terms;
    suggest P 87.2%, R 80.5%. (Round twelve's P 87.2% fell by one sighting: a formula as
    the third piece is now read, *fayalite, Fa, Fe₂SiO₄*, and its boundary is wrong:
    橄榄石中铁橄榄石, jieba cuts 中铁.) Not a held-out number: see README, round thirteen."""
    # (the finder's precision, 295 of 339, and suggest's recall, 294 of 365, the lower)
    _holds("unseen11", 295 / 339 - 1e-9, 294 / 365 - 1e-9, 40, 4)


@pytest.mark.slow          # an older set's guard: .ci/run runs it
def test_round_twelve_held_out_set_keeps_round_thirteens_level_as_a_development_set():
    """tests/gold/unseen12.yaml (371 sightings, 42 non-terms, in otolaryngology, horology,
    bryology, leather tanning, obstetrics, weiqi and malacology, each note in another
    writer's style) was written for round twelve by someone who ran no part of zhen on it,
    and held out from the one who wrote the round's rules. Scored once at the start with
    the round-eleven rules (P 88.1%, R 76.0%, 34 boundary errors of 320 found, 4
    non-terms) and once at the end (P 88.8%, R 76.5%, 32 of 320, 4 non-terms; suggest
    P 88.5%, R 74.8%): the honest number, far from issue 22's targets (R ≥ 90%, ≤ 5%
    boundary errors). Since round thirteen it is a development set (half A's misses
    read), held to round thirteen's level: P 89.2%, R 78.2%, 32 boundary errors of 325
    found, 3 non-terms; suggest P 89.0%, R 76.4%. Not a held-out number."""
    # (suggest's pairs, 282 of 317 right and of 371, are the lower bounds)
    _holds("unseen12", 282 / 317 - 1e-9, 282 / 371 - 1e-9, 32, 3)


@pytest.mark.slow          # an older set's guard: .ci/run runs it
def test_round_thirteen_held_out_set_keeps_its_level():
    """tests/gold/unseen13.yaml (398 sightings, 43 non-terms, in cheese making,
    orthodontics, seismology, hand-loom weaving, equine medicine, letterpress printing and
    glaciology, each note in another writer's style) was written for round thirteen by
    someone who read and ran no part of zhen, and held out from the one who wrote the
    round's rules: never listed. Scored once with the round-twelve rules (P 89.0%, R 74.9%,
    33 boundary errors of 335 found, 4 non-terms; suggest P 89.2%, R 75.1%) and once at
    the round's end (P 88.8%, R 75.4%, 34 of 338, 4 non-terms; suggest P 89.0%, R 75.6%):
    the honest number, far from issue 22's targets (R ≥ 90%, ≤ 5% boundary errors), which
    are therefore not asserted. This guards the level reached."""
    # (the finder's precision, 300 of 338, and recall, 300 of 398, against suggest's
    # 298 of 335 and 298 of 394: the lower of each)
    _holds("unseen13", 300 / 338 - 1e-9, 300 / 398 - 1e-9, 34, 4)


@pytest.mark.slow          # an older set's guard: .ci/run runs it
def test_round_fourteen_held_out_set_keeps_its_level():
    """tests/gold/unseen14.yaml (433 sightings, 43 non-terms, 415 passages in tea
    processing, bridge engineering, psychiatry, naval architecture, ceramics and glazes,
    neonatology and wind energy, each note in another writer's style) was written for round
    fourteen by someone who read and ran no part of zhen, and never listed. Scored with the
    round-thirteen rules, which round fourteen did not change (P 88.9%, R 85.2%, 44
    boundary errors of 415 found, 2 non-terms; suggest P 89.2%, R 84.5%): the honest
    number, short of issue 22's targets (R ≥ 90%, ≤ 5% boundary errors), which are
    therefore not asserted. This guards the level reached. (The learned left edge of
    scripts/boundary_model/ scored R 86.6%, P 89.7%, 41 boundary errors on it, and is not
    used: README, Round fourteen.)"""
    # (finder 369 of 415 and of 433; suggest 365 of 409 and of 432: the lower of each;
    # round fifteen, with it a development set, reached finder 374 of 416, 41 boundary
    # errors, 1 non-term, suggest 370 of 410)
    _holds("unseen14", 374 / 416 - 1e-9, 370 / 432 - 1e-9, 41, 1)


def test_round_fifteen_development_set_keeps_its_level():
    """tests/gold/unseen15.yaml (413 sightings, 41 non-terms, 388 passages: coffee,
    railway track, forensic toxicology, alpine physiology, optical fibre, veterinary
    parasitology, opera stagecraft; another hand that read no zhen code). Scored once
    held out with the round-fourteen rules: finder P 85.3%, R 77.5%, 53 boundary errors
    (14.1% of 375 found), 2 non-terms. A development set in round fifteen; this guards
    the level reached (finder 323 of 378, suggest 315 of 371)."""
    _holds("unseen15", 315 / 371 - 1e-9, 315 / 407 - 1e-9, 53, 2)


def test_round_fifteen_held_out_sets_keep_their_level():
    """Round fifteen's held-out sets, written by two hands that read and ran no part of
    zhen: unseen16.yaml, a computing textbook in eight chapters (RDMA, memory
    management, CUDA, sparse solvers, distributed training, ML compilers, HPC storage,
    RL and recommenders: 499 sightings, 72 non-terms, 507 passages), the kind of book
    issue 22's held-out target names; unseen17.yaml, seven other fields and styles (sleep
    medicine, wood science, chip packaging, archaeological dating, fisheries acoustics,
    power electronics, sign-language linguistics: 623 sightings, 123 non-terms). Scored
    once before round fifteen's rule and once after (README, Round fifteen): unseen16 finder
    R 88.4% → 88.8%, boundary errors 5.9% → 5.7%; unseen17 R 85.2%, 9.3% both times.
    Development sets in round sixteen, which reached unseen16 R 91.0% with 4.6% boundary
    errors (454 of 478 found) and unseen17 R 85.9%, 8.9%: this guards that level."""
    # (round seventeen, with both development sets, reached unseen16 finder 469 of 486
    # found, suggest 462 of 480 and of 495, 16 boundary errors; unseen17 finder 540 of 594,
    # suggest 532 of 620, 49 boundary errors)
    _holds("unseen16", 462 / 480 - 1e-9, 462 / 495 - 1e-9, 16, 1)
    _holds("unseen17", 543 / 596 - 1e-9, 535 / 620 - 1e-9, 48, 5)     # (round eighteen)


def test_round_sixteen_held_out_set_keeps_its_level():
    """unseen18.yaml, round sixteen's held-out computing textbook (compilers, OS kernels,
    databases, architecture, security, networks, numerics and HPC, LLM serving: 455
    sightings, 92 non-terms, 443 passages), written by a hand that read and ran no part of
    zhen, never listed. Scored once before the round's rules and once after (README,
    Round sixteen): finder R 87.9% → 88.6%, boundary errors 6.5% → 6.0% (28 → 26 of 432).
    Short of the targets (R ≥ 90%, ≤ 5%), so they are not asserted; this guards the level."""
    # (round eighteen, with it a development set: finder 421 of 441 found and of 455,
    # 17 boundary errors; suggest 410 of 430 and of 448)
    _holds("unseen18", 410 / 430 - 1e-9, 410 / 448 - 1e-9, 17, 3)


def test_round_seventeen_held_out_sets_keep_their_level():
    """Round seventeen's held-out sets, written by two hands that read and ran no part of
    zhen and never listed: unseen19.yaml, graduate lecture notes in computer systems
    (virtualization, storage engines, GPU kernels, consistency models, stream processing,
    datacenter network hardware, model compression, verification; 572 sightings, 85
    non-terms, 456 passages, eight styles), and unseen20.yaml, PhD students' paper-reading
    notes in eight areas (architecture, OS, databases, security, HPC, ML systems,
    networking, PL; 466 sightings, 85 non-terms, 474 passages). Scored before the round's
    rules, once in its middle and once after (README, Round seventeen): unseen19 finder
    R 87.4% → 89.3%, boundary errors 6.9% → 6.6%; unseen20 R 89.7% → 91.0%, 5.6% → 5.3%.
    Short of the targets (R ≥ 90% with ≤ 5% boundary errors), so they are not asserted.
    Development sets in round eighteen, which reached unseen19 R 90.0% with 5.8% boundary
    errors and unseen20 R 91.4% with 5.1%: this guards that level."""
    # (unseen19: finder 515 of 549 found and of 572, 32 boundary errors, suggest 488 of
    # 523 and of 552; unseen20: finder 426 of 450 and of 466, 23 boundary errors, suggest
    # 415 of 440 and of 461)
    # (round nineteen: unseen19 finder 518 of 552 found and of 572, suggest 492 of 525 and
    # of 552; unseen20 suggest 416 of 440)
    _holds("unseen19", 492 / 525 - 1e-9, 492 / 552 - 1e-9, 32, 2)
    _holds("unseen20", 416 / 440 - 1e-9, 416 / 461 - 1e-9, 23, 1)


def test_round_eighteen_held_out_set_keeps_its_level():
    """unseen21.yaml, round eighteen's held-out set: a textbook on systems for AI in eight
    chapters (accelerators, frameworks, automatic differentiation, edge inference,
    federated learning and privacy, recommender infrastructure, cluster scheduling, data
    pipelines; 525 sightings, 88 non-terms, 460 passages), written by a hand that read and
    ran no part of zhen, never listed. Scored with round sixteen's rules (R 86.9%, 8.7%
    boundary errors), with round seventeen's, before round eighteen (R 88.6%, 7.9%), and
    after it (unchanged: 465 of 525, 40 boundary errors of 508 found, 3 non-terms; suggest
    441 of 482 and of 503), and after round nineteen (finder unchanged, suggest 444 of 482).
    Short of the targets; this guards the level."""
    # (round twenty: finder 471 of 510 found and of 525, 36 boundary errors, 3 non-terms;
    # suggest 449 of 482 and of 503. Round twenty-two: finder 476 of 513 and of 525 (R
    # 90.7%), 34 boundary errors (6.6%), 3 non-terms; suggest 454 of 485 and of 503)
    # (at round twenty-two's end, English compared with the head's lemmas: finder 478 of
    # 514, R 91.0%, 33 boundary errors (6.4%); suggest 455 of 486 and of 503)
    # (round twenty-three: finder 480 of 514, R 91.4%, 31 boundary errors (6.0%); suggest
    # 458 of 487 and of 503)
    # (round twenty-four: finder 482 of 514, R 91.8%, 29 boundary errors (5.6%); suggest
    # 460 of 488 and of 503)
    # (round twenty-five's scorer reads one bracket token labelled an abbreviation and
    # found as English, or the other way, as one pair: one non-term becomes a boundary
    # error, 30, with the same finder)
    # (round twenty-five: finder 485 of 515, R 92.4%, 28 boundary errors (5.4%), 2
    # non-terms; suggest 463 of 489 and of 503)
    _holds("unseen21", 485 / 515 - 1e-9, 463 / 503 - 1e-9, 28, 2)


def test_round_nineteen_held_out_set_keeps_issue_22s_targets():
    """unseen22.yaml, round nineteen's held-out set: an HPC and ML-systems group's wiki in
    eight pages (cluster usage, performance tuning, mixed precision, distributed training,
    inference serving, storage and I/O, a reading group, an onboarding FAQ; 465 sightings,
    85 non-terms, 467 passages), written by a hand that read and ran no part of zhen, never
    listed. Scored with round sixteen's rules (R 92.9%, 3.6% boundary errors), round
    seventeen's (93.5%, 3.3%), round eighteen's, before round nineteen (94.0%, 2.9%) and
    after it (unchanged: 437 of 465, 13 boundary errors of 451 found, 1 non-term; suggest
    401 of 414 and of 438). It meets issue 22's targets (R ≥ 90%, ≤ 5% boundary errors),
    so they are asserted with the level reached."""
    # (round twenty-one: finder 441 of 455 found and of 465, 13 boundary errors, 1 non-term;
    # suggest 405 of 418 and of 438. Round twenty-two: finder 442 of 456, 13 boundary
    # errors; suggest 406 of 419 and of 438)
    # (at round twenty-two's end, English compared with the head's lemmas: finder 446 of
    # 456, R 95.9%, 9 boundary errors (2.0%); suggest 410 of 419 and of 438)
    # (round twenty-three: finder 448 of 456, R 96.3%, 7 boundary errors (1.5%); suggest
    # 412 of 419 and of 438)
    # (round twenty-four: finder 449 of 457, R 96.6%, 7 boundary errors (1.5%); suggest
    # 413 of 420 and of 438)
    _meets_targets("unseen22", 449 / 457, 413 / 438, 7, 1)


def test_round_twenty_held_out_sets_keep_their_level():
    """Round twenty's held-out sets, each written by a hand that read and ran no part of
    zhen: unseen23.yaml, a computer-architecture and chip-design textbook in eight chapters
    (674 sightings, 85 non-terms, 472 passages); unseen24.yaml, a personal blog on
    databases, storage engines and security in eight posts (481 sightings, 83 non-terms,
    470 passages); unseen25.yaml, lecture transcripts of a course on compilers, languages
    and OS scheduling (476 sightings, 81 non-terms, 469 passages). Scored before round
    twenty's rules and after them (README, Round twenty): unseen23 finder R 95.3% → 95.5%,
    boundary errors 1.8% → 1.7%; unseen24 88.4% → 89.6%, 7.8% → 6.7%; unseen25 94.7% →
    95.0%, 1.5% → 1.3%. unseen23 and unseen25 meet issue 22's targets, which are asserted;
    unseen24 does not: its level is guarded."""
    # (unseen23: finder 644 of 658 found and of 674, 11 boundary errors, 3 non-terms;
    # suggest 574 of 588 and of 613. unseen24: finder 431 of 463 and of 481, 31 boundary
    # errors, 1 non-term; suggest 417 of 446 and of 467. unseen25: finder 452 of 458 and of
    # 476, 6 boundary errors; suggest 428 of 433 and of 455)
    # (round twenty-four: unseen23, a development set since, finder 654 of 664 and of 674,
    # 7 boundary errors, suggest 582 of 592 and of 613; unseen24 finder 438 of 464 and of
    # 481, R 91.1%, 25 boundary errors (5.4%), suggest 423 of 446 and of 467; unseen25
    # finder 470 of 471 and of 476, 1 boundary error, suggest 445 of 446 and of 455)
    # (round twenty-five, with its scorer: unseen24 finder 441 of 464 and of 481, R 91.7%,
    # 23 boundary errors (5.0%), no non-term; suggest 425 of 446 and of 467: it now meets
    # issue 22's targets, which are asserted)
    for name, precision, recall, boundary, non_terms, targets in (
            ("unseen23", 582 / 592, 582 / 613, 7, 3, True),
            ("unseen24", 441 / 464, 425 / 467, 23, 0, True),
            ("unseen25", 445 / 446, 445 / 455, 1, 0, True)):
        finder = _holds(name, precision - 1e-9, recall - 1e-9, boundary, non_terms)
        if targets:
            assert finder["recall"] >= 0.90 and finder["boundary_errors"] <= 0.05 * finder["found"]


def test_round_twenty_one_held_out_sets_keep_their_level():
    """Round twenty-one's held-out sets, each written by a hand that read and ran no part of
    zhen, never listed: unseen26.yaml, a survey paper on efficient large-model inference in
    eight sections (457 sightings, 84 non-terms, 453 passages), and unseen27.yaml, the
    documentation of an invented distributed key-value store in eight pages: architecture,
    kernel-bypass networking, storage engine, option tables, tuning, FAQ, changelog,
    contributor guide (442 sightings, 78 non-terms, 475 passages). Scored before round
    twenty-one's rules and after them (README, Round twenty-one): unseen26 finder R 88.6%
    with 8.4% boundary errors, unseen27 R 85.7% with 9.8%, both unchanged by the round.
    Short of the targets; this guards the level."""
    # (unseen26: finder 405 of 442 found and of 457, 37 boundary errors; suggest 367 of 401
    # and of 418. unseen27: finder 379 of 427 and of 442, 42 boundary errors, 6 non-terms;
    # suggest 367 of 413 and of 428)
    # (round twenty-three: unseen26 finder 411 of 443 and of 457, 32 boundary errors;
    # suggest 373 of 402 and of 418)
    # (round twenty-four: unseen26 finder 413 of 443 and of 457, R 90.4%, 30 boundary
    # errors (6.8%); suggest 375 of 402 and of 418)
    # (round twenty-five: unchanged)
    _holds("unseen26", 413 / 443 - 1e-9, 375 / 418 - 1e-9, 30, 0)
    # (with the head's lemmas compared, round twenty-two: unseen27's finder 380 of 427, 43
    # boundary errors, 4 non-terms, the same sightings; suggest 368 of 413 and of 428)
    # (round twenty-three: unseen27 finder 385 of 428 and of 442, 39 boundary errors, 4
    # non-terms; suggest 373 of 414 and of 428)
    # (round twenty-four: unseen27 finder 389 of 429 and of 442, R 88.0%, 36 boundary
    # errors (8.4%), 4 non-terms; suggest 377 of 415 and of 428)
    # (round twenty-five, with its scorer: unseen27 finder 392 of 429 and of 442, R 88.7%,
    # 35 boundary errors (8.2%), 2 non-terms; suggest 379 of 415 and of 428)
    _holds("unseen27", 379 / 415 - 1e-9, 379 / 428 - 1e-9, 35, 2)


def test_round_twenty_two_held_out_sets_keep_their_level():
    """Round twenty-two's held-out sets, each written by a hand that read and ran no part of
    zhen, never listed: unseen28.yaml, the lecture slides of a course on parallel
    programming and GPU computing in eight lectures, transcribed to Markdown (terse
    bullets, slide titles, comparison tables, speaker notes, quizzes; 451 sightings, 84
    non-terms, 477 passages), and unseen29.yaml, an SRE team's incident postmortems and
    runbooks in eight files (timelines, root-cause analyses, action-item checklists, metric
    tables, chat-log quotes; 455 sightings, 81 non-terms, 474 passages). Scored before
    round twenty-two's rules (the commit before the round, with its own finder) and after
    them (README, Round twenty-two): unseen28 finder R 90.0% → 90.5% with 5.1% boundary
    errors, unseen29 R 88.8% → 89.7% with 5.5% → 5.0%, short of the targets (unseen28 by
    one boundary error, unseen29 by two sightings). After round twenty-three's rules both
    meet them (README, Round twenty-three); this guards that."""
    # (unseen28: finder 408 of 433 found and of 451, 22 boundary errors, 3 non-terms;
    # suggest 395 of 417 and of 438. unseen29: finder 408 of 437 and of 455, 22 boundary
    # errors, 7 non-terms; suggest 390 of 418 and of 439)
    # (round twenty-three: unseen28 finder 411 of 433 and of 451, R 91.1%, 19 boundary
    # errors (4.4%), suggest 398 of 417 and of 438; unseen29 finder 410 of 437 and of 455,
    # R 90.1%, 20 boundary errors (4.6%), suggest 392 of 418 and of 439: both now meet
    # issue 22's targets, which are asserted)
    # (round twenty-five's scorer, one bracket token read either way one pair: unseen28's
    # 20th boundary error was a non-term, with the same finder)
    # (round twenty-five, with its scorer: unseen28 finder 413 of 433, R 91.6%, 18
    # boundary errors (4.2%), suggest 400 of 417 and of 438; unseen29 finder 414 of 438,
    # R 91.0%, 18 boundary errors (4.1%), 6 non-terms, suggest 396 of 419 and of 439)
    _meets_targets("unseen28", 413 / 433, 400 / 438, 18, 2)
    _meets_targets("unseen29", 396 / 419, 396 / 439, 18, 6)


def test_round_twenty_two_development_sets_keep_their_level():
    """unseen30.yaml (the documentation of an invented GPU-cluster scheduler and
    model-serving platform: option and API tables, changelog bullets, FAQ; 455 sightings,
    77 non-terms) and unseen31.yaml (a survey of distributed storage and data-center
    networking: dense paragraphs of abbreviations and citations, taxonomies, comparison
    tables; 638 sightings, 87 non-terms), written for round twenty-two by hands that read
    and ran no part of zhen in the two styles the held-out sets scored worst on, and
    developed against: unseen30 finder R 89.5% → 91.4%, boundary errors 7.5% → 5.7%;
    unseen31 R 88.6% → 89.7%, 6.7% → 6.3% (each side with its own finder). Developed
    against in round twenty-three too, which brought both to the targets; this guards
    that."""
    # (unseen30: finder 416 of 442 found and of 455, 25 boundary errors, 1 non-term;
    # suggest 378 of 398 and of 416. unseen31: finder 572 of 615 and of 638, 39 boundary
    # errors, 4 non-terms; suggest 542 of 580 and of 607)
    # (round twenty-three: unseen30 finder 425 of 442 and of 455, R 93.4%, 16 boundary
    # errors (3.6%), suggest 387 of 398 and of 416; unseen31 finder 586 of 618 and of 638,
    # R 91.8%, 28 boundary errors (4.5%), suggest 556 of 583 and of 607: both meet issue
    # 22's targets, which are asserted)
    # (round twenty-four: unseen30 finder 431 of 446 and of 455, R 94.7%, 14 boundary
    # errors (3.1%), suggest 391 of 401 and of 416; unseen31 finder 591 of 619 and of 638,
    # R 92.6%, 24 boundary errors (3.9%), suggest 561 of 585 and of 607)
    _meets_targets("unseen30", 431 / 446, 391 / 416, 14, 1)
    _meets_targets("unseen31", 591 / 619, 561 / 607, 24, 4)


def test_round_twenty_four_held_out_sets_meet_the_targets():
    """Round twenty-four's held-out sets, each written by a hand that read and ran no part
    of zhen, never listed: unseen32.yaml, a textbook on operating systems and
    virtualization in eight chapters (definitions, worked examples, exercises, chapter
    summaries; 496 sightings, 86 non-terms, 468 passages); unseen33.yaml, an engineer's
    blog on observability, storage engines, web performance and cryptography in eight posts
    (443 sightings, 86 non-terms, 450 passages); unseen34.yaml, the documentation of an
    invented edge-AI inference SDK and model compiler in eight pages (parameter tables,
    warnings, changelog, FAQ; 476 sightings, 79 non-terms, 473 passages). Scored with
    round twenty-three's finder at the round's start (unseen32 R 94.2%, 2.7% boundary
    errors; unseen33 94.8%, 1.6%; unseen34 94.3%, 4.0%: all three at the targets already)
    and at its end (README, Round twenty-four); this guards the end's level and the
    targets."""
    # (unseen32: finder 467 of 481 found and of 496, R 94.2%, 13 boundary errors (2.7%), 1
    # non-term; suggest 446 of 459 and of 483. unseen33: finder 421 of 429 and of 443,
    # R 95.0%, 7 boundary errors (1.6%), 1 non-term; suggest 410 of 418 and of 440.
    # unseen34: finder 451 of 471 and of 476, R 94.7%, 17 boundary errors (3.6%), 3
    # non-terms; suggest 430 of 448 and of 454)
    _meets_targets("unseen32", 467 / 481, 446 / 483, 13, 1)
    _meets_targets("unseen33", 410 / 418, 410 / 440, 7, 1)
    # (round twenty-five: unseen32 finder 468 of 481, 13 boundary errors, suggest 447 of
    # 459; unseen33 unchanged; unseen34 finder 452 of 472, 17 boundary errors, suggest 431
    # of 449 and of 454)
    _meets_targets("unseen34", 452 / 472, 431 / 454, 17, 3)


def test_round_twenty_five_development_sets_meet_the_targets():
    """unseen35.yaml (the documentation of an invented message queue and stream engine:
    option and metric tables, client API, changelog, troubleshooting; 504 sightings),
    unseen36.yaml (a survey of large-model training and inference systems; 506) and
    unseen37.yaml (a textbook on computer networks and distributed systems; 543), written
    for round twenty-five by hands that read and ran no part of zhen, declared development
    sets before they were scored, and developed against. With round twenty-four's finder
    (and round twenty-five's scorer): unseen35 R 90.1% with 6.5% boundary errors, unseen36
    93.1% with 4.7%, unseen37 91.3% with 5.0%; after the round's rules all three meet
    issue 22's targets, which are asserted."""
    # (unseen35: finder 463 of 489 found and of 504, 24 boundary errors (4.9%), 2
    # non-terms; suggest 424 of 446 and of 465. unseen36: finder 479 of 495 and of 506, 16
    # boundary errors; suggest 456 of 471 and of 484. unseen37: finder 505 of 529 and of
    # 543, 22 boundary errors, 2 non-terms; suggest 494 of 518 and of 537)
    _meets_targets("unseen35", 463 / 489, 424 / 465, 24, 2)
    _meets_targets("unseen36", 479 / 495, 456 / 484, 16, 0)
    _meets_targets("unseen37", 494 / 518, 494 / 537, 22, 2)


def test_one_bracket_token_read_as_english_or_as_abbreviation_is_one_pair():
    """The scorer: a writer may label *rkey* an abbreviation where the finder reads it as
    English, or *SmartNIC* English where the finder reads an abbreviation; one word, the
    same token, is the same pair. Two words, or different tokens, are not."""
    script = _script()
    agree, label = script._agree, script._label
    assert agree(label("", "rkey"), label("rkey", ""))
    assert agree(label("SmartNIC", ""), label("", "SmartNIC"))
    assert not agree(label("remote key", ""), label("", "rkey"))
    assert not agree(label("lkey", ""), label("", "rkey"))
    assert not agree(label("", ""), label("", ""))
