"""The stages of :mod:`semfp.dask` run as Dask tasks, in order; the client keeps only per-document
integer arrays (cluster decisions) and the counts, seconds and bytes of each stage."""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from .. import Options, _semfp
from ._blocks import _all_fps, _cut, _fp_path, _nbytes
from ._candidates import _candidates
from ._replay import _replay
from ._shuffle import _fingerprint_block, _sh_path
from ._write import _centre_ids, _slice_ids, _write_block


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
