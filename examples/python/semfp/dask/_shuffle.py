"""Stage 2 of :mod:`semfp.dask`: the fingerprint task and the shuffle file it writes.

A fingerprint is cut into radius + 1 bit ranges (block keys); each key is hashed to a candidate
partition, as is each band tag of a sketch. A block's shuffle file (``sh-NNNNN.bin``) holds, per
partition, the records of the block's documents with a key (or a tag) there, and the block's
signatures by row, so that a candidate task reads only its partition's slices (``_sh_header``
describes the layout)."""

from __future__ import annotations

import io
import json
import os
from typing import Any, Sequence

import numpy as np

from .. import Options, _engine_of, _semfp
from ._blocks import Block, _atomic_write, _block_signature, _fp_path, _load_fp, _read_block


_MIX1 = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xC2B2AE3D27D4EB4F)
_SH_MAGIC = b"SEMFPSH2"
_SKETCH = 132  # bytes of a sketch (semfp.signature)


def _verifies(options: Options) -> bool:
    return options.verify == "sketch"


def _rule(options: Options) -> Any:
    """The tool's two-stage rule for these options (the library's numbers, via the binding)."""
    return _semfp.Rule(options.bits, options.radius)


def _sh_path(work_dir: str, block: Block) -> str:
    return os.path.join(work_dir, f"sh-{block.index:05d}.bin")


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


def _header(block: Block, options: Options, partitions: int, work_dir: str) -> dict[str, int]:
    """The section offsets of a block's valid shuffle file (RuntimeError when missing or stale)."""
    header = _sh_header(_sh_path(work_dir, block))
    if not _sh_valid(header[0] if header else None, block, options.digest, partitions):
        raise RuntimeError(f"shuffle output of block {block.index} is missing or stale")
    return header[1]  # type: ignore[index]


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


def _first_shared_partition(fa: np.ndarray, fb: np.ndarray, bits: int, radius: int, count: int) -> np.ndarray:
    """Partition of the first block key that each pair of fingerprints agrees on (every pair
    within the radius agrees on one)."""
    ranges = _key_ranges(bits, radius)
    equal = np.stack([_range_values(fa, bits, lo, hi) == _range_values(fb, bits, lo, hi) for lo, hi in ranges],
                     axis=1) if len(fa) else np.zeros((0, len(ranges)), dtype=bool)
    first = np.argmax(equal, axis=1)
    keys = _partitions_of(fa, bits, radius, count)
    return keys[np.arange(len(fa)), first] if len(fa) else np.zeros(0, np.uint64)


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
