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


_SH_MAGIC = b"SEMFPSH1"


def _sh_header(path: str) -> tuple[dict[str, Any], int] | None:
    """The header of a block's shuffle file and the file offset of its table of partition starts,
    or None. Layout: magic, header length (4 bytes), header JSON (digest, signature, partitions,
    bits), partitions + 1 record indices (8 bytes each: where each partition's records start),
    then the records of every partition in order (rows as 4 bytes, then the fingerprints), so a
    reader of one partition reads the header, 16 bytes of the table and its records only."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) != 12 or head[:8] != _SH_MAGIC:
                return None
            size = int.from_bytes(head[8:], "little")
            meta = json.loads(f.read(size))
            table = 12 + size
            f.seek(table + 8 * meta["partitions"])
            total = int.from_bytes(f.read(8), "little")
            record = 4 + meta["bits"] // 8
            if os.fstat(f.fileno()).st_size != table + 8 * (meta["partitions"] + 1) + record * total:
                return None  # not the file that was written
            return meta, table
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _sh_valid(meta: dict[str, Any] | None, block: Block, digest: str, partitions: int) -> bool:
    return (meta is not None and meta.get("digest") == digest and meta.get("signature") == _block_signature(block)
            and meta.get("partitions") == partitions)


def _write_shuffle(block: Block, fps: np.ndarray, options: Options, partitions: int, work_dir: str) -> None:
    """The shuffle output of one block: for every candidate partition, the (row, fingerprint)
    records of the block's documents with a block key in that partition, each document once per
    partition. One file, partitions in order, so that a candidate task reads its slice only."""
    keys = _partitions_of(fps, options.bits, options.radius, partitions)
    starts, chunks = [0], []
    for part in range(partitions):
        rows = np.nonzero((keys == np.uint64(part)).any(axis=1))[0]
        starts.append(starts[-1] + int(rows.size))
        chunks.append(rows.astype(np.uint32).tobytes())
        chunks.append(np.ascontiguousarray(fps[rows]).tobytes())
    meta = json.dumps({"digest": options.digest, "signature": _block_signature(block), "partitions": partitions,
                       "bits": options.bits}).encode()
    table = np.array(starts, dtype="<u8").tobytes()
    _atomic_write(_sh_path(work_dir, block),
                  _SH_MAGIC + len(meta).to_bytes(4, "little") + meta + table + b"".join(chunks))


def _fingerprint_block(block: Block, options: Options, partitions: int, work_dir: str) -> tuple[int, int, bool]:
    """Fingerprints one block and splits its records by candidate partition (or reuses the
    finished files); returns (documents, problems, reused)."""
    done = _load_fp(work_dir, block, options.digest, ("fps", "problems"))
    if done is not None:
        header = _sh_header(_sh_path(work_dir, block))
        if not _sh_valid(header[0] if header else None, block, options.digest, partitions):
            _write_shuffle(block, done["fps"], options, partitions, work_dir)  # another partition count
        return int(done["fps"].shape[0]), int(done["problems"]), True
    fps, ids, lines, problems, _ = _engine_of(options).fingerprint_jsonl(
        _read_block(block), block.format, options.id_field, options.text_field, options.encoding,
        options.html_text, block.path, block.first_line, False, 1, block.max_document_size)
    offsets = np.zeros(len(ids) + 1, dtype=np.uint64)
    if ids:
        offsets[1:] = np.cumsum([len(i) for i in ids], dtype=np.uint64)
    buf = io.BytesIO()
    np.savez(buf, fps=fps, lines=lines, id_bytes=np.frombuffer(b"".join(ids), dtype=np.uint8),
             id_offsets=offsets, problems=np.int64(len(problems)), digest=np.str_(options.digest),
             signature=np.str_(_block_signature(block)))
    _atomic_write(_fp_path(work_dir, block), buf.getvalue())
    _write_shuffle(block, fps, options, partitions, work_dir)
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


def _read_partition(block: Block, part: int, options: Options, partitions: int, work_dir: str
                    ) -> tuple[np.ndarray, np.ndarray, int]:
    """Rows and fingerprints of partition ``part`` in a block's shuffle file, and the bytes read."""
    path = _sh_path(work_dir, block)
    header = _sh_header(path)
    if not _sh_valid(header[0] if header else None, block, options.digest, partitions):
        raise RuntimeError(f"shuffle output of block {block.index} is missing or stale")
    _, table = header  # type: ignore[misc]
    words = options.bits // 64
    record = 4 + 8 * words
    with open(path, "rb") as f:
        f.seek(table + 8 * part)
        first, end = np.frombuffer(f.read(16), dtype="<u8").tolist()
        k = end - first
        f.seek(table + 8 * (partitions + 1) + record * first)
        data = f.read(record * k)
    if len(data) != record * k:
        raise RuntimeError(f"shuffle output of block {block.index} is truncated")
    rows = np.frombuffer(data, dtype=np.uint32, count=k)
    fps = np.frombuffer(data, dtype=np.uint64, count=k * words, offset=4 * k)
    return rows, (fps if words == 1 else fps.reshape(k, 2)), table + 16 + len(data)


def _candidates(part: int, count: int, blocks: Sequence[Block], offsets: np.ndarray, options: Options,
                work_dir: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Verified within-radius edges (global ordinals) among the documents of partition ``part``,
    and the bytes the task read: its slice of every block's shuffle file, nothing else."""
    bits, radius = options.bits, options.radius
    ords, parts, read = [], [], 0
    for b in blocks:
        rows, fps, r = _read_partition(b, part, options, count, work_dir)
        ords.append(rows.astype(np.uint64) + offsets[b.index])
        parts.append(fps)
        read += r
    shape = (0,) if bits == 64 else (0, 2)
    mine = np.concatenate(ords) if ords else np.zeros(0, np.uint64)  # ascending: blocks, then rows
    if mine.size == 0:
        return np.zeros(0, np.uint64), np.zeros(0, np.uint64), read
    sel = np.concatenate(parts) if parts else np.zeros(shape, dtype=np.uint64)
    # Identical fingerprints first: each joins its first occurrence; only distinct ones are searched.
    uniq, first, inverse = np.unique(sel, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
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
    return a[diff], b[diff], read


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

def _replay(ordinals: np.ndarray, blocks: Sequence[Block], options: Options, work_dir: str
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
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
        _, _, _, _, raws = _engine_of(options).fingerprint_jsonl(
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
    edges = client.gather([client.submit(_candidates, i, p, blocks, offsets, opts, work, pure=False) for i in range(p)])
    ea = np.concatenate([e[0] for e in edges]) if edges else np.zeros(0, np.uint64)
    eb = np.concatenate([e[1] for e in edges]) if edges else np.zeros(0, np.uint64)
    volume["candidates_read"] = sum(e[2] for e in edges)
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
        futures = [client.submit(_replay, m, blocks, opts, work, pure=False) for m in members]
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
                   match_members=a.match_members, id_field=a.id_field, text_field=a.text_field,
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
