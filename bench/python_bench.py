#!/usr/bin/python3
"""Benchmarks of the Python package (run with the built package on PYTHONPATH):

  PYTHONPATH=build/<dir>/examples/python /usr/bin/python3 bench/python_bench.py \
      --tool build/<dir>/examples/semfp [--docs 200000] [--corpus ../shared/corpus]

1. fingerprint_many overhead: `semfp.fingerprint_many(texts, threads=1)` against the same engine's
   loop over the same texts timed inside C++ (`Engine.time_native_loop`), in the same run; medians
   of 7 alternating repetitions, wall clock.
2. Dask on a LocalCluster of 2 worker processes against `semfp dedup --threads 2` on a planted
   corpus (wall clock, peak RSS per worker, bytes the candidate stage reads), and 1 against 2
   workers. The outputs are compared byte for byte.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import semfp
import semfp.dask


def corpus_texts(corpus: str) -> list[str]:
    texts = []
    for name in ("manpages_zh_cn.jsonl", "manpages_zh_tw_twins.jsonl"):
        with open(os.path.join(corpus, name), encoding="utf-8") as f:
            texts += [json.loads(line)["text"] for line in f if line.strip()]
    return texts


def overhead(texts: list[str]) -> None:
    engine = semfp._engine_of(semfp.Options())
    py_t, cc_t = [], []
    for _ in range(7):
        t0 = time.perf_counter()
        semfp.fingerprint_many(texts, threads=1)
        py_t.append(time.perf_counter() - t0)
        cc_t.append(engine.time_native_loop(texts))
    p, c = statistics.median(py_t), statistics.median(cc_t)
    mb = sum(len(t.encode()) for t in texts) / 1e6
    print(f"| fingerprint_many, {len(texts)} docs ({mb:.1f} MB), 1 thread | Python {p * 1e3:.1f} ms | "
          f"C++ loop {c * 1e3:.1f} ms | overhead {100 * (p / c - 1):+.1f} % |")
    short = [t[:200] for t in texts] * 20
    py_t, cc_t = [], []
    for _ in range(7):
        t0 = time.perf_counter()
        semfp.fingerprint_many(short, threads=1)
        py_t.append(time.perf_counter() - t0)
        cc_t.append(engine.time_native_loop(short))
    p, c = statistics.median(py_t), statistics.median(cc_t)
    print(f"| fingerprint_many, {len(short)} short docs (200 chars), 1 thread | Python {p * 1e3:.1f} ms | "
          f"C++ loop {c * 1e3:.1f} ms | overhead {100 * (p / c - 1):+.1f} % |")


def planted(path: str, docs: int, seed: int = 7) -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples", "python", "tests"))
    from test_dask import planted_corpus  # the generator of the tests
    planted_corpus(path, docs // 9 + 1, seed)


def worker_peak_rss(client) -> list[float]:
    rss = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return [v / 1024 for v in rss.values()]


def dask_vs_tool(tool: str, docs: int) -> None:
    from distributed import Client, LocalCluster
    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "planted.jsonl")
        planted(corpus, docs)
        n = sum(1 for _ in open(corpus, "rb"))
        size = os.path.getsize(corpus) / 1e6
        out = os.path.join(tmp, "tool.jsonl")
        t0 = time.perf_counter()
        subprocess.run([tool, "dedup", "--quiet", "--threads", "2", "--out", out, corpus], check=True)
        tool_s = time.perf_counter() - t0
        tool_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"| semfp dedup --threads 2 | {n} docs, {size:.0f} MB | {tool_s:.1f} s | peak RSS {tool_rss:.0f} MB |")
        expected = open(out, "rb").read()
        for workers in (1, 2):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
            d = os.path.join(tmp, f"dask{workers}")
            t0 = time.perf_counter()
            stats = semfp.dask.dedup([corpus], d, client, block_bytes=8 << 20)
            secs = time.perf_counter() - t0
            rss = worker_peak_rss(client)
            client.close()
            cluster.close()
            got = b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(d, "part-*.jsonl"))))
            parts = stats.get("partitions", "?")
            read_mb = (parts if isinstance(parts, int) else 0) * 2 * n * 8 / 1e6
            print(f"| semfp.dask, {workers} worker(s) | {n} docs | {secs:.1f} s | peak RSS per worker "
                  f"{', '.join(f'{r:.0f}' for r in rss)} MB | {stats['blocks']} blocks, {parts} partitions, "
                  f"candidate+replay tasks read {read_mb:.0f} MB of fingerprints, {stats['edges']} edges | "
                  f"equal to the tool: {got == expected} |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--docs", type=int, default=200_000)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    ap.add_argument("--skip-dask", action="store_true")
    a = ap.parse_args()
    overhead(corpus_texts(a.corpus))
    if not a.skip_dask:
        dask_vs_tool(a.tool, a.docs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
