"""semfp: near-duplicate detection for Chinese text with semantic fingerprints (Simhash).

The package runs the very engine of the ``semfp`` command-line tool (linked into the native
module ``semfp._semfp``), so a fingerprint computed here equals the hexadecimal value that
``semfp fingerprint`` prints for the same text and options, and :mod:`semfp.dask` writes the bytes
``semfp dedup`` writes.

Everything that depends on the fingerprint pipeline takes one :class:`Options` value. Its
:attr:`Options.digest` (options, semfp version and, with sketches, their format) is stamped on
every saved or pickled artifact; loading an artifact made with other options or by another semfp
version raises :class:`Error`.

Functions
---------
fingerprint(text, bits=64, **options)          -> int
fingerprint_many(texts, bits=64, **options)    -> numpy.ndarray of uint64, (n,) or (n, 2)
fingerprint_jsonl(data, bits=64, **options)    -> JsonlResult(fingerprints, ids, lines, problems[, sketches])
signature(text, bits=64, **options)            -> (int, 132-byte sketch)
signature_many(texts, bits=64, **options)      -> (fingerprints, (n, 132) uint8 sketches)
hamming_distance(a, b)                          -> int

Classes
-------
Options, SinglePassClusterer, TwoStageClusterer, TwoStageRule, HammingIndex, Error

Two stages. ``Options.verify`` is "sketch" by default, as ``semfp dedup``'s ``--verify``: a pair
within ``hd`` bits, or within the rule's wider radius whose MinHash sketches are similar enough,
is a near-duplicate (the library's ``semfp::two_stage_rule``, see :class:`TwoStageRule`).
``verify="none"`` is Hamming distance alone.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from . import _semfp

__all__ = [
    "Error",
    "HammingIndex",
    "JsonlResult",
    "MAX_DOCUMENT_SIZE",
    "Options",
    "SinglePassClusterer",
    "TwoStageClusterer",
    "TwoStageRule",
    "fingerprint",
    "fingerprint_jsonl",
    "fingerprint_many",
    "hamming_distance",
    "signature",
    "signature_many",
    "estimated_jaccard",
    "__version__",
]

__version__: str = _semfp.version

#: Raised for corrupt or mismatched saved artifacts and invalid parameters (a ValueError).
Error = _semfp.Error

_TOKENIZERS = ("default", "bigram", "fmm")
_HASHES = ("default", "murmur", "fnv", "sdbm")
_ENCODINGS = ("auto", "utf-8", "gb18030")
_HTML_TEXT = ("main", "all")
_VERIFY = ("none", "sketch")


@dataclasses.dataclass(frozen=True)
class Options:
    """The fingerprint pipeline and clustering options, as one hashable value.

    The fields mirror the options of the ``semfp`` tool:

    bits            64 or 128 (``--bits``)
    tokenizer       "default", "bigram" or "fmm" (``--tokenizer``)
    hash            "default", "murmur", "fnv" or "sdbm" (``--hash``)
    raw_hash        token hashes without the finalizer (``--raw-hash``)
    hd              Hamming radius of clustering; None: the recommended one, 5 of 64 bits and
                    15 of 128 (``--hd``)
    match_members   compare with every member, not only centres (``--match-members``)
    verify          "sketch" (default; the two-stage rule, :class:`TwoStageRule`) or "none"
                    (Hamming distance alone) (``--verify``)
    id_field, text_field, encoding ("auto", "utf-8", "gb18030"), html_text ("main", "all"):
                    how JSON Lines input is read (``--id-field`` ...)
    """

    bits: int = 64
    tokenizer: str = "default"
    hash: str = "default"
    raw_hash: bool = False
    hd: int | None = None
    match_members: bool = False
    id_field: str = "id"
    text_field: str = "text"
    encoding: str = "auto"
    html_text: str = "main"
    verify: str = "sketch"

    def __post_init__(self) -> None:
        if self.bits not in (64, 128):
            raise ValueError("bits must be 64 or 128")
        for name, allowed in (("tokenizer", _TOKENIZERS), ("hash", _HASHES), ("encoding", _ENCODINGS),
                              ("html_text", _HTML_TEXT), ("verify", _VERIFY)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        limit = _semfp.max_threshold_64 if self.bits == 64 else _semfp.max_threshold_128
        if self.hd is not None and not 0 <= self.hd <= limit:
            raise ValueError(f"hd must lie in 0..{limit} for {self.bits}-bit fingerprints")

    @property
    def radius(self) -> int:
        """The Hamming radius in effect (``hd`` or the recommended distance)."""
        if self.hd is not None:
            return self.hd
        return _semfp.recommended_distance_64 if self.bits == 64 else _semfp.recommended_distance_128

    @property
    def digest(self) -> str:
        """A stable 16-hex-digit digest of the options (radius resolved), the semfp version and, with
        sketches, the signature format: the digest ``semfp dedup --state`` stamps for the same
        options."""
        fields = dataclasses.asdict(self)
        fields["hd"] = self.radius
        fields["semfp"] = __version__
        if self.verify == "none":
            del fields["verify"]  # as the tool's options text: "verify" only for two stages
        else:  # work files with sketches of another format are not reused
            fields["sketch_format"] = _semfp.signature_format_version
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def replace(self, **changes: Any) -> "Options":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def cli_args(self) -> list[str]:
        """The ``semfp`` tool arguments that select these options."""
        args = ["--bits", str(self.bits)]
        if self.tokenizer != "default":
            args += ["--tokenizer", self.tokenizer]
        if self.hash != "default":
            args += ["--hash", self.hash]
        if self.raw_hash:
            args.append("--raw-hash")
        args += ["--verify", self.verify]
        args += ["--id-field", self.id_field, "--text-field", self.text_field, "--encoding", self.encoding,
                 "--html-text", self.html_text]
        return args


def _options(options: Options | None, bits: int | None, kwargs: dict[str, Any]) -> Options:
    if options is None:
        options = Options()
    changes = dict(kwargs)
    if bits is not None:
        changes["bits"] = bits
    return options.replace(**changes) if changes else options


@functools.lru_cache(maxsize=16)
def _engine(bits: int, tokenizer: str, hash_: str, raw_hash: bool) -> Any:
    return _semfp.Engine(bits, tokenizer, hash_, raw_hash)


def _engine_of(o: Options) -> Any:
    return _engine(o.bits, o.tokenizer, o.hash, o.raw_hash)


def fingerprint(text: str | bytes, bits: int | None = None, *, options: Options | None = None, **kw: Any) -> int:
    """The Simhash fingerprint of ``text`` as an int (``bits`` wide).

    Equal to the hexadecimal value ``semfp fingerprint`` prints for a document with this text
    and the same options. ``bytes`` are taken as UTF-8 (invalid sequences count as U+FFFD); a
    ``str`` with lone surrogates raises ValueError. Any text, including an empty one, has a
    fingerprint.
    """
    o = _options(options, bits, kw)
    return _engine_of(o).fingerprint(text)


def fingerprint_many(texts: Sequence[str | bytes], bits: int | None = None, *, options: Options | None = None,
                     threads: int = 0, **kw: Any) -> np.ndarray:
    """Fingerprints of many texts: a uint64 array, shape (n,) for 64 bits, (n, 2) for 128 bits
    (most significant word first). Runs on ``threads`` threads (0: one per CPU) without the GIL.
    """
    o = _options(options, bits, kw)
    return _engine_of(o).fingerprint_many(texts, threads)


class JsonlResult(NamedTuple):
    """What :func:`fingerprint_jsonl` found: fingerprints and ids of the valid documents, their
    1-based line numbers, and the problems of bad lines as (line, message) pairs, all in input
    order; with ``sketches=True`` also the sketches, an (n, 132) uint8 array (else None)."""

    fingerprints: np.ndarray
    ids: list[str]
    lines: np.ndarray
    problems: list[tuple[int, str]]
    sketches: np.ndarray | None = None


MAX_DOCUMENT_SIZE = 256 << 20
"""The tool's default ``--max-document-size``: the longest line read as one document (bytes)."""


def fingerprint_jsonl(data: bytes, bits: int | None = None, *, options: Options | None = None, threads: int = 0,
                      format: str = "jsonl", max_document_size: int = MAX_DOCUMENT_SIZE, sketches: bool = False,
                      **kw: Any) -> JsonlResult:
    """Parses JSON Lines (or one document per line with ``format="lines"``) exactly as the
    ``semfp`` tool reads a file and fingerprints every valid document. JSON is parsed in C++
    without the GIL. Bad lines (malformed JSON, missing fields, NUL bytes, lines longer than
    ``max_document_size`` bytes as the tool's ``--max-document-size``) are skipped and listed in
    ``problems``; invalid UTF-8 is decoded as the tool decodes it and also listed. With
    ``sketches``, the sketches ``semfp dedup --verify sketch`` computes come too.
    """
    o = _options(options, bits, kw)
    if max_document_size < 0:
        raise ValueError("max_document_size must not be negative")
    fps, ids, lines, problems, _, sk = _engine_of(o).fingerprint_jsonl(
        bytes(data), format, o.id_field, o.text_field, o.encoding, o.html_text, "<bytes>", 1, False, threads,
        max_document_size, sketches)
    return JsonlResult(fps, [i.decode("utf-8", "surrogateescape") for i in ids], lines, problems, sk)


def signature(text: str | bytes, bits: int | None = None, *, options: Options | None = None,
              **kw: Any) -> tuple[int, bytes]:
    """The fingerprint of ``text`` (equal to :func:`fingerprint`) and the MinHash sketch of the
    same tokens, from one pass: what ``semfp dedup --verify sketch`` computes for a document. The
    sketch is 132 bytes, its saved form (128 payload bytes, then a 32-bit little-endian word:
    occurrences in the low 26 bits, the size of an exact set of at most 32 hashes in the top 6)."""
    o = _options(options, bits, kw)
    return _engine_of(o).signature(text)


def signature_many(texts: Sequence[str | bytes], bits: int | None = None, *, options: Options | None = None,
                   threads: int = 0, **kw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Signatures of many texts: the fingerprints (as :func:`fingerprint_many`) and an (n, 132)
    uint8 array of sketches (one row per text, as :func:`signature`'s bytes)."""
    o = _options(options, bits, kw)
    return _engine_of(o).signature_many(texts, threads)


def _as_sketches(sketches: Any) -> np.ndarray:
    if isinstance(sketches, (bytes, bytearray)):
        sketches = [sketches]
    if isinstance(sketches, (list, tuple)):
        return np.frombuffer(b"".join(bytes(s) for s in sketches), dtype=np.uint8).reshape(-1, 132)
    return np.ascontiguousarray(sketches, dtype=np.uint8)


class TwoStageRule:
    """The near-duplicate rule of ``semfp dedup --verify sketch`` at ``options.bits`` and
    ``options.radius`` (the library's ``semfp::two_stage_rule::recommended``, with the radius as
    its accept distance). Its numbers are read from the library, never copied:

    radius            candidates within this many bits may be accepted on their sketches
    accept_distance   pairs this close are accepted without the sketch (unless a text is short)
    min_similarity    smallest estimated Jaccard similarity of a verified pair
    short_features, short_similarity   the same for texts with fewer tokens than short_features
    bands, rows       the sketch bands of the candidate stage (semfp::SketchBandIndex)
    """

    def __init__(self, options: Options | None = None, **kw: Any) -> None:
        self.options = _options(options, None, kw)
        self._impl = _semfp.Rule(self.options.bits, self.options.radius)
        for name in ("radius", "accept_distance", "min_similarity", "short_features", "short_similarity", "bands",
                     "rows"):
            setattr(self, name, getattr(self._impl, name))

    def accepts(self, fps_a: Any, sketches_a: Any, fps_b: Any, sketches_b: Any) -> np.ndarray:
        """For each i, whether documents (fps_a[i], sketches_a[i]) and (fps_b[i], sketches_b[i])
        are near-duplicates under the rule: a bool array."""
        bits = self.options.bits
        return self._impl.accepts_many(_as_fps(fps_a, bits), _as_sketches(sketches_a), _as_fps(fps_b, bits),
                                       _as_sketches(sketches_b))

    def band_tags(self, sketches: Any) -> tuple[np.ndarray, np.ndarray]:
        """The 32-bit band tags the candidate stage compares, (n, bands) uint32, and whether each
        sketch is non-empty (empty sketches are not banded)."""
        return self._impl.band_tags(_as_sketches(sketches))


def estimated_jaccard(a: bytes, b: bytes) -> float:
    """The similarity estimate of two sketches (exact for two short texts' exact sketches)."""
    return _semfp.estimated_jaccard(_as_sketches(a), _as_sketches(b))


def hamming_distance(a: int, b: int) -> int:
    """Number of differing bits of two fingerprints given as ints."""
    return (int(a) ^ int(b)).bit_count()


def _as_fps(fps: Any, bits: int) -> np.ndarray:
    if isinstance(fps, (list, tuple)) and fps and isinstance(fps[0], int):
        if bits == 64:
            return np.array(fps, dtype=np.uint64)
        return np.array([[f >> 64, f & 0xFFFFFFFFFFFFFFFF] for f in fps], dtype=np.uint64).reshape(-1, 2)
    return np.ascontiguousarray(fps, dtype=np.uint64)


def _as_ids(ids: Iterable[int] | None, n: int, first: int) -> np.ndarray:
    if ids is None:
        return np.arange(first, first + n, dtype=np.uint64)
    return np.ascontiguousarray(ids, dtype=np.uint64)


class SinglePassClusterer:
    """The paper's Single-Pass clustering over fingerprints (semfp::SinglePassClusterer).

    Each fingerprint joins the cluster of the nearest centre (or member, with
    ``options.match_members``) within ``options.radius``, or starts a new cluster. Clusters are
    identified by the id of their centre. Saved files and pickles carry ``options.digest``.
    """

    def __init__(self, options: Options | None = None, **kw: Any) -> None:
        self.options = _options(options, None, kw)
        o = self.options
        self._impl = _semfp.Clusterer(o.bits, o.radius, o.match_members, o.digest)

    def __len__(self) -> int:
        return len(self._impl)

    @property
    def cluster_count(self) -> int:
        """Number of clusters (centres)."""
        return self._impl.cluster_count()

    def add_many(self, fps: Any, ids: Iterable[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Adds fingerprints in order (ids default to len(self), len(self)+1, ...). Returns
        (centre id, is_new, distance) arrays, one row per fingerprint. Ids must be new."""
        a = _as_fps(fps, self.options.bits)
        return self._impl.add_many(a, _as_ids(ids, a.shape[0], len(self)))

    def query_many(self, ids: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """The centre id of the cluster of each id, and whether the id is known."""
        return self._impl.query_many(np.ascontiguousarray(ids, dtype=np.uint64))

    def save(self, path: str) -> None:
        """Writes the clusterer atomically (temporary file + rename), stamped with the digest."""
        self._impl.save(str(path))

    @classmethod
    def load(cls, path: str, options: Options | None = None, **kw: Any) -> "SinglePassClusterer":
        """Reads a saved clusterer; raises Error when it was saved with other options."""
        c = cls(options, **kw)
        c._impl.load(str(path))
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_clusterer, (self.options, self._impl.state()))


def _restore_clusterer(options: Options, state: bytes) -> SinglePassClusterer:
    c = SinglePassClusterer(options)
    c._impl.set_state(state)
    return c


class TwoStageClusterer:
    """Single-Pass clustering of signatures under the two-stage rule (semfp::TwoStageClusterer
    with :class:`TwoStageRule`): what ``semfp dedup --verify sketch`` runs. Candidates are the
    centres (members, with ``options.match_members``) within ``options.radius`` bits and those
    whose sketch shares a band; the nearest one the rule accepts wins, ties by the earliest."""

    def __init__(self, options: Options | None = None, **kw: Any) -> None:
        self.options = _options(options, None, kw)
        o = self.options
        self._impl = _semfp.TwoStageClusterer(o.bits, o.radius, o.match_members, o.digest)

    def __len__(self) -> int:
        return len(self._impl)

    @property
    def cluster_count(self) -> int:
        return self._impl.cluster_count()

    def add_many(self, fps: Any, sketches: Any, ids: Iterable[int] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Adds signatures in order (as :func:`signature_many` returns them; ids default to
        len(self), ...). Returns (centre id, is_new, distance) arrays. Ids must be ascending."""
        a = _as_fps(fps, self.options.bits)
        return self._impl.add_many(a, _as_sketches(sketches), _as_ids(ids, a.shape[0], len(self)))

    def query_many(self, ids: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        """The centre id of the cluster of each id, and whether the id is known."""
        return self._impl.query_many(np.ascontiguousarray(ids, dtype=np.uint64))

    def save(self, path: str) -> None:
        self._impl.save(str(path))

    @classmethod
    def load(cls, path: str, options: Options | None = None, **kw: Any) -> "TwoStageClusterer":
        c = cls(options, **kw)
        c._impl.load(str(path))
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_two_stage, (self.options, self._impl.state()))


def _restore_two_stage(options: Options, state: bytes) -> TwoStageClusterer:
    c = TwoStageClusterer(options)
    c._impl.set_state(state)
    return c


class HammingIndex:
    """Exact Hamming-radius search over fingerprints (semfp::HammingIndex), any radius up to
    ``max_k`` (default: ``options.radius``)."""

    def __init__(self, options: Options | None = None, max_k: int | None = None, **kw: Any) -> None:
        self.options = _options(options, None, kw)
        self._impl = _semfp.Index(self.options.bits, self.options.radius if max_k is None else max_k,
                                  self.options.digest)

    def __len__(self) -> int:
        return len(self._impl)

    @property
    def max_k(self) -> int:
        return self._impl.max_k

    def add_many(self, fps: Any, ids: Iterable[int] | None = None) -> None:
        """Inserts fingerprints with ids (default len(self), len(self)+1, ...)."""
        a = _as_fps(fps, self.options.bits)
        self._impl.add_many(a, _as_ids(ids, a.shape[0], len(self)))

    def query_many(self, fps: Any, k: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All indexed fingerprints within ``k`` (default max_k) of each query: parallel arrays
        (query row, id, distance)."""
        return self._impl.query_many(_as_fps(fps, self.options.bits), self.max_k if k is None else k)

    def save(self, path: str) -> None:
        """Writes the index atomically, stamped with the options digest."""
        self._impl.save(str(path))

    @classmethod
    def load(cls, path: str, options: Options | None = None, max_k: int | None = None, **kw: Any) -> "HammingIndex":
        """Reads a saved index; raises Error when it was saved with other options."""
        ix = cls(options, max_k, **kw)
        ix._impl.load(str(path))
        return ix

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_index, (self.options, self.max_k, self._impl.state()))


def _restore_index(options: Options, max_k: int, state: bytes) -> HammingIndex:
    ix = HammingIndex(options, max_k)
    ix._impl.set_state(state)
    return ix
