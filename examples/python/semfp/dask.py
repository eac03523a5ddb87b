"""Distributed near-duplicate detection on Dask whose output equals ``semfp dedup``.

``semfp.dask.dedup(inputs, out_dir)`` writes ``out_dir/part-NNNNN.jsonl`` (one file per input
block, in input order); their concatenation is byte for byte what ``semfp dedup --out`` writes
for the same inputs and options, and ``keep-NNNNN.jsonl`` concatenate to ``semfp dedup --keep``.

Why the result equals one single-machine pass
---------------------------------------------
Single-Pass clustering decides a document by the earlier documents within the Hamming radius
(centres, or members with ``match_members``). All of them lie in the document's connected
component of the within-radius graph, so replaying the clusterer on each component in input
order gives every document the decision of the global pass; components never interact, so one
clusterer may replay many components interleaved. Clusters are then numbered by the input
position of their centres, as the tool numbers them.

Stages (each a set of Dask tasks; the client keeps only per-document integer arrays)
1. Enumerate the inputs in the tool's order and cut them at line boundaries into blocks.
2. Fingerprint blocks on the workers with the tool's reader (``fp-NNNNN.npz`` in the work
   directory, stamped with the options digest: a rerun skips every finished block). The same
   task writes the block's side of the shuffle (``sh-NNNNN.bin``, same stamp plus the partition
   count): the fingerprint is cut into radius + 1 bit ranges (block keys), each key hashed to
   a candidate partition, and for every partition the (row, fingerprint) records of the
   documents with a key there are stored together.
3. Candidate pairs per partition: two fingerprints within the radius agree exactly on one
   block key (pigeonhole), so they meet in the partition of that key. A candidate task reads
   only its partition's slice of every block's shuffle file, collapses identical fingerprints
   and verifies candidates exactly with a HammingIndex.
4. Connected components of the verified edges (union-find).
5. Replay SinglePassClusterer per group of components, in input order.
6. Fetch the ids of the centres that documents of other blocks name (one task per block that
   holds such centres, reading its own ids), then write the part files (and keep files), each
   atomically; a write task reads only its own block's ids.

``link="components"`` skips the replay: every component is one cluster whose centre is its first
document in input order (plain connected components at the radius, single linkage).

Two stages (``Options.verify == "sketch"``, the default, as ``semfp dedup --verify sketch``)
--------------------------------------------------------------------------------------------
The tool then runs ``semfp::TwoStageClusterer``: the candidates of a document are the earlier
centres within the radius and those whose MinHash sketch shares a band tag with its sketch, and
the library's two-stage rule decides each. The argument above holds with edges "candidate pair
that the rule accepts": every centre the global pass accepts for a document is joined to it by
such an edge, so it lies in the document's component, and a replay of the same clusterer per
group of components in input order decides alike. So the fingerprint task also computes the
sketches (one pass, ``semfp.signature``) and stores them in the block files; its shuffle file
carries, besides the block keys, each document's band tags hashed to partitions and the block's
signatures (read by row); a candidate task pairs the documents within the radius and those that
share a tag in its partition, and keeps the pairs the rule accepts (``semfp.TwoStageRule``: the
binding of the library's rule with the tool's radius; no number is copied here). Edges beyond
the accepted ones only merge components, which keeps the replay exact: this is how a band tag
shared by more than ``_GROUP_LIMIT`` documents of a partition is handled with single-pass (the
documents are chained, not paired). With ``link="components"`` every shared-tag pair is decided.

Command line: ``python3 -m semfp.dask INPUT... --out DIR [--scheduler tcp://host:8786]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import sys
import tempfile
import time
from typing import Any, Sequence

import numpy as np

from . import MAX_DOCUMENT_SIZE, Options, _engine_of, _semfp

__all__ = ["Block", "dedup", "main"]

_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xC2B2AE3D27D4EB4F)


@dataclasses.dataclass(frozen=True)
class Block:
    """A byte range of one input file that starts and ends at line boundaries."""

    index: int
    path: str
    start: int
    end: int
    first_line: int
    format: str
    max_document_size: int = MAX_DOCUMENT_SIZE


# ---- stage 1: enumerate and cut -----------------------------------------------------------------

def _format_of(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    return "jsonl" if ext in (".jsonl", ".json", ".ndjson") else "lines"


def _cut(paths: Sequence[str], block_bytes: int, forced_format: str | None,
         max_document_size: int = MAX_DOCUMENT_SIZE) -> list[Block]:
    blocks: list[Block] = []
    for path in paths:
        if path == "-" or os.path.isdir(path):
            raise ValueError(f"semfp.dask reads JSON Lines and line files, not {path!r}")
        fmt = forced_format or _format_of(path)
        if fmt not in ("jsonl", "lines"):
            raise ValueError(f"semfp.dask reads JSON Lines and line files, not format {fmt!r}")
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            start, line = 0, 1
            while start < size:
                f.seek(start)
                end = min(start + block_bytes, size)
                if end < size:
                    f.seek(end)
                    rest = b""
                    while True:  # extend to the next line break
                        chunk = f.read(1 << 16)
                        if not chunk:
                            end = size
                            break
                        nl = chunk.find(b"\n")
                        if nl >= 0:
                            end += len(rest) + nl + 1
                            break
                        rest += chunk
                f.seek(start)
                data = f.read(end - start)
                blocks.append(Block(len(blocks), path, start, end, line, fmt, max_document_size))
                line += data.count(b"\n")
                start = end
    return blocks


# ---- stage 2: fingerprint blocks -------------------------------------------------------------------

def _fp_path(work_dir: str, block: Block) -> str:
    return os.path.join(work_dir, f"fp-{block.index:05d}.npz")


def _block_signature(block: Block) -> str:
    st = os.stat(block.path)
    return json.dumps([os.path.abspath(block.path), block.start, block.end, block.first_line, block.format,
                       st.st_size, st.st_mtime_ns, block.max_document_size])


def _read_block(block: Block) -> bytes:
    with open(block.path, "rb") as f:
        f.seek(block.start)
        return f.read(block.end - block.start)


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_MODE = _file_mode()  # what a new file gets from open(), as the tool's outputs


def _atomic_write(path: str, data: bytes) -> None:
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=d)
    try:
        os.fchmod(fd, _MODE)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _load_fp(work_dir: str, block: Block, digest: str, keys: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The arrays ``keys`` (default all) of a block's finished file, or None when it is missing or
    stale. Members of an .npz are read on demand, so a stage that needs only the fingerprints does
    not read the ids."""
    path = _fp_path(work_dir, block)
    try:
        with np.load(path) as z:
            if str(z["digest"]) != digest or str(z["signature"]) != _block_signature(block):
                return None
            return {k: z[k] for k in (z.files if keys is None else keys)}
    except (OSError, ValueError, KeyError):
        return None


def _nbytes(*arrays: Any) -> int:
    return int(sum(getattr(a, "nbytes", 0) for a in arrays))


def _sh_path(work_dir: str, block: Block) -> str:
    return os.path.join(work_dir, f"sh-{block.index:05d}.bin")


_SH_MAGIC = b"SEMFPSH2"


def _verifies(options: Options) -> bool:
    return options.verify == "sketch"


def _sh_layout(meta: dict[str, Any], table: int) -> dict[str, int]:
    """Offsets of the sections of a shuffle file whose header JSON is ``meta`` and whose table of
    partition starts begins at ``table``."""
    p, words = meta["partitions"], meta["bits"] // 64
    lay = {"table": table, "record": 4 + 8 * words + (8 if meta["sketch"] else 0)}
    lay["records"] = table + 8 * (p + 1)
    lay["tag_table"] = lay["records"] + lay["record"] * meta["records"]
    if not meta["sketch"]:
        lay["end"] = lay["tag_table"]
        return lay
    lay["tags"] = lay["tag_table"] + 8 * (p + 1)
    lay["signatures"] = lay["tags"] + 8 * meta["tag_records"]
    lay["signature"] = 8 * words + _SKETCH
    lay["end"] = lay["signatures"] + lay["signature"] * meta["rows"]
    return lay


def _sh_header(path: str) -> tuple[dict[str, Any], dict[str, int]] | None:
    """The header of a block's shuffle file and the offsets of its sections, or None. Layout:
    magic, header length (4 bytes), header JSON (digest, signature, partitions, bits, sketch,
    records, rows, tag_records), then
    - partitions + 1 record indices (8 bytes each: where each partition's records start) and the
      records of every partition in order (rows as 4 bytes, then the fingerprints, then with
      sketches a 64-bit hash of the whole signature), so a reader of one partition reads the
      header, 16 bytes of the table and its records only;
    - with sketches: the same for the band tags (a table, then per partition the rows as 4
      bytes and the 32-bit tags), and the signatures of all the block's documents in row order
      (fingerprint words, then the 132 sketch bytes), read by row."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) != 12 or head[:8] != _SH_MAGIC:
                return None
            size = int.from_bytes(head[8:], "little")
            meta = json.loads(f.read(size))
            lay = _sh_layout(meta, 12 + size)
            if os.fstat(f.fileno()).st_size != lay["end"]:
                return None  # not the file that was written
            lay["header_bytes"] = 12 + size
            return meta, lay
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _sh_valid(meta: dict[str, Any] | None, block: Block, digest: str, partitions: int) -> bool:
    return (meta is not None and meta.get("digest") == digest and meta.get("signature") == _block_signature(block)
            and meta.get("partitions") == partitions)


_SKETCH = 132  # bytes of a sketch (semfp.signature)


def _mix(h: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        h = h * _MIX1
        h ^= h >> np.uint64(31)
        h *= _MIX2
        h ^= h >> np.uint64(29)
    return h


def _signature_hash(fps: np.ndarray, sketches: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each document's whole signature (fingerprint and sketch): documents with
    equal hashes are taken as identical signatures, which every rule decision treats alike."""
    n = sketches.shape[0]
    words = [fps.reshape(n, -1)[:, j] for j in range(fps.reshape(n, -1).shape[1])]
    packed = np.ascontiguousarray(sketches).view("<u4")
    words += [packed[:, j].astype(np.uint64) for j in range(packed.shape[1])]
    h = np.full(n, 0x243F6A8885A308D3, dtype=np.uint64)
    for w in words:
        h = _mix(h ^ w)
    return h


def _tag_partitions(tags: np.ndarray, count: int) -> np.ndarray:
    """The candidate partition of each 32-bit band tag (platform-independent)."""
    with np.errstate(over="ignore"):
        return _mix(tags.astype(np.uint64) + np.uint64(0x5851F42D4C957F2D)) % np.uint64(count)


def _write_shuffle(block: Block, fps: np.ndarray, sketches: np.ndarray | None, options: Options, partitions: int,
                   work_dir: str) -> None:
    """The shuffle output of one block: for every candidate partition, the (row, fingerprint)
    records of the block's documents with a block key in that partition, each document once per
    partition. With sketches also the (row, tag) records of each band tag by the partition of the
    tag, and the block's signatures. One file, partitions in order, so that a candidate task reads
    its slices only."""
    verify = _verifies(options)
    n = int(fps.shape[0])
    keys = _partitions_of(fps, options.bits, options.radius, partitions)
    sig_hash = _signature_hash(fps, sketches) if verify else None
    starts, chunks = [0], []
    for part in range(partitions):
        rows = np.nonzero((keys == np.uint64(part)).any(axis=1))[0]
        starts.append(starts[-1] + int(rows.size))
        chunks.append(rows.astype(np.uint32).tobytes())
        chunks.append(np.ascontiguousarray(fps[rows]).tobytes())
        if verify:
            chunks.append(sig_hash[rows].tobytes())
    meta: dict[str, Any] = {"digest": options.digest, "signature": _block_signature(block), "partitions": partitions,
                            "bits": options.bits, "sketch": verify, "records": starts[-1], "rows": n}
    tail = b""
    if verify:
        tags, nonempty = _rule(options).band_tags(sketches)
        bands = tags.shape[1]
        rows = np.repeat(np.arange(n, dtype=np.uint32), bands)
        flat = tags.reshape(-1)
        keep = np.repeat(nonempty, bands)  # empty sketches are not banded
        rows, flat = rows[keep], flat[keep]
        part_of = _tag_partitions(flat, partitions)
        order = np.lexsort((flat, rows, part_of))
        rows, flat, part_of = rows[order], flat[order], part_of[order]
        fresh = np.ones(rows.size, dtype=bool)  # one record per (row, tag)
        fresh[1:] = (rows[1:] != rows[:-1]) | (flat[1:] != flat[:-1])
        rows, flat, part_of = rows[fresh], flat[fresh], part_of[fresh]
        bounds = np.searchsorted(part_of, np.arange(partitions + 1, dtype=np.uint64))
        tag_chunks = [np.asarray(bounds, dtype="<u8").tobytes()]
        for part in range(partitions):
            lo, hi = int(bounds[part]), int(bounds[part + 1])
            tag_chunks += [rows[lo:hi].tobytes(), flat[lo:hi].astype(np.uint32).tobytes()]
        signatures = np.concatenate([np.ascontiguousarray(fps).reshape(n, -1).view(np.uint8),
                                     np.ascontiguousarray(sketches, dtype=np.uint8)], axis=1)
        tail = b"".join(tag_chunks) + signatures.tobytes()
        meta["tag_records"] = int(rows.size)
    head = json.dumps(meta).encode()
    table = np.array(starts, dtype="<u8").tobytes()
    _atomic_write(_sh_path(work_dir, block),
                  _SH_MAGIC + len(head).to_bytes(4, "little") + head + table + b"".join(chunks) + tail)


def _rule(options: Options) -> Any:
    """The tool's two-stage rule for these options (the library's numbers, via the binding)."""
    return _semfp.Rule(options.bits, options.radius)


def _fingerprint_block(block: Block, options: Options, partitions: int, work_dir: str) -> tuple[int, int, bool]:
    """Fingerprints one block (with sketches when ``options.verify`` is "sketch") and splits its
    records by candidate partition (or reuses the finished files); returns (documents, problems,
    reused)."""
    verify = _verifies(options)
    done = _load_fp(work_dir, block, options.digest, ("fps", "problems", "sketches"))
    if done is not None:
        header = _sh_header(_sh_path(work_dir, block))
        if not _sh_valid(header[0] if header else None, block, options.digest, partitions):
            _write_shuffle(block, done["fps"], done["sketches"] if verify else None, options, partitions,
                           work_dir)  # another partition count
        return int(done["fps"].shape[0]), int(done["problems"]), True
    fps, ids, lines, problems, _, sketches = _engine_of(options).fingerprint_jsonl(
        _read_block(block), block.format, options.id_field, options.text_field, options.encoding,
        options.html_text, block.path, block.first_line, False, 1, block.max_document_size, verify)
    offsets = np.zeros(len(ids) + 1, dtype=np.uint64)
    if ids:
        offsets[1:] = np.cumsum([len(i) for i in ids], dtype=np.uint64)
    buf = io.BytesIO()
    np.savez(buf, fps=fps, lines=lines, id_bytes=np.frombuffer(b"".join(ids), dtype=np.uint8),
             id_offsets=offsets, problems=np.int64(len(problems)), digest=np.str_(options.digest),
             signature=np.str_(_block_signature(block)),
             sketches=sketches if verify else np.zeros((0, _SKETCH), dtype=np.uint8))
    _atomic_write(_fp_path(work_dir, block), buf.getvalue())
    _write_shuffle(block, fps, sketches, options, partitions, work_dir)
    return int(fps.shape[0]), len(problems), False


def _ids_of(z: dict[str, Any]) -> list[bytes]:
    raw = z["id_bytes"].tobytes()
    off = z["id_offsets"]
    return [raw[int(off[i]):int(off[i + 1])] for i in range(len(off) - 1)]


def _all_fps(blocks: Sequence[Block], options: Options, work_dir: str) -> np.ndarray:
    parts = []
    for b in blocks:
        z = _load_fp(work_dir, b, options.digest, ("fps",))
        if z is None:
            raise RuntimeError(f"fingerprints of block {b.index} are missing or stale")
        parts.append(z["fps"])
    shape = (0,) if options.bits == 64 else (0, 2)
    return np.concatenate(parts) if parts else np.zeros(shape, dtype=np.uint64)


def _header(block: Block, options: Options, partitions: int, work_dir: str) -> dict[str, int]:
    """The section offsets of a block's valid shuffle file (RuntimeError when missing or stale)."""
    header = _sh_header(_sh_path(work_dir, block))
    if not _sh_valid(header[0] if header else None, block, options.digest, partitions):
        raise RuntimeError(f"shuffle output of block {block.index} is missing or stale")
    return header[1]  # type: ignore[index]


def _signatures(ordinals: np.ndarray, blocks: Sequence[Block], offsets: np.ndarray, options: Options,
                partitions: int, work_dir: str, layouts: dict[int, dict[str, int]] | None = None
                ) -> tuple[np.ndarray, np.ndarray, int]:
    """Fingerprints and sketches of the documents with the given global ordinals (any order),
    read by row from the blocks' signature sections, and the bytes read."""
    n = ordinals.size
    words = options.bits // 64
    fps = np.zeros((n, words), dtype=np.uint64)
    sketches = np.zeros((n, _SKETCH), dtype=np.uint8)
    read = 0
    if n:
        block_of = np.searchsorted(offsets[1:], ordinals, side="right")
        for b in np.unique(block_of).tolist():
            lay = (layouts or {}).get(b) or _header(blocks[b], options, partitions, work_dir)
            if layouts is None:
                read += lay["header_bytes"]
            at = np.nonzero(block_of == b)[0]
            rows = (ordinals[at] - offsets[b]).astype(np.int64)
            count = int(offsets[b + 1] - offsets[b])
            table = np.memmap(_sh_path(work_dir, blocks[b]), dtype=np.uint8, mode="r", offset=lay["signatures"],
                              shape=(count, lay["signature"]))
            got = np.asarray(table[rows])
            del table
            fps[at] = got[:, :8 * words].copy().view(np.uint64)
            sketches[at] = got[:, 8 * words:]
            read += got.nbytes
    return (fps.reshape(-1) if words == 1 else fps), sketches, read


# ---- stage 3: candidates by exact block keys ------------------------------------------------------

def _key_ranges(bits: int, radius: int) -> list[tuple[int, int]]:
    """radius + 1 contiguous bit ranges [lo, hi) covering the fingerprint (bit 0 least significant)."""
    n = radius + 1
    edges = [bits * i // n for i in range(n + 1)]
    return [(edges[i], edges[i + 1]) for i in range(n)]


def _range_values(fps: np.ndarray, bits: int, lo: int, hi: int) -> np.ndarray:
    width = hi - lo
    mask = np.uint64((1 << width) - 1) if width < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    if bits == 64:
        return (fps >> np.uint64(lo)) & mask
    low, high = fps[:, 1], fps[:, 0]  # words: most significant first
    if hi <= 64:
        return (low >> np.uint64(lo)) & mask
    if lo >= 64:
        return (high >> np.uint64(lo - 64)) & mask
    below = 64 - lo  # bits taken from the low word
    return ((low >> np.uint64(lo)) | (high << np.uint64(below))) & mask


def _partitions_of(fps: np.ndarray, bits: int, radius: int, count: int) -> np.ndarray:
    """(n, radius + 1) partition numbers of the keys of every fingerprint (platform-independent)."""
    cols = []
    with np.errstate(over="ignore"):
        for j, (lo, hi) in enumerate(_key_ranges(bits, radius)):
            h = _range_values(fps, bits, lo, hi) * _MIX1 + np.uint64(j + 1) * _MIX2
            h ^= h >> np.uint64(31)
            h *= _MIX1
            h ^= h >> np.uint64(29)
            cols.append(h % np.uint64(count))
    return np.stack(cols, axis=1) if cols else np.zeros((fps.shape[0], 0), dtype=np.uint64)


def _read_partition(block: Block, part: int, options: Options, partitions: int, work_dir: str,
                    lay: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int]:
    """Rows, fingerprints (and, with sketches, signature hashes) of partition ``part`` in a
    block's shuffle file whose sections are at ``lay``, and the bytes read."""
    path = _sh_path(work_dir, block)
    words = options.bits // 64
    record = lay["record"]
    with open(path, "rb") as f:
        f.seek(lay["table"] + 8 * part)
        first, end = np.frombuffer(f.read(16), dtype="<u8").tolist()
        k = end - first
        f.seek(lay["records"] + record * first)
        data = f.read(record * k)
    if len(data) != record * k:
        raise RuntimeError(f"shuffle output of block {block.index} is truncated")
    rows = np.frombuffer(data, dtype=np.uint32, count=k)
    fps = np.frombuffer(data, dtype=np.uint64, count=k * words, offset=4 * k)
    hashes = np.frombuffer(data, dtype=np.uint64, count=k, offset=(4 + 8 * words) * k) if record > 4 + 8 * words \
        else None
    return rows, (fps if words == 1 else fps.reshape(k, 2)), hashes, 16 + len(data)


def _read_tags(block: Block, part: int, work_dir: str, lay: dict[str, int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Rows and band tags of partition ``part`` in a block's shuffle file, and the bytes read."""
    with open(_sh_path(work_dir, block), "rb") as f:
        f.seek(lay["tag_table"] + 8 * part)
        first, end = np.frombuffer(f.read(16), dtype="<u8").tolist()
        k = end - first
        # Each partition's records: its rows, then its tags; partitions follow each other.
        f.seek(lay["tags"] + 8 * first)
        data = f.read(8 * k)
    if len(data) != 8 * k:
        raise RuntimeError(f"shuffle output of block {block.index} is truncated")
    return (np.frombuffer(data, dtype=np.uint32, count=k), np.frombuffer(data, dtype=np.uint32, count=k, offset=4 * k),
            16 + len(data))


_GROUP_LIMIT = 2000
"""Documents sharing one band tag in a partition beyond which single-pass links them in a chain
without deciding their pairs (see ``_tag_pairs``)."""


def _tag_pairs(tags: np.ndarray, ords: np.ndarray, limit: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                np.ndarray]:
    """Pairs (a < b) of documents that share a band tag, and the chain links of groups larger
    than ``limit`` documents (None: no limit). Returns (a, b, chain_a, chain_b)."""
    empty = np.zeros(0, np.uint64)
    if tags.size < 2:
        return empty, empty, empty, empty
    order = np.lexsort((ords, tags))
    t, v = tags[order], ords[order]
    n = t.size
    start = np.ones(n, dtype=bool)
    start[1:] = t[1:] != t[:-1]
    first = np.nonzero(start)[0]
    gid = np.cumsum(start) - 1
    size = np.diff(np.append(first, n))[gid]
    pos = np.arange(n) - first[gid]
    big = size > limit if limit is not None else np.zeros(n, dtype=bool)
    a, b = [], []
    idx = np.nonzero((size >= 2) & ~big)[0]
    step = 1
    while idx.size:  # every pair once: (i, i + step) within a group, for each step
        idx = idx[pos[idx] + step < size[idx]]
        a.append(v[idx])
        b.append(v[idx + step])
        step += 1
    chain = np.nonzero(big & (pos + 1 < size))[0]
    return (np.concatenate(a) if a else empty, np.concatenate(b) if b else empty, v[chain], v[chain + 1])


def _candidates(part: int, count: int, blocks: Sequence[Block], offsets: np.ndarray, options: Options,
                work_dir: str, link: str = "single-pass") -> tuple[np.ndarray, np.ndarray, int, int]:
    """Edges (global ordinals) among the documents of partition ``part``, and the bytes the task
    read: its slice of every block's shuffle file, and (with sketches) the signatures of the
    documents in candidate pairs, nothing else. Without sketches an edge is a pair within the
    radius; with sketches a candidate pair (within the radius, or sharing a band tag) that the
    two-stage rule accepts."""
    bits = options.bits
    verify = _verifies(options)
    ords, parts, hashes, tag_ords, tag_vals, read = [], [], [], [], [], 0
    layouts: dict[int, dict[str, int]] = {}
    for b in blocks:
        lay = _header(b, options, count, work_dir)
        layouts[b.index] = lay
        read += lay["header_bytes"]
        rows, fps, h, r = _read_partition(b, part, options, count, work_dir, lay)
        ords.append(rows.astype(np.uint64) + offsets[b.index])
        parts.append(fps)
        hashes.append(h)
        read += r
        if verify:
            rows, tags, r = _read_tags(b, part, work_dir, lay)
            tag_ords.append(rows.astype(np.uint64) + offsets[b.index])
            tag_vals.append(tags)
            read += r
    empty = np.zeros(0, np.uint64)
    shape = (0,) if bits == 64 else (0, 2)
    mine = np.concatenate(ords) if ords else empty  # ascending: blocks, then rows
    sel = np.concatenate(parts) if parts else np.zeros(shape, dtype=np.uint64)
    a, b = _within_radius(part, count, mine, sel, np.concatenate(hashes) if verify and hashes else None, options)
    if not verify:
        return a, b, read, 0
    # Pairs sharing a band tag: a superset of what the band index of the tool's clusterer can
    # report (it compares 32-bit tags of any band).
    ta, tb, chain_a, chain_b = _tag_pairs(np.concatenate(tag_vals) if tag_vals else np.zeros(0, np.uint32),
                                          np.concatenate(tag_ords) if tag_ords else empty,
                                          _GROUP_LIMIT if link == "single-pass" else None)
    a, b = np.concatenate([a, ta]), np.concatenate([b, tb])
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pairs = np.unique(np.stack([lo, hi], axis=1), axis=0) if lo.size else np.zeros((0, 2), np.uint64)
    docs = np.unique(pairs)
    fps, sketches, sig_read = _signatures(docs, blocks, offsets, options, count, work_dir, layouts)
    ia, ib = np.searchsorted(docs, pairs[:, 0]), np.searchsorted(docs, pairs[:, 1])
    ok = _rule(options).accepts_many(fps[ia], sketches[ia], fps[ib], sketches[ib]) if pairs.size else \
        np.zeros(0, dtype=bool)
    return np.concatenate([pairs[ok, 0], chain_a]), np.concatenate([pairs[ok, 1], chain_b]), read, sig_read


def _within_radius(part: int, count: int, mine: np.ndarray, sel: np.ndarray, hashes: np.ndarray | None,
                   options: Options) -> tuple[np.ndarray, np.ndarray]:
    """The pairs within the radius among the partition's documents (global ordinals ``mine``,
    fingerprints ``sel``) that this partition owns. Identical documents are collapsed first (equal
    fingerprints; with ``hashes``, equal signatures), each joining its first occurrence."""
    bits, radius = options.bits, options.radius
    if mine.size == 0:
        return np.zeros(0, np.uint64), np.zeros(0, np.uint64)
    words = bits // 64
    ident = sel.reshape(-1, words) if hashes is None else np.concatenate([sel.reshape(-1, words), hashes[:, None]], 1)
    _, first, inverse = np.unique(ident, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    uniq = sel[first]
    rep = mine[first]
    dup_a, dup_b = mine, rep[inverse]
    index = _semfp.Index(bits, radius, options.digest)
    index.add_many(np.ascontiguousarray(uniq), np.arange(uniq.shape[0], dtype=np.uint64))
    rows, ids, _ = index.query_many(np.ascontiguousarray(uniq), radius)
    keep = rows < ids
    ra, rb = rows[keep].astype(np.int64), ids[keep].astype(np.int64)
    # Each pair is reported by one partition only: the one of the first block key the two share
    # (identical fingerprints share all, so the first). That partition holds both documents and
    # its index finds the pair, so the union of all partitions' edges loses nothing.
    dup_owner = _partitions_of(sel, bits, radius, count)[:, 0] == np.uint64(part)
    pair_owner = _first_shared_partition(uniq[ra], uniq[rb], bits, radius, count) == np.uint64(part)
    a = np.concatenate([dup_a[dup_owner], rep[ra[pair_owner]]])
    b = np.concatenate([dup_b[dup_owner], rep[rb[pair_owner]]])
    diff = a != b
    return a[diff], b[diff]


def _first_shared_partition(fa: np.ndarray, fb: np.ndarray, bits: int, radius: int, count: int) -> np.ndarray:
    """Partition of the first block key that each pair of fingerprints agrees on (every pair
    within the radius agrees on one)."""
    ranges = _key_ranges(bits, radius)
    equal = np.stack([_range_values(fa, bits, lo, hi) == _range_values(fb, bits, lo, hi) for lo, hi in ranges],
                     axis=1) if len(fa) else np.zeros((0, len(ranges)), dtype=bool)
    first = np.argmax(equal, axis=1)
    keys = _partitions_of(fa, bits, radius, count)
    return keys[np.arange(len(fa)), first] if len(fa) else np.zeros(0, np.uint64)


# ---- stage 5: replay -------------------------------------------------------------------------------

def _replay(ordinals: np.ndarray, blocks: Sequence[Block], offsets: np.ndarray, options: Options, partitions: int,
            work_dir: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    if _verifies(options):
        fps, sketches, read = _signatures(ordinals, blocks, offsets, options, partitions, work_dir)
        clusterer = _semfp.TwoStageClusterer(options.bits, options.radius, options.match_members, options.digest)
        centre, _, dist = clusterer.add_many(np.ascontiguousarray(fps), sketches,
                                             np.ascontiguousarray(ordinals, dtype=np.uint64))
        return ordinals, centre, dist, read
    fps = _all_fps(blocks, options, work_dir)
    sel = np.ascontiguousarray(fps[ordinals.astype(np.int64)])
    clusterer = _semfp.Clusterer(options.bits, options.radius, options.match_members, options.digest)
    centre, _, dist = clusterer.add_many(sel, np.ascontiguousarray(ordinals, dtype=np.uint64))
    return ordinals, centre, dist, fps.nbytes


# ---- stage 6: write --------------------------------------------------------------------------------

def _centre_ids(block: Block, rows: np.ndarray, options: Options, work_dir: str
                ) -> tuple[np.ndarray, np.ndarray, int]:
    """The ids of the given rows of a block (the centres that documents of other blocks name), as
    bytes and offsets, and the bytes read."""
    z = _load_fp(work_dir, block, options.digest, ("id_bytes", "id_offsets"))
    if z is None:
        raise RuntimeError(f"fingerprints of block {block.index} are missing or stale")
    raw, off = z["id_bytes"], z["id_offsets"].astype(np.int64)
    return (*_slice_ids(raw, off, rows.astype(np.int64)), _nbytes(raw, off))


def _slice_ids(raw: np.ndarray, off: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ids at positions ``idx`` of a (bytes, offsets) table, as a new table."""
    starts, lens = off[idx], off[idx + 1] - off[idx]
    out_off = np.zeros(idx.size + 1, dtype=np.int64)
    out_off[1:] = np.cumsum(lens)
    gather = np.repeat(starts - out_off[:-1], lens) + np.arange(int(out_off[-1]), dtype=np.int64)
    return raw[gather], out_off


def _write_block(block: Block, first: int, numbers: np.ndarray, centres: np.ndarray, dists: np.ndarray,
                 foreign: np.ndarray, foreign_raw: np.ndarray, foreign_off: np.ndarray, options: Options,
                 work_dir: str, out_dir: str, keep: bool) -> int:
    """Writes the part (and keep) file of ``block``; returns the bytes of ids it read. The ids of
    centres in other blocks come with the task (``foreign``: their sorted ordinals, and their ids
    as bytes and offsets); the task reads only its own block's ids."""
    id_keys = ("id_bytes", "id_offsets")
    z = _load_fp(work_dir, block, options.digest, id_keys)
    if z is None:
        raise RuntimeError(f"fingerprints of block {block.index} are missing or stale")
    read = _nbytes(*z.values())
    ids = _ids_of(z)
    local = centres.astype(np.int64) - first
    own = (local >= 0) & (local < len(ids))
    where = np.searchsorted(foreign, centres)
    raw = foreign_raw.tobytes()
    fo = foreign_off.tolist()
    centre_ids = [ids[i] if o else raw[fo[w]:fo[w + 1]]
                  for i, o, w in zip(local.tolist(), own.tolist(), where.tolist())]
    data = _semfp.format_dedup(ids, numbers, centre_ids, dists)
    _atomic_write(os.path.join(out_dir, f"part-{block.index:05d}.jsonl"), data)
    if keep:
        is_centre = centres == (np.arange(len(ids), dtype=np.uint64) + np.uint64(first))
        _, _, _, _, raws, _ = _engine_of(options).fingerprint_jsonl(
            _read_block(block), block.format, options.id_field, options.text_field, options.encoding,
            options.html_text, block.path, block.first_line, True, 1, block.max_document_size)
        kept = b"".join(raws[i] + b"\n" for i in np.nonzero(is_centre)[0])
        _atomic_write(os.path.join(out_dir, f"keep-{block.index:05d}.jsonl"), kept)
    return read


# ---- the pipeline ----------------------------------------------------------------------------------

def dedup(inputs: Sequence[str], out_dir: str, client: Any = None, *, options: Options | None = None,
          keep: bool = False, link: str = "single-pass", block_bytes: int = 32 << 20, partitions: int | None = None,
          work_dir: str | None = None, format: str | None = None, max_document_size: int = MAX_DOCUMENT_SIZE,
          **kw: Any) -> dict[str, Any]:
    """Deduplicates ``inputs`` (JSON Lines or line files, in this order) into ``out_dir``.

    Writes ``part-NNNNN.jsonl`` (and ``keep-NNNNN.jsonl`` with ``keep``) whose concatenation
    equals ``semfp dedup --out`` (``--keep``) with the same options. ``link`` is "single-pass"
    (the tool's clustering) or "components" (connected components at the radius). ``client`` is a
    ``distributed.Client``; None starts a LocalCluster of two worker processes. Finished blocks
    are kept in ``work_dir`` (default ``out_dir/.semfp-work``) with the options digest and reused by
    a rerun. Lines longer than ``max_document_size`` bytes are skipped and counted as problems, as
    the tool's ``--max-document-size`` does. ``partitions`` is the number of candidate
    partitions (default: from the input size and the workers). Returns counts (documents,
    clusters, problems, blocks reused, edges), the seconds of each stage and the bytes each stage
    read from the work directory, wrote, sent to its tasks and got back (``bytes``).
    """
    if link not in ("single-pass", "components"):
        raise ValueError("link must be 'single-pass' or 'components'")
    if max_document_size < 0:
        raise ValueError("max_document_size must not be negative")
    opts = (options or Options()).replace(**kw) if kw else (options or Options())
    os.makedirs(out_dir, exist_ok=True)
    work = work_dir or os.path.join(out_dir, ".semfp-work")
    os.makedirs(work, exist_ok=True)
    own = None
    if client is None:
        from distributed import Client, LocalCluster
        own = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(own)
    try:
        return _run(list(inputs), out_dir, client, opts, keep, link, block_bytes, partitions, work, format,
                    max_document_size)
    finally:
        if own is not None:
            client.close()
            own.close()


def _run(inputs: list[str], out_dir: str, client: Any, opts: Options, keep: bool, link: str, block_bytes: int,
         partitions: int | None, work: str, forced_format: str | None, max_document_size: int) -> dict[str, Any]:
    clock = [time.perf_counter()]
    seconds: dict[str, float] = {}

    def lap(name: str) -> None:
        now = time.perf_counter()
        seconds[name] = round(now - clock[0], 3)
        clock[0] = now

    blocks = _cut(inputs, block_bytes, forced_format, max_document_size)
    lap("cut")
    for name in os.listdir(out_dir):  # parts of an earlier run with more blocks
        if name.startswith(("part-", "keep-")) and name.endswith(".jsonl"):
            os.unlink(os.path.join(out_dir, name))
    # The candidate partitions are fixed before fingerprinting, because each fingerprint task
    # splits its block's records by partition. Documents are estimated at one per 512 input
    # bytes: small inputs get one partition per 20,000 of them, up to four per worker; large ones
    # one per 40,000, so that a candidate task holds a bounded share of the documents (a
    # document lies in about 1 - (1 - 1/p)^(radius + 1) of the partitions). A rerun with another
    # count re-splits the finished blocks from their fingerprints.
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    estimate = sum(b.end - b.start for b in blocks) // 512
    p = partitions or max(1, min(4096, max(min(4 * workers, 1 + estimate // 20000), estimate // 40000)))
    results = client.gather([client.submit(_fingerprint_block, b, opts, p, work, pure=False) for b in blocks])
    lap("fingerprint")
    counts = np.array([r[0] for r in results], dtype=np.uint64)
    offsets = np.zeros(len(blocks) + 1, dtype=np.uint64)
    offsets[1:] = np.cumsum(counts)
    n = int(offsets[-1])
    # What each stage moves, in bytes: read from the work directory by the tasks ("read"), sent to
    # the tasks as arguments ("sent") and returned to the client ("returned"). The candidate stage
    # is a key shuffle through the work directory: each fingerprint task wrote, per partition, the
    # records with a block key there; each candidate task reads only its partition's slices.
    volume: dict[str, int] = {
        "fingerprint_written": sum(os.path.getsize(_fp_path(work, b)) for b in blocks),
        "shuffle_written": sum(os.path.getsize(_sh_path(work, b)) for b in blocks)}
    edges = client.gather([client.submit(_candidates, i, p, blocks, offsets, opts, work, link, pure=False)
                           for i in range(p)])
    ea = np.concatenate([e[0] for e in edges]) if edges else np.zeros(0, np.uint64)
    eb = np.concatenate([e[1] for e in edges]) if edges else np.zeros(0, np.uint64)
    volume["candidates_read"] = sum(e[2] for e in edges)
    volume["candidates_signatures_read"] = sum(e[3] for e in edges)
    volume["candidates_returned"] = _nbytes(ea, eb)
    lap("candidates")
    label = _semfp.connected_components(n, ea, eb)
    lap("components")
    centre = np.empty(n, dtype=np.uint64)
    dist = np.zeros(n, dtype=np.uint32)
    if link == "components":
        centre[:] = label
        fps = _all_fps(blocks, opts, work)
        if n:
            x = fps ^ fps[label.astype(np.int64)]
            dist[:] = np.unpackbits(x.view(np.uint8).reshape(n, -1), axis=1).sum(axis=1)
    else:
        groups = max(1, min(p, 4 * workers))  # each replay task reads all fingerprints
        group_of = label % np.uint64(groups)
        members = [np.nonzero(group_of == np.uint64(g))[0].astype(np.uint64) for g in range(groups)]
        volume["replay_sent"] = _nbytes(*members)
        futures = [client.submit(_replay, m, blocks, offsets, opts, p, work, pure=False) for m in members]
        volume["replay_read"] = volume["replay_returned"] = 0
        for ords, c, d, r in client.gather(futures):
            centre[ords.astype(np.int64)] = c
            dist[ords.astype(np.int64)] = d
            volume["replay_read"] += r
            volume["replay_returned"] += _nbytes(ords, c, d)
    lap("replay")
    is_centre = centre == np.arange(n, dtype=np.uint64)
    number_of = np.cumsum(is_centre, dtype=np.uint64) - np.uint64(1)
    numbers = number_of[centre.astype(np.int64)] if n else np.zeros(0, np.uint64)
    # Ids of the centres that documents of other blocks name: read once, from their own blocks.
    block_of = np.searchsorted(offsets[1:], np.arange(n, dtype=np.uint64), side="right")
    centre_block = block_of[centre.astype(np.int64)] if n else block_of
    foreign = np.unique(centre[centre_block != block_of])
    foreign_block = np.searchsorted(offsets[1:], foreign, side="right")
    wanted = [(b, (foreign[foreign_block == b.index] - offsets[b.index]).astype(np.int64)) for b in blocks]
    wanted = [(b, rows) for b, rows in wanted if rows.size]
    got = client.gather([client.submit(_centre_ids, b, rows, opts, work, pure=False) for b, rows in wanted])
    volume["centre_ids_read"] = sum(g[2] for g in got)
    raws = [g[0] for g in got]
    lens = [np.diff(g[1]) for g in got]
    foreign_raw = np.concatenate(raws) if raws else np.zeros(0, np.uint8)
    foreign_off = np.zeros(foreign.size + 1, dtype=np.int64)
    if lens:
        foreign_off[1:] = np.cumsum(np.concatenate(lens))
    volume["centre_ids_returned"] = _nbytes(foreign_raw, foreign_off)
    lap("centre_ids")
    writes = []
    volume["write_sent"] = 0
    for b in blocks:
        lo, hi = int(offsets[b.index]), int(offsets[b.index + 1])
        c = centre[lo:hi]
        mine = np.unique(c[block_of[lo:hi] != centre_block[lo:hi]]) if hi > lo else foreign[:0]
        idx = np.searchsorted(foreign, mine)
        f_raw, f_off = _slice_ids(foreign_raw, foreign_off, idx)
        volume["write_sent"] += _nbytes(numbers[lo:hi], c, dist[lo:hi], mine, f_raw, f_off)
        writes.append(client.submit(_write_block, b, lo, numbers[lo:hi], c, dist[lo:hi], mine, f_raw, f_off, opts,
                                    work, out_dir, keep, pure=False))
    volume["write_read"] = sum(client.gather(writes))
    lap("write")
    return {"documents": n, "clusters": int(is_centre.sum()), "problems": int(sum(r[1] for r in results)),
            "blocks": len(blocks), "blocks_reused": int(sum(1 for r in results if r[2])), "edges": int(ea.size),
            "partitions": p, "seconds": seconds, "bytes": volume}


def _size(text: str) -> int:
    """A byte count as the tool reads ``--max-document-size``: digits, optionally k, M or G (1024^n)."""
    t = text.strip().lower()
    if t.endswith(("kb", "mb", "gb")):
        t = t[:-1]
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(t[-1:], 1)
    digits = (t[:-1] if scale > 1 else t).strip()
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"not a size: {text!r}")
    return int(digits) * scale


def main(argv: Sequence[str] | None = None) -> int:
    """``python3 -m semfp.dask INPUT... --out DIR [--scheduler ADDRESS] [options]``."""
    ap = argparse.ArgumentParser(prog="python3 -m semfp.dask", description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True, help="directory of part-NNNNN.jsonl files")
    ap.add_argument("--keep", action="store_true", help="also write keep-NNNNN.jsonl (the cluster centres)")
    ap.add_argument("--scheduler", help="address of a running dask scheduler (default: a local cluster)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the local cluster")
    ap.add_argument("--bits", type=int, default=64, choices=(64, 128))
    ap.add_argument("--tokenizer", default="default")
    ap.add_argument("--hash", default="default")
    ap.add_argument("--raw-hash", action="store_true")
    ap.add_argument("--hd", type=int)
    ap.add_argument("--match-members", action="store_true")
    ap.add_argument("--verify", default="sketch", choices=("none", "sketch"),
                    help="sketch (default): the two-stage rule of semfp dedup --verify sketch; none: distance alone")
    ap.add_argument("--link", default="single-pass", choices=("single-pass", "components"))
    ap.add_argument("--format", choices=("jsonl", "lines"))
    ap.add_argument("--id-field", default="id")
    ap.add_argument("--text-field", default="text")
    ap.add_argument("--encoding", default="auto")
    ap.add_argument("--html-text", default="main")
    ap.add_argument("--max-document-size", type=_size, default=MAX_DOCUMENT_SIZE,
                    help="longest line read as one document, bytes (suffixes k, M, G: powers of 1024; default 256M)")
    ap.add_argument("--block-mb", type=float, default=32.0)
    ap.add_argument("--work-dir")
    a = ap.parse_args(argv)
    opts = Options(bits=a.bits, tokenizer=a.tokenizer, hash=a.hash, raw_hash=a.raw_hash, hd=a.hd,
                   match_members=a.match_members, verify=a.verify, id_field=a.id_field, text_field=a.text_field,
                   encoding="utf-8" if a.encoding == "utf8" else a.encoding, html_text=a.html_text)
    from distributed import Client, LocalCluster
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        stats = dedup(a.inputs, a.out, client, options=opts, keep=a.keep, link=a.link,
                      block_bytes=max(1, int(a.block_mb * (1 << 20))), work_dir=a.work_dir, format=a.format,
                      max_document_size=a.max_document_size)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(json.dumps(stats), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
