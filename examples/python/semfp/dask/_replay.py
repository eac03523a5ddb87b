"""Stage 5 of :mod:`semfp.dask`: the tool's clusterer replayed on a group of connected components,
in input order (``SinglePassClusterer``, or ``TwoStageClusterer`` with sketches)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import Options, _semfp
from ._blocks import Block, _all_fps
from ._shuffle import _signatures, _verifies


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
