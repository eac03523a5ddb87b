"""Stage 3 of :mod:`semfp.dask`: the edges of one candidate partition.

Two fingerprints within the radius agree exactly on one block key (pigeonhole), so they meet in
the partition of that key; each pair is reported by the partition of the first key the two share.
With sketches the documents sharing a band tag there are paired too, and a pair is an edge when
the two-stage rule accepts it."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import Options, _semfp
from ._blocks import Block
from ._shuffle import (_first_shared_partition, _header, _partitions_of, _read_partition, _read_tags, _rule,
                       _signatures, _verifies)


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
