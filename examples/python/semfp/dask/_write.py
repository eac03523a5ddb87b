"""Stage 6 of :mod:`semfp.dask`: the ids of the centres that documents of other blocks name, and the
part (and keep) file of each block, written atomically."""

from __future__ import annotations

import os

import numpy as np

from .. import Options, _engine_of, _semfp
from ._blocks import Block, _atomic_write, _ids_of, _load_fp, _nbytes, _read_block


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
