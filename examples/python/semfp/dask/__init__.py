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

Modules (private; the public names are those of this page): ``_blocks`` (stage 1, block files,
atomic writes), ``_shuffle`` (stage 2: block keys, band tags, shuffle files), ``_candidates``
(stage 3), ``_replay`` (stage 5), ``_write`` (stage 6) and ``_pipeline`` (the stages in order).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

from .. import MAX_DOCUMENT_SIZE, Options
from ._blocks import Block
from ._pipeline import _run

__all__ = ["Block", "dedup", "main"]


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
