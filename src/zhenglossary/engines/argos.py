"""The argos engine: an installed argos-translate zh→en package, run by CTranslate2.

zhen uses ``argos-translate-lt`` for where packages live (``argostranslate.settings``;
``ARGOS_PACKAGES_DIR`` is honoured, read at call time so tests can point it elsewhere)
and the package format, but translates through CTranslate2 and SentencePiece directly:

* argostranslate's own ``translate()`` downloads a MiniSBD sentence model at first use
  (fails offline) — zhen splits sentences itself;
* its SentencePiece ``decode`` turns every ``_`` into a space — zhen decodes with
  sentencepiece itself;
* its ``install_from_path`` only checks that the file is a zip — zhen validates the
  package (one top folder, metadata.json, zh→en codes, model files) before installing.

All segments of a run go to ``translate_batch`` in large token-bounded batches, sorted by
length; the model loads once, and only when the translation memory misses.

Why this module is long: finding, validating, installing and running an argos package
(and choosing its device) are one engine's concern, and they share the package layout.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..errors import ModelError
from ..textutil import CJK_RUN_RE
from .base import BaseEngine, EngineContext, EngineOutput, EngineSpec, EngineStatus

INDEX_URL = "https://raw.githubusercontent.com/argosopentech/argospm-index/main/index.json"
INSTALL_HINT = ("Run `zhen model install` (downloads translate-zh_en), or "
                "`zhen model install --file translate-zh_en.argosmodel` with a package "
                "downloaded elsewhere")


def package_dirs() -> list[Path]:
    env = os.environ.get("ARGOS_PACKAGES_DIR")
    if env:
        return [Path(env).expanduser()]
    import argostranslate.settings as settings

    return [Path(p) for p in settings.package_dirs]


def install_dir() -> Path:
    return package_dirs()[0]


@dataclass
class ArgosPackage:
    path: Path
    metadata: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def from_code(self) -> str:
        return str(self.metadata.get("from_code", "?"))

    @property
    def to_code(self) -> str:
        return str(self.metadata.get("to_code", "?"))

    @property
    def version(self) -> str:
        return str(self.metadata.get("package_version", "?"))

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def target_prefix(self) -> str:
        return str(self.metadata.get("target_prefix", "") or "")

    @property
    def is_zh_en(self) -> bool:
        if not self.metadata:      # unreadable metadata: judge by the folder name
            return self.name.startswith("translate-zh_en")
        return self.from_code.lower().startswith("zh") and self.to_code.lower() == "en"

    @property
    def usable(self) -> bool:
        return self.is_zh_en and not self.problems


def check_package_dir(path: Path) -> tuple[dict, list[str]]:
    """metadata and the list of what is wrong with an unpacked package folder."""
    problems: list[str] = []
    metadata: dict = {}
    meta = path / "metadata.json"
    try:
        size = meta.stat().st_size
        if size > ARCHIVE_LIMITS["metadata"]:
            raise ValueError(f"{size:,} bytes; a package's is a few hundred")
        metadata = json.loads(meta.read_text("utf-8"))
        if not isinstance(metadata, dict):
            problems.append("metadata.json is not a JSON object")
            metadata = {}
    except FileNotFoundError:
        problems.append("metadata.json is missing")
    except (OSError, ValueError) as exc:
        problems.append(f"metadata.json is unreadable ({exc})")
    for field_name in ("from_code", "to_code", "package_version"):
        if metadata and field_name not in metadata:
            problems.append(f"metadata.json has no {field_name}")
    model = path / "model"
    for required in ("model.bin", "config.json"):
        if not (model / required).is_file():
            problems.append(f"model/{required} is missing")
    if model.is_dir() and not any((model / v).is_file() for v in (
            "shared_vocabulary.json", "shared_vocabulary.txt", "source_vocabulary.json",
            "source_vocabulary.txt")):
        problems.append("model/ has no vocabulary file")
    if not (path / "sentencepiece.model").is_file():
        if (path / "bpe.model").is_file():
            problems.append("uses a BPE tokenizer (bpe.model); zhen supports SentencePiece packages")
        else:
            problems.append("sentencepiece.model is missing")
    return metadata, problems


def installed_packages() -> list[ArgosPackage]:
    out = []
    for folder in package_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.is_dir() and not path.name.startswith("."):
                metadata, problems = check_package_dir(path)
                out.append(ArgosPackage(path, metadata, problems))
    return out


def _version_key(version: str) -> tuple:
    parts = []
    for piece in version.replace("_", ".").split("."):
        parts.append((0, int(piece), "") if piece.isdigit() else (1, 0, piece))
    return tuple(parts)


def find_zh_en() -> ArgosPackage | None:
    """The installed zh→en package with the highest version, broken ones included (so the
    caller can say what is wrong with it)."""
    candidates = [p for p in installed_packages() if p.is_zh_en]
    if not candidates:
        return None
    candidates.sort(key=lambda p: (p.usable, _version_key(p.version)), reverse=True)
    return candidates[0]


# ---------------------------------------------------------------- install

# What an .argosmodel may hold, in one place. A real zh→en package is about 100 MB zipped,
# under 400 MB unpacked, a dozen files, and its model.bin is stored almost uncompressed;
# the limits leave room for the largest argos packages and refuse an archive bomb before
# a byte of it is written.
ARCHIVE_LIMITS = {
    "members": 1_000,                     # files and folders in the zip
    "unpacked": 4 * 1024 ** 3,            # bytes, all members together
    "ratio": 50,                          # unpacked / zipped, over the whole archive
    "member_ratio": 200,                  # the same for one member bigger than 1 MiB
    "metadata": 1024 ** 2,                # bytes of metadata.json
}
_MIB = 1024 ** 2


def _mb(size: int) -> str:
    return f"{size / _MIB:,.1f} MB" if size >= _MIB else f"{size:,} bytes"


def _refuse(file: Path, why: str) -> ModelError:
    return ModelError(f"{file} is not a package zhen installs: {why}. Nothing was written; "
                      "download translate-zh_en-*.argosmodel again from the argos index")


def _safe_members(file: Path, archive: zipfile.ZipFile) -> tuple[str, list[zipfile.ZipInfo]]:
    """The package's top folder and its members, after every check that needs no unpacking:
    names (one real top folder, nothing outside it), kinds (files and folders only) and
    sizes (``ARCHIVE_LIMITS``)."""
    import stat

    members = [i for i in archive.infolist()
               if i.filename and not i.filename.startswith("__MACOSX")]
    if len(members) > ARCHIVE_LIMITS["members"]:
        raise _refuse(file, f"it holds {len(members):,} entries, more than the "
                            f"{ARCHIVE_LIMITS['members']:,} a package may have")
    tops = {m.filename.replace("\\", "/").split("/", 1)[0] for m in members}
    if len(tops) != 1 or not any("/" in m.filename.rstrip("/") for m in members):
        raise ModelError(f"{file} is not an argos package: it must hold exactly one "
                         f"top folder, found {', '.join(sorted(tops)) or 'nothing'}")
    top = next(iter(tops))
    if top in ("", ".", "..") or top.startswith(".") or ":" in top:
        raise _refuse(file, f"its top folder is {top!r}; a package's top folder is a plain "
                            "name such as translate-zh_en-1_9")
    for member in members:
        name = member.filename
        parts = name.replace("\\", "/").split("/")
        if name.startswith("/") or "\\" in name or any(p in (".", "..") for p in parts) \
                or "\0" in name:
            raise _refuse(file, f"it holds an unsafe path {name!r}")
        mode = member.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if stat.S_ISLNK(mode):
            raise _refuse(file, f"{name!r} is a symbolic link")
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise _refuse(file, f"{name!r} is a device or special file, not a regular file")
    unpacked = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members)
    if unpacked > ARCHIVE_LIMITS["unpacked"]:
        raise _refuse(file, f"it unpacks to {_mb(unpacked)}, more than the "
                            f"{_mb(ARCHIVE_LIMITS['unpacked'])} a package may take")
    if unpacked > _MIB and unpacked > ARCHIVE_LIMITS["ratio"] * max(packed, 1):
        raise _refuse(file, f"it unpacks {_mb(packed)} into {_mb(unpacked)} "
                            f"({unpacked / max(packed, 1):,.0f}×; a package compresses at most "
                            f"{ARCHIVE_LIMITS['ratio']}×), like an archive bomb")
    for member in members:
        if member.file_size > _MIB and \
                member.file_size > ARCHIVE_LIMITS["member_ratio"] * max(member.compress_size, 1):
            raise _refuse(file, f"{member.filename!r} unpacks {_mb(member.compress_size)} into "
                                f"{_mb(member.file_size)}, like an archive bomb")
    return top, members


def _unpack(archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], into: Path) -> None:
    """Write ``members`` under ``into`` (a fresh folder), never more bytes than each one
    declares (zipfile stops there and checks the CRC) and never outside ``into``."""
    root = into.resolve()
    for member in members:
        target = (into / member.filename).resolve()
        if target != root and root not in target.parents:
            raise ModelError(f"{member.filename!r} would be written outside the package folder")
        if member.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(member) as source, open(target, "xb") as out:
            shutil.copyfileobj(source, out, 1024 * 1024)


def _read_metadata_member(file: Path, archive: zipfile.ZipFile, name: str) -> dict:
    info = archive.getinfo(name)
    if info.file_size > ARCHIVE_LIMITS["metadata"]:
        raise _refuse(file, f"its metadata.json is {_mb(info.file_size)}; a package's is a few "
                            f"hundred bytes (at most {_mb(ARCHIVE_LIMITS['metadata'])})")
    with archive.open(info) as handle:
        raw = handle.read(ARCHIVE_LIMITS["metadata"] + 1)
    try:
        metadata = json.loads(raw.decode("utf-8"))
    except ValueError as exc:
        raise ModelError(f"{file}: metadata.json is not valid JSON ({exc})") from exc
    if not isinstance(metadata, dict):
        raise ModelError(f"{file}: metadata.json is not a JSON object")
    return metadata


def _swap_in(staging: Path, new: Path, target: Path) -> None:
    """Put the unpacked folder ``new`` at ``target`` by renames; an existing ``target`` is
    first renamed into ``staging`` (removed with it), and put back if the swap fails. Nothing
    outside ``staging`` is ever deleted."""
    old = staging / ".previous"
    had_old = target.exists() or target.is_symlink()
    if had_old:
        os.rename(target, old)
    try:
        os.rename(new, target)
    except OSError:
        if had_old:
            os.rename(old, target)
        raise


def install_package_file(file: Path, dest: Path | None = None) -> ArgosPackage:
    """Validate an ``.argosmodel`` and unpack it into the argos package directory.

    It is unpacked into a fresh temporary folder beside the destination and swapped in with
    a rename once it is whole and valid; a failure at any point leaves the package directory
    as it was."""
    if not file.is_file():
        raise ModelError(f"{file} does not exist; pass the path of a downloaded .argosmodel")
    if not zipfile.is_zipfile(file):
        raise ModelError(f"{file} is not an argos package (not a zip file); download "
                         "translate-zh_en-*.argosmodel again")
    try:
        with zipfile.ZipFile(file) as archive:
            top, members = _safe_members(file, archive)
            names = {m.filename for m in members}
            if f"{top}/metadata.json" not in names:
                raise ModelError(f"{file} is not an argos package: {top}/metadata.json is missing")
            metadata = _read_metadata_member(file, archive, f"{top}/metadata.json")
            from_code, to_code = metadata.get("from_code"), metadata.get("to_code")
            if not (str(from_code).lower().startswith("zh") and str(to_code).lower() == "en"):
                raise ModelError(f"{file} translates {from_code}→{to_code}; zhen needs a zh→en "
                                 "package (translate-zh_en)")
            dest = dest or install_dir()
            dest.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".zhen-install-", dir=dest))
            try:
                _unpack(archive, members, staging / "new")
                _, problems = check_package_dir(staging / "new" / top)
                if problems:
                    raise ModelError(f"{file} is not a usable package: " + "; ".join(problems))
                target = dest / top
                _swap_in(staging, staging / "new" / top, target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except zipfile.BadZipFile as exc:
        raise ModelError(f"{file} is a damaged zip ({exc}); download it again") from exc
    except OSError as exc:
        raise ModelError(f"cannot install {file}: {exc.strerror or exc}") from exc
    metadata, problems = check_package_dir(target)
    return ArgosPackage(target, metadata, problems)


def download_zh_en(dest_dir: Path, timeout: float = 20.0) -> Path:
    """Fetch the argos package index and download translate-zh_en into ``dest_dir``."""
    import urllib.error
    import urllib.request

    index_url = os.environ.get("ZHEN_ARGOS_INDEX", INDEX_URL)
    offline = ("cannot reach the argos package index ({reason}). Are you offline? Download "
               "translate-zh_en-*.argosmodel on a machine with internet (see "
               "https://www.argosopentech.com/argospm/index/) and run "
               "`zhen model install --file translate-zh_en-1_9.argosmodel`")
    try:
        with urllib.request.urlopen(index_url, timeout=timeout) as response:
            index = json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ModelError(offline.format(reason=getattr(exc, "reason", exc))) from exc
    entries = [e for e in index if isinstance(e, dict) and str(e.get("from_code", "")).startswith("zh")
               and e.get("to_code") == "en" and e.get("links")]
    if not entries:
        raise ModelError("the argos package index lists no zh→en package; try again later or "
                         "install a file with `zhen model install --file`")
    entries.sort(key=lambda e: _version_key(str(e.get("package_version", "0"))), reverse=True)
    url = entries[0]["links"][0]
    target = dest_dir / url.rsplit("/", 1)[-1]
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(target, "wb") as out:
            shutil.copyfileobj(response, out)
    except (urllib.error.URLError, OSError) as exc:
        raise ModelError(offline.format(reason=getattr(exc, "reason", exc))) from exc
    return target


# ---------------------------------------------------------------- engine

# CTranslate2's batch size (``batch_type="tokens"``), in source tokens: a few dozen
# sentences of a note per call, times the beam. `python -m benchmarks` sweeps 128–1024
# with one thread (the README's Performance table). On a 2-core Intel Xeon, 256 was no
# faster than 1024 within the noise (its peak RSS was lower, 290 vs 430 MB), while the
# extra calls made the test suite's translation of the notes (tiny model, passive OpenMP
# threads, which sleep between calls) 2.7× slower, so the larger batch stays.
MAX_BATCH_TOKENS = 1024


# How long CTranslate2 may decode, per call, from the longest source text of the call
# (SentencePiece tokens): ``DECODING_RATIO * longest + DECODING_EXTRA``, at most
# ``DECODING_CEILING``. A normal hypothesis stops at ``</s>`` well before; the bound stops
# one that never ends (a repetition loop, which costs the whole bound), and must never cut
# a real translation short. zh→en in argos' SentencePiece vocabularies: English runs about
# 1–1.5 tokens per Chinese token (a Chinese token is often a whole word, its English one to
# three pieces), so twice the source is generous for a sentence (30 tokens → 66); the six
# extra tokens are for a short fallback piece, whose English may be several pieces for one
# Chinese token (鲁棒性 → rob·ust·ness; 众所周知 → "as is known to all", five or six):
# 1 token → 8, 4 → 14, 8 → 22. (Marian, OPUS-MT's decoder, stops at 3× the source.)
DECODING_RATIO = 2
DECODING_EXTRA = 6
DECODING_CEILING = 512


def decoding_limit(longest: int, cap: int | None = None) -> int:
    """``max_decoding_length`` for a call whose longest source text has ``longest`` tokens;
    ``cap`` (the engine's ``max_decoding_length``, e.g. the benchmarks' fixed length for
    random weights, which never stop) lowers it further, never raises it."""
    bound = min(DECODING_CEILING, DECODING_RATIO * max(longest, 1) + DECODING_EXTRA)
    return min(cap, bound) if cap else bound


# A call asking one hypothesis (the piece-wise fallback: the text between two terms, most
# often a word or two, now and then a clause) of texts of at most ``GREEDY_TOKENS`` tokens
# decodes greedily (beam 1) instead of with the engine's beam. A piece is a fragment
# translated out of its sentence after the sentence's beam failed; over its few output
# tokens a beam has little to choose between, and it costs ``beam_size`` times the
# decoder's work: the benchmark's fallback pieces took 0.57 s with the beam for those over
# 8 tokens, 0.35 s all greedy (one call each of 1–9 tokens, then 26). Only a piece as long
# as a sentence (over 32 tokens, some twenty Chinese words) keeps the beam. The first pass
# asks several hypotheses and keeps its beam.
GREEDY_TOKENS = 32


def length_buckets(order: list[int], lengths: list[int], size: int, ratio: float = 1.5,
                   extra: int = 8) -> list[list[int]]:
    """``order`` (indices sorted by token length) in chunks of at most ``size`` whose
    longest text is at most ``ratio`` times (or ``extra`` tokens more than) their shortest:
    a chunk's decoding length is bounded by its longest text (:func:`decoding_limit`), so
    a short piece of the fallback is never decoded as long as a whole sentence."""
    out: list[list[int]] = []
    for i in order:
        if out and len(out[-1]) < size and lengths[i] <= max(lengths[out[-1][0]] * ratio,
                                                               lengths[out[-1][0]] + extra):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def chunks_for(lengths: list[int], size: int, greedy_tokens: int) -> list[list[int]]:
    """The CTranslate2 calls for texts of these token lengths (indices, shortest first):
    length buckets, the texts of at most ``greedy_tokens`` (0: none), which decode greedily,
    in buckets of their own. (Short greedy calls are bound by their decoding steps, each of
    which reads the whole decoder whatever the rows: one call of 23 pieces of 1–8 tokens
    took as long as two and less than seven, one per length.)"""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    cut = sum(1 for n in lengths if n <= greedy_tokens)
    return length_buckets(order[:cut], lengths, size) + length_buckets(order[cut:], lengths, size)


# CTranslate2 workers on the CPU when ``--threads`` is 0: every usable core, at most this
# many. Each worker keeps its own decoding buffers (the weights are shared): with the
# benchmarks' base-size model, two workers peaked 75–113 MB above one thread, so sixteen
# on a large machine would hold about a gigabyte more for a notes run that seldom has more
# than a few batches in flight at once.
DEFAULT_WORKERS = 4

DEVICES = ("auto", "cpu", "cuda")


@dataclass
class ArgosSettings:
    """``[argos]`` in zhen.toml, ``ZHEN_ARGOS_DEVICE``, ``--device``."""

    device: str = "auto"             # auto: CUDA when CTranslate2 sees a GPU, else the CPU


def choose_device(requested: str, cuda_devices=None) -> tuple[str, str]:
    """(device, compute type) for CTranslate2: ``auto`` takes CUDA when CTranslate2 sees a
    GPU (``cuda_devices()``, by default ``ctranslate2.get_cuda_device_count``), with the
    fastest type it supports there; the CPU keeps the model's own type."""
    if requested not in DEVICES:
        raise ModelError(f"--device {requested}: use one of {', '.join(DEVICES)}")
    if requested == "cpu":
        return "cpu", "default"
    if cuda_devices is None:
        import ctranslate2

        cuda_devices = ctranslate2.get_cuda_device_count
    try:
        count = int(cuda_devices())
    except Exception:                 # a CPU-only build, or no driver
        count = 0
    if count:
        return "cuda", "auto"
    if requested == "cuda":
        raise ModelError("--device cuda: CTranslate2 sees no CUDA device here (no GPU, no "
                         "driver, or a CPU-only build); use --device cpu or auto")
    return "cpu", "default"


class ArgosEngine(BaseEngine):
    name = "argos"
    reliable_placeholders = False

    def __init__(self, package: ArgosPackage, *, threads: int = 0, beam_size: int = 4,
                 max_batch_tokens: int = MAX_BATCH_TOKENS,
                 max_decoding_length: int | None = None,      # a cap on decoding_limit
                 chunk_size: int = 256, device: str = "cpu",
                 greedy_tokens: int = GREEDY_TOKENS) -> None:
        if package.problems:
            raise ModelError(f"the argos package {package.path} is broken: "
                             + "; ".join(package.problems)
                             + f". Reinstall it: {INSTALL_HINT}")
        self.package = package
        self.threads = threads
        self.beam_size = beam_size
        self.max_batch_tokens = max_batch_tokens
        self.max_decoding_length = max_decoding_length
        self.chunk_size = chunk_size
        self.greedy_tokens = greedy_tokens
        self.device, self.compute_type = choose_device(device)
        self._translator = None
        self._sp = None

    def identity(self) -> str:
        meta = (self.package.path / "metadata.json").read_bytes()
        size = (self.package.path / "model" / "model.bin").stat().st_size
        digest = hashlib.sha256(meta + str(size).encode()).hexdigest()[:12]
        return f"argos:{self.package.from_code}-{self.package.to_code}:{self.package.version}:{digest}"

    def describe(self) -> str:
        on = " on CUDA" if self.device == "cuda" else ""
        return f"argos {self.package.name} {self.package.version}{on}"

    def load(self) -> None:
        if self._translator is not None:
            return
        import ctranslate2
        import sentencepiece

        try:
            self._translator = ctranslate2.Translator(
                str(self.package.path / "model"), device=self.device,
                compute_type=self.compute_type, **self.thread_options())
            self._sp = sentencepiece.SentencePieceProcessor(
                model_file=str(self.package.path / "sentencepiece.model"))
        except (RuntimeError, OSError, ValueError) as exc:
            self._translator = None
            raise ModelError(f"cannot load the argos package {self.package.path}: {exc}. "
                             f"It may be damaged; reinstall it: {INSTALL_HINT}") from exc

    def thread_options(self) -> dict:
        """CTranslate2's threads on the CPU: ``threads`` workers (0: every usable core, at
        most ``DEFAULT_WORKERS``), each decoding its own batches on one thread, sharing the
        model's weights (CTranslate2's ``inter_threads``), rather than one worker whose
        steps are split over the cores (``intra_threads``). A decode is many small steps; split over OpenMP threads, each
        step waits for the others to wake, and on a virtual machine that wait (libgomp's
        default policy) cost more than the step: a call of 16 short pieces of the fallback
        took 0.20 s on one thread and 0.60–1.01 s on two. One thread per worker never waits
        for another, and :meth:`translate_chunks` gives the workers a call's batches side
        by side, so all cores still work where there is more than one batch. On CUDA: one
        worker, CTranslate2's own threads."""
        if self.device == "cuda":
            return dict(inter_threads=1, intra_threads=self.threads)
        from ..process import usable_cores

        return dict(inter_threads=self.threads or min(usable_cores(), DEFAULT_WORKERS),
                    intra_threads=1)

    def tokenize(self, texts: Sequence[str]) -> list[list[str]]:
        self.load()
        return [self._sp.encode(text, out_type=str) for text in texts]

    def decode(self, tokens: list[str]) -> str:
        prefix = self.package.target_prefix
        if prefix and tokens and tokens[0] == prefix:
            tokens = tokens[1:]
        return self._sp.decode_pieces(tokens).strip()

    def batch_options(self, batch: list[list[str]], num_hypotheses: int) -> dict:
        """``translate_batch``'s options for one call (``translate_tokens``; the test
        support's engines reuse them): the decoding length bounded by the call's longest
        text (:func:`decoding_limit`, capped by ``max_decoding_length``); greedy for one
        hypothesis of short texts (``GREEDY_TOKENS``)."""
        longest = max((len(t) for t in batch), default=1)
        greedy = num_hypotheses == 1 and longest <= self.greedy_tokens
        # a package's target prefix token may count towards the length: one more step
        prefix = 1 if self.package.target_prefix else 0
        return dict(beam_size=1 if greedy else max(self.beam_size, num_hypotheses),
                    num_hypotheses=num_hypotheses,
                    batch_type="tokens",
                    max_batch_size=self.max_batch_tokens,
                    max_decoding_length=decoding_limit(longest, self.max_decoding_length)
                    + prefix,
                    replace_unknowns=True)

    def translate_tokens(self, batch: list[list[str]], num_hypotheses: int,
                         asynchronous: bool = False):
        """One CTranslate2 call over token lists (``asynchronous``: its results to wait
        for, one per text)."""
        prefix = self.package.target_prefix
        return self._translator.translate_batch(
            batch, target_prefix=[[prefix]] * len(batch) if prefix else None,
            asynchronous=asynchronous, **self.batch_options(batch, num_hypotheses))

    def translate_chunks(self, chunks: list[list[list[str]]], num_hypotheses: int) -> list:
        """Every chunk's CTranslate2 results, in order: the chunks are all handed to
        CTranslate2 before the first is waited for, so its workers decode them side by
        side (:meth:`thread_options`). The pure-model part of :meth:`translate` (what the
        benchmarks time as CTranslate2)."""
        try:
            pending = [self.translate_tokens(chunk, num_hypotheses, asynchronous=True)
                       for chunk in chunks]
            return [[result.result() for result in results] for results in pending]
        except RuntimeError as exc:
            raise ModelError(f"CTranslate2 failed with {self.package.path}: {exc}. "
                             f"Reinstall the package: {INSTALL_HINT}") from exc

    def translate(self, texts: Sequence[str], *, num_hypotheses: int = 1) -> list[EngineOutput]:
        if not texts:
            return []
        tokens = self.tokenize(texts)
        chunks = chunks_for([len(t) for t in tokens], self.chunk_size,
                            self.greedy_tokens if num_hypotheses == 1 else 0)
        results: list[EngineOutput | None] = [None] * len(texts)
        outs = self.translate_chunks([[tokens[i] or ["▁"] for i in chunk] for chunk in chunks],
                                     num_hypotheses)
        for chunk, out in zip(chunks, outs):
            for i, result in zip(chunk, out):
                hypotheses = [self.decode(h) for h in result.hypotheses]
                # Chinese the model copied into its English is reported, not hidden: the
                # output check allows only what the engine says it could not render
                left = sorted({run for h in hypotheses for run in CJK_RUN_RE.findall(h)})
                results[i] = EngineOutput(hypotheses, left)
        return results  # type: ignore[return-value]


# ---------------------------------------------------------------- registration


def _create(context: EngineContext) -> ArgosEngine:
    package = find_zh_en()
    if package is None:
        raise ModelError("no Chinese→English argos model is installed. " + INSTALL_HINT + ".")
    if package.problems:
        raise ModelError(f"the argos package {package.path} is broken: "
                         + "; ".join(package.problems) + ". " + INSTALL_HINT + ".")
    from ..config import load_settings

    settings, _ = load_settings(ArgosSettings, "argos", context.root,
                                {"device": context.overrides.get("device")})
    return ArgosEngine(package, threads=context.threads, device=settings.device)


def _status(context: EngineContext) -> EngineStatus:
    package = find_zh_en()
    dirs = [str(p) for p in package_dirs()]
    if package is None:
        return EngineStatus(False, f"no zh→en package in {', '.join(dirs)}", {"package_dirs": dirs})
    if package.problems:
        return EngineStatus(False, f"{package.path} is broken: " + "; ".join(package.problems),
                            {"package_dirs": dirs, "package": str(package.path)})
    return EngineStatus(True, f"{package.name} {package.version}",
                        {"package_dirs": dirs, "package": str(package.path)})


SPEC = EngineSpec("argos", "argos-translate zh→en model run by CTranslate2 (offline MT)",
                  _create, _status)
