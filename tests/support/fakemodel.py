"""Synthetic, but real, argos-translate packages for tests and benchmarks.

No real zh→en model can be downloaded where zhen is developed and tested, so
this module builds an installable ``.argosmodel`` from scratch:

* a SentencePiece unigram model trained on the given corpus (like argos-train
  does, ``character_coverage=0.9995``);
* a CTranslate2 Transformer (``TransformerSpec.from_config``, the layout the
  OpenNMT-py converter produces for argos models: pre-norm, ReLU, sinusoidal
  position encodings, separate source/target embeddings, biased linears)
  whose every weight is seeded noise, so translations are deterministic
  nonsense for a given corpus + seed;
* ``metadata.json`` shaped like the real ``translate-zh_en`` package (the six
  fields argos-train writes, plus ``target_prefix`` when non-empty) and a
  ``README.md`` saying the package is synthetic.

Two shapes exist.  ``tiny`` (2+2 layers, d_model 32, 2 heads, FFN 64,
float32, vocabulary = whatever SentencePiece trains, about 1k pieces) builds in
a fraction of a second and is what tests should use.  ``base`` is shaped like
an argos transformer-base model (6+6 layers, d_model 512, 8 heads, FFN 2048,
32,000-entry shared vocabulary, int8 weights saved by ``spec.optimize("int8")``,
~105 MB ``model.bin``: 93M int8 parameters plus float32 scales and the
5000x512 position table); only its speed means anything.

Decoding length.  Random weights almost never pick ``</s>``, so decoding runs
until ``max_decoding_length`` (CTranslate2's default is 256, and argostranslate
does not pass one).  Benchmarks should set ``max_decoding_length`` to a
realistic output length (e.g. about the source length) or they will measure
256-token outputs for every sentence.

Vocabulary.  The CTranslate2 vocabulary follows OpenNMT-py: ``<unk>``,
``<blank>``, ``<s>``, ``</s>`` first, then the SentencePiece pieces in id order
(SentencePiece's own ``<unk>``/``<s>``/``</s>`` control pieces are the ones
replaced by the OpenNMT-py specials).  Source and target vocabularies are the
same list, so CTranslate2 writes ``shared_vocabulary.json``.  When the corpus
is too small for the requested ``vocab_size`` (a few KB of text yields ~4k
pieces, not 32k), the difference is made up with deterministic pseudo-word
pieces (``▁kelo``, ``mivra`` ...).  They are appended to *both* the CTranslate2
vocabulary and the SentencePiece model, as pieces of type UNUSED: SentencePiece
never produces them when encoding, but decodes them like normal pieces, so the
noise the model emits still detokenizes to clean text.  The append is done on
the serialized ModelProto (a repeated field can be extended by concatenating
bytes), so no protobuf dependency is needed.

``target_prefix`` (e.g. ``"__en__"``) is trained into SentencePiece as a
user-defined symbol, so it is one piece and lands in the shared vocabulary.

Everything is deterministic: same corpus, arguments and seed give byte-identical
zips (fixed zip timestamps, sorted entries) and identical translations.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import struct
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable

import numpy as np

__all__ = [
    "ModelShape",
    "SIZES",
    "OPENNMT_SPECIALS",
    "build_package",
    "build_package_dir",
    "load_corpus",
    "package_dir_name",
]

#: Special tokens at the head of every OpenNMT-py vocabulary (torchtext order:
#: unk, pad, bos, eos).  CTranslate2 needs <unk>, <s> and </s> present.
OPENNMT_SPECIALS = ("<unk>", "<blank>", "<s>", "</s>")

LANGUAGE_NAMES = {
    "ar": "Arabic",
    "de": "German",
    "en": "English",
    "es": "Spanish",
    "fr": "French",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "pt": "Portuguese",
    "ru": "Russian",
    "zh": "Chinese",
    "zt": "Chinese (traditional)",
}


@dataclass(frozen=True)
class ModelShape:
    """Transformer hyper-parameters of a synthetic model."""

    encoder_layers: int
    decoder_layers: int
    d_model: int
    num_heads: int
    ffn_dim: int
    #: Final CTranslate2 vocabulary size; None = whatever SentencePiece trains.
    vocab_size: int | None
    #: CTranslate2 weight type saved in model.bin ("float32", "int8", ...).
    quantization: str
    #: Rows of the sinusoidal position table (OpenNMT-py's max_len).
    max_positions: int = 5000


SIZES: dict[str, ModelShape] = {
    "tiny": ModelShape(2, 2, 32, 2, 64, None, "float32"),
    "base": ModelShape(6, 6, 512, 8, 2048, 32000, "int8"),
}

# Target size asked of SentencePiece when no vocab_size is given.
_DEFAULT_SP_PIECES = 1000
_SP_META_PIECES = 3  # <unk>, <s>, </s> in a default SentencePiece model
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


# --------------------------------------------------------------------------
# public helpers


def package_dir_name(from_code: str = "zh", to_code: str = "en", package_version: str = "1.0") -> str:
    """Top-level folder of a package zip, argos-train style: ``translate-zh_en-1_0``."""
    return f"translate-{from_code}_{to_code}-{package_version.replace('.', '_')}"


def load_corpus(path: str | os.PathLike, max_lines: int | None = None) -> list[str]:
    """Non-blank, stripped lines of a text file (e.g. ``notes/sc24.md``)."""
    lines = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                lines.append(line)
                if max_lines is not None and len(lines) >= max_lines:
                    break
    return lines


def build_package(
    out_file: Path,
    corpus: Iterable[str],
    *,
    size: str = "tiny",
    seed: int = 0,
    from_code="zh",
    to_code="en",
    package_version="1.0",
    target_prefix: str = "",
    vocab_size: int | None = None,
    argos_version: str = "1.9.0",
    quantization: str | None = None,
    keeps_placeholders: bool = False,
) -> Path:
    """Build an installable .argosmodel zip from the corpus text. Returns out_file.

    The zip holds one folder, ``package_dir_name(from_code, to_code,
    package_version)``, containing ``metadata.json``, ``README.md``,
    ``sentencepiece.model`` and ``model/`` (``model.bin``, ``config.json``,
    ``shared_vocabulary.json``).

    Args:
      size: "tiny" or "base" (see :data:`SIZES`).
      seed: seeds the weights; same corpus + arguments + seed → same bytes.
      target_prefix: written to metadata.json (only if non-empty) and added to
        the SentencePiece model and vocabulary as one piece.
      vocab_size: exact size of the CTranslate2 vocabulary; defaults to the
        size's own (None for tiny = whatever SentencePiece trains, ~1k;
        32000 for base).  Padded with unused pseudo-word pieces if the corpus
        cannot fill it.
      argos_version: metadata ``argos_version`` (the real zh→en 1.9 package
        says "1.9.0").
      quantization: CTranslate2 weight type to save; defaults to the size's
        ("float32" for tiny, "int8" for base).  Any value accepted by
        ``ctranslate2.specs.ModelSpec.optimize``.
      keeps_placeholders: the placeholder-keeping mode (see :data:`PLACEHOLDER_CHARS`).
    """
    out_file = Path(out_file)
    with tempfile.TemporaryDirectory(prefix="zhen-fakemodel-") as tmp:
        pkg_dir = build_package_dir(
            Path(tmp),
            corpus,
            size=size,
            seed=seed,
            from_code=from_code,
            to_code=to_code,
            package_version=package_version,
            target_prefix=target_prefix,
            vocab_size=vocab_size,
            argos_version=argos_version,
            quantization=quantization,
            keeps_placeholders=keeps_placeholders,
        )
        out_file.parent.mkdir(parents=True, exist_ok=True)
        _zip_dir(pkg_dir, out_file)
    return out_file


def build_package_dir(
    parent: Path,
    corpus: Iterable[str],
    *,
    size: str = "tiny",
    seed: int = 0,
    from_code="zh",
    to_code="en",
    package_version="1.0",
    target_prefix: str = "",
    vocab_size: int | None = None,
    argos_version: str = "1.9.0",
    quantization: str | None = None,
    keeps_placeholders: bool = False,
) -> Path:
    """Like :func:`build_package` but leaves the unzipped package folder in
    ``parent`` (i.e. what ``install_from_path`` would extract) and returns its
    path.  Handy for benchmarks that load ``<dir>/model`` directly."""
    try:
        shape = SIZES[size]
    except KeyError:
        raise ValueError(f"unknown size {size!r}; choose one of {sorted(SIZES)}") from None
    if vocab_size is not None:
        shape = replace(shape, vocab_size=vocab_size)
    if quantization is not None:
        shape = replace(shape, quantization=quantization)

    lines = [line.strip() for line in corpus]
    lines = [line for line in lines if line]
    if not lines:
        raise ValueError("corpus is empty")

    sp_model, n_padding = _train_sentencepiece(lines, shape.vocab_size, target_prefix, seed)
    vocab = _ct2_vocabulary(sp_model)
    if shape.vocab_size is not None and len(vocab) != shape.vocab_size:  # pragma: no cover
        raise AssertionError(f"vocabulary has {len(vocab)} entries, wanted {shape.vocab_size}")
    if target_prefix and target_prefix not in vocab:  # pragma: no cover
        raise AssertionError("target prefix missing from vocabulary")

    pkg_dir = Path(parent) / package_dir_name(from_code, to_code, package_version)
    if pkg_dir.exists():
        shutil.rmtree(pkg_dir)
    (pkg_dir / "model").mkdir(parents=True)

    _save_ct2_model(pkg_dir / "model", vocab, shape, seed, keeps_placeholders)
    (pkg_dir / "sentencepiece.model").write_bytes(sp_model)

    metadata = {
        "package_version": package_version,
        "argos_version": argos_version,
        "from_code": from_code,
        "from_name": LANGUAGE_NAMES.get(from_code, from_code),
        "to_code": to_code,
        "to_name": LANGUAGE_NAMES.get(to_code, to_code),
    }
    if target_prefix:
        metadata["target_prefix"] = target_prefix
    (pkg_dir / "metadata.json").write_text(json.dumps(metadata, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")

    corpus_digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    readme = f"""# {metadata['from_name']}-{metadata['to_name']} (SYNTHETIC TEST MODEL)

This is a synthetic test package built by zhen's test support (`tests/support/fakemodel.py`). It is NOT a
translation model: every weight is seeded random noise, so it produces
deterministic nonsense. It exists so that tests and benchmarks can exercise the
real argos-translate / CTranslate2 / SentencePiece code paths offline.

- size: {size} ({shape.encoder_layers}+{shape.decoder_layers} layers, d_model {shape.d_model}, \
{shape.num_heads} heads, FFN {shape.ffn_dim}, weights {shape.quantization})
- vocabulary: {len(vocab)} entries ({n_padding} unused padding pieces)
- seed: {seed}
- keeps placeholders: {"yes (placeholder pieces suppressed in the output projection)" if keeps_placeholders else "no"}
- corpus: {len(lines)} lines, sha256 {corpus_digest}
"""
    (pkg_dir / "README.md").write_text(readme, encoding="utf-8")
    return pkg_dir


# --------------------------------------------------------------------------
# SentencePiece


def _train_sentencepiece(
    lines: list[str], vocab_size: int | None, target_prefix: str, seed: int
) -> tuple[bytes, int]:
    """Train a unigram model on ``lines``; return (model bytes, padding count).

    ``vocab_size`` is the final CTranslate2 vocabulary size (which is the
    SentencePiece size + 1, since OpenNMT-py adds <blank>)."""
    import sentencepiece as spm

    user_symbols = [target_prefix] if target_prefix else []
    # SentencePiece refuses a vocab_size below its required characters; count
    # them (upper bound) on NFKC text, which is what its normalizer sees.
    distinct = len({ch for line in lines for ch in unicodedata.normalize("NFKC", line) if not ch.isspace()})
    floor = distinct + _SP_META_PIECES + len(user_symbols) + 2  # + "▁"; margin
    if vocab_size is None:
        wanted = max(_DEFAULT_SP_PIECES, floor + 32)
    else:
        wanted = vocab_size - (len(OPENNMT_SPECIALS) - _SP_META_PIECES)
        if wanted < _SP_META_PIECES + len(user_symbols) + 2:
            raise ValueError(f"vocab_size {vocab_size} is too small")

    def train(n: int) -> bytes:
        buf = io.BytesIO()
        with open(os.devnull, "w") as devnull:
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(lines),
                model_writer=buf,
                vocab_size=n,
                hard_vocab_limit=False,  # small corpora: take what they yield
                model_type="unigram",
                character_coverage=0.9995,
                user_defined_symbols=user_symbols,
                max_sentence_length=1 << 16,
                input_sentence_size=0,
                shuffle_input_sentence=False,
                num_threads=1,
                logstream=devnull,
            )
        return buf.getvalue()

    try:
        model = train(wanted)
    except RuntimeError as exc:
        m = re.search(r"smaller than required_chars\. (\d+) vs (\d+)", str(exc))
        if not m:
            raise
        required = int(m.group(2)) + _SP_META_PIECES + len(user_symbols) + 1
        if vocab_size is not None:
            raise ValueError(
                f"vocab_size {vocab_size} is smaller than the corpus needs "
                f"(at least {required + 1}); pass a bigger vocab_size"
            ) from exc
        model = train(required + 32)

    n_padding = 0
    if vocab_size is not None:
        proc = spm.SentencePieceProcessor(model_proto=model)
        have = proc.get_piece_size()
        n_padding = wanted - have
        if n_padding < 0:  # pragma: no cover - SentencePiece honours the limit
            raise AssertionError("SentencePiece produced more pieces than asked")
        existing = {proc.id_to_piece(i) for i in range(have)}
        model += b"".join(
            _sp_piece_record(piece, -1000.0, _SP_TYPE_UNUSED)
            for piece in _pseudo_words(n_padding, existing, seed)
        )
    return model, n_padding


_SP_TYPE_UNUSED = 5  # sentencepiece ModelProto.SentencePiece.Type.UNUSED


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _sp_piece_record(piece: str, score: float, piece_type: int) -> bytes:
    """Serialized ``ModelProto.pieces`` entry (field 1) for one piece."""
    text = piece.encode("utf-8")
    body = b"\x0a" + _varint(len(text)) + text  # piece = 1 (string)
    body += b"\x15" + struct.pack("<f", score)  # score = 2 (float)
    body += b"\x18" + _varint(piece_type)  # type = 3 (enum)
    return b"\x0a" + _varint(len(body)) + body


_ONSETS = ("", "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
           "br", "ch", "cl", "dr", "gr", "pl", "pr", "sh", "st", "th", "tr")
_NUCLEI = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou")
_CODAS = ("", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ng")


def _pseudo_words(count: int, exclude: set[str], seed: int) -> list[str]:
    """``count`` distinct pronounceable pieces not in ``exclude``: 70% are
    word-initial (``▁``-prefixed), the rest continuation pieces."""
    rng = np.random.default_rng([seed, 0x5EED])
    seen = set(exclude)
    words: list[str] = []
    while len(words) < count:
        batch = 2 * (count - len(words)) + 16
        n_syl = rng.integers(1, 4, batch)
        onsets = rng.integers(len(_ONSETS), size=(batch, 3))
        nuclei = rng.integers(len(_NUCLEI), size=(batch, 3))
        codas = rng.integers(len(_CODAS), size=(batch, 3))
        initial = rng.random(batch) < 0.7
        for k in range(batch):
            word = "".join(
                _ONSETS[onsets[k, j]] + _NUCLEI[nuclei[k, j]] + _CODAS[codas[k, j]] for j in range(n_syl[k])
            )
            if initial[k]:
                word = "\u2581" + word
            if word not in seen:
                seen.add(word)
                words.append(word)
                if len(words) == count:
                    break
    return words


def _ct2_vocabulary(sp_model: bytes) -> list[str]:
    """OpenNMT-py specials followed by the non-control SentencePiece pieces."""
    import sentencepiece as spm

    proc = spm.SentencePieceProcessor(model_proto=sp_model)
    vocab = list(OPENNMT_SPECIALS)
    for i in range(proc.get_piece_size()):
        if proc.is_control(i) or proc.is_unknown(i):
            continue
        vocab.append(proc.id_to_piece(i))
    if len(set(vocab)) != len(vocab):  # pragma: no cover
        raise AssertionError("duplicate vocabulary entries")
    return vocab


# --------------------------------------------------------------------------
# CTranslate2 model


def _sinusoids(max_len: int, dim: int) -> np.ndarray:
    """OpenNMT-py's PositionalEncoding table (sin on even, cos on odd dims)."""
    position = np.arange(max_len, dtype=np.float64)[:, None]
    div_term = np.exp(np.arange(0, dim, 2, dtype=np.float64) * -(np.log(10000.0) / dim))
    pe = np.zeros((max_len, dim), dtype=np.float64)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe.astype(np.float32)


class _Init:
    """Seeded weight factory.  Linear weights ~ N(0, 1/fan_in), so the
    residual stream stays O(1) and outputs depend on the input; embeddings
    ~ N(0, 1/d_model) (CTranslate2 scales them by sqrt(d_model)); biases are
    small noise; layer norms gamma=1, beta=0."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def normal(self, shape, std: float) -> np.ndarray:
        out = self.rng.standard_normal(shape, dtype=np.float32)
        out *= np.float32(std)
        return out

    def linear(self, spec, out_dim: int, in_dim: int) -> None:
        spec.weight = self.normal((out_dim, in_dim), in_dim**-0.5)
        spec.bias = self.normal((out_dim,), 0.02)

    @staticmethod
    def layer_norm(spec, dim: int) -> None:
        spec.gamma = np.ones((dim,), dtype=np.float32)
        spec.beta = np.zeros((dim,), dtype=np.float32)

    def attention(self, spec, d: int, self_attention: bool) -> None:
        self.layer_norm(spec.layer_norm, d)
        if self_attention:  # fused q,k,v then output
            self.linear(spec.linear[0], 3 * d, d)
            self.linear(spec.linear[1], d, d)
        else:  # query, fused k,v, output
            self.linear(spec.linear[0], d, d)
            self.linear(spec.linear[1], 2 * d, d)
            self.linear(spec.linear[2], d, d)

    def ffn(self, spec, d: int, ffn: int) -> None:
        self.layer_norm(spec.layer_norm, d)
        self.linear(spec.linear_0, ffn, d)
        self.linear(spec.linear_1, d, ffn)


#: Placeholder-keeping mode. The output projection's bias of every target piece holding one
#: of these characters is set very low, so the decoder never emits placeholder material
#: (``ZX3``, or a stray ``Z``/``X``/digit next to one) by itself. A caller that forces each
#: segment's placeholder pieces as a target prefix (CTranslate2 ``target_prefix``) then
#: gets every placeholder exactly once, as from a trained model that copies them, and the
#: rest is noise as usual. Without the mode, the noise breaks nearly every placeholder.
def _placeholder_chars() -> frozenset[str]:
    from zhenglossary.placeholders import PREFIX

    return frozenset(PREFIX.upper() + PREFIX.lower() + "0123456789")


PLACEHOLDER_CHARS = _placeholder_chars()


def _build_spec(vocab: list[str], shape: ModelShape, seed: int, keeps_placeholders: bool = False):
    from ctranslate2.specs import TransformerSpec

    spec = TransformerSpec.from_config((shape.encoder_layers, shape.decoder_layers), shape.num_heads)
    # Same as the OpenNMT-py converter.
    spec.config.decoder_start_token = "<s>"
    d, v = shape.d_model, len(vocab)
    init = _Init(seed)
    positions = _sinusoids(shape.max_positions, d)

    enc = spec.encoder
    for emb in enc.embeddings:
        emb.weight = init.normal((v, d), d**-0.5)
    enc.position_encodings.encodings = positions
    init.layer_norm(enc.layer_norm, d)
    for layer in enc.layer:
        init.attention(layer.self_attention, d, self_attention=True)
        init.ffn(layer.ffn, d, shape.ffn_dim)

    dec = spec.decoder
    dec.embeddings.weight = init.normal((v, d), d**-0.5)
    dec.position_encodings.encodings = positions.copy()
    init.layer_norm(dec.layer_norm, d)
    for layer in dec.layer:
        init.attention(layer.self_attention, d, self_attention=True)
        init.attention(layer.attention, d, self_attention=False)
        init.ffn(layer.ffn, d, shape.ffn_dim)
    init.linear(dec.projection, v, d)
    if keeps_placeholders:
        bias = dec.projection.bias
        for i, piece in enumerate(vocab):
            if PLACEHOLDER_CHARS.intersection(piece):
                bias[i] = -1e4

    spec.register_source_vocabulary(vocab)
    spec.register_target_vocabulary(vocab)
    spec.validate()  # raises if any required weight was left unset
    return spec


def _save_ct2_model(model_dir: Path, vocab: list[str], shape: ModelShape, seed: int,
                    keeps_placeholders: bool = False) -> None:
    spec = _build_spec(vocab, shape, seed, keeps_placeholders)
    # Same steps as ctranslate2.converters.Converter.convert(): alias equal
    # variables, quantize (int8 stores int8 weights + float32 scales), save.
    spec.optimize(quantization=shape.quantization)
    spec.save(str(model_dir))


# --------------------------------------------------------------------------
# zip


def _zip_dir(pkg_dir: Path, out_file: Path) -> None:
    """Zip ``pkg_dir`` (as its own top-level folder) deterministically, with
    directory entries like ``shutil.make_archive`` writes."""
    root = pkg_dir.parent
    entries = [pkg_dir] + sorted(pkg_dir.rglob("*"))
    tmp_out = out_file.with_name(out_file.name + ".part")
    with zipfile.ZipFile(tmp_out, "w") as zf:
        for path in entries:
            name = path.relative_to(root).as_posix()
            if path.is_dir():
                info = zipfile.ZipInfo(name + "/", date_time=_ZIP_DATE)
                info.external_attr = (0o40755 << 16) | 0x10
                zf.writestr(info, b"")
            else:
                info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
                info.external_attr = 0o100644 << 16
                # model.bin is stored: seeded noise compresses by <10% and
                # deflating 100 MB would double the base build time.
                stored = path.name == "model.bin"
                zf.writestr(
                    info,
                    path.read_bytes(),
                    compress_type=zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED,
                )
    os.replace(tmp_out, out_file)


# --------------------------------------------------------------------------
# the placeholder-keeping engine


def placeholder_prefix_engine(package, *, drop_every: int = 0, **options):
    """zhen's ``ArgosEngine`` for a model built with ``keeps_placeholders=True``: every
    CTranslate2 call forces each segment's own placeholders (``ZX1 ZX2`` …, in source
    order) as its target prefix, so each hypothesis holds each placeholder exactly once,
    as a trained model's copy would. Everything else is zhen's engine unchanged: the
    decoding steps (the prefix counts towards ``max_decoding_length``), batching and
    decoding cost what they cost.

    A cap on the decoding length (``max_decoding_length``, the benchmarks' stand-in for a
    trained model's ``</s>``, which random weights never emit) never cuts a forced prefix:
    a call whose longest prefix reaches the cap decodes one token past that prefix. (A
    trained model does not stop before the placeholders it copies; cutting them made
    segments with a dozen terms fall back for the fake's sake alone.)

    ``drop_every`` N > 0: a segment whose text's CRC-32 is divisible by N gets no prefix,
    so its hypotheses hold none of its placeholders and zhen takes the piece-wise fallback
    for it — a model that drops placeholders in about one segment in N (stable across runs
    and processes)."""
    import zlib

    from zhenglossary.engines.argos import ArgosEngine
    from zhenglossary.placeholders import exact_in

    class PlaceholderPrefixEngine(ArgosEngine):
        def translate_tokens(self, batch, num_hypotheses, asynchronous=False):
            prefixes = []
            for tokens in batch:
                text = self._sp.decode_pieces(tokens)
                found = exact_in(text)
                if drop_every and zlib.crc32(text.encode("utf-8")) % drop_every == 0:
                    found = []
                prefixes.append(self._sp.encode(" ".join(found), out_type=str) if found else [])
            opts = self.batch_options(batch, num_hypotheses)
            longest = max((len(p) for p in prefixes), default=0)
            if longest >= opts["max_decoding_length"]:
                opts["max_decoding_length"] = longest + 1
            return self._translator.translate_batch(batch, target_prefix=prefixes,
                                                    asynchronous=asynchronous, **opts)

    return PlaceholderPrefixEngine(package, **options)
