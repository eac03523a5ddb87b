"""Stage 1 of :mod:`semfp.dask` and the files of a block: the inputs enumerated in the tool's
order and cut at line boundaries into blocks; each block's fingerprint file (``fp-NNNNN.npz`` in
the work directory, stamped with the options digest and the block's signature so that a rerun
reuses it); atomic writes (temp file, fsync, rename) of every file the package writes."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from typing import Any, Sequence

import numpy as np

from .. import MAX_DOCUMENT_SIZE, Options


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
