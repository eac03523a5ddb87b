#!/usr/bin/python3
"""Benchmarks of the Python package (run with the built package on PYTHONPATH):

  PYTHONPATH=build/<dir>/examples/python /usr/bin/python3 bench/python_bench.py \
      --tool build/<dir>/examples/semfp/semfp [--docs 1000000] [--corpus ../shared/corpus] \
      [--skip-overhead] [--skip-dask] [--workers 1,2] [--keep-corpus PATH] [--reps N] \
      [--compare MODULE]

1. fingerprint_many overhead: `semfp.fingerprint_many(texts, threads=1)` against the same engine's
   loop over the same texts timed inside C++ (`Engine.time_native_loop`), in the same run; medians
   of 7 alternating repetitions, wall clock.
2. Dask on a LocalCluster of 1 and 2 worker processes (1 thread each) against
   `semfp dedup --threads 2` on a planted corpus of --docs short documents (200-320 characters
   built from the corpus's sentences; near-duplicate chains, near and exact copies and
   singletons, shuffled so that related documents lie in different blocks). Prints wall time and
   the stages' seconds, peak RSS of every worker process (getrusage inside the worker) and of the
   client process (which also runs the scheduler), the bytes each stage moved, and whether the
   concatenated parts equal the tool's output byte for byte. With --reps N the tool and every
   Dask configuration run N times, interleaved, and the medians are printed at the end. With
   --compare MODULE (e.g. an earlier semfp/dask.py copied beside the package as
   semfp/dask_before.py) that implementation runs too, alternating with semfp.dask, on the same
   corpus and the same built extension.
The corpus is generated in a child process so that its memory does not count as the client's.
"""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def corpus_texts(corpus: str) -> list[str]:
    texts = []
    for name in ("manpages_zh_cn.jsonl", "manpages_zh_tw_twins.jsonl"):
        with open(os.path.join(corpus, name), encoding="utf-8") as f:
            texts += [json.loads(line)["text"] for line in f if line.strip()]
    return texts


def median_pair(f_py, f_cc, reps: int = 7) -> tuple[float, float]:
    py_t, cc_t = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        f_py()
        py_t.append(time.perf_counter() - t0)
        cc_t.append(f_cc())
    return statistics.median(py_t), statistics.median(cc_t)


def overhead(texts: list[str]) -> None:
    import semfp
    engine = semfp._engine_of(semfp.Options())
    short = [t[:200] for t in texts] * 20
    for label, batch in ((f"corpus, {len(texts)} docs ({sum(len(t.encode()) for t in texts) / 1e6:.1f} MB)", texts),
                         (f"{len(short)} short docs (first 200 chars, 20 times)", short)):
        p, c = median_pair(lambda: semfp.fingerprint_many(batch, threads=1), lambda: engine.time_native_loop(batch))
        print(f"| fingerprint_many, {label}, 1 thread | Python {p * 1e3:.1f} ms | C++ loop {c * 1e3:.1f} ms | "
              f"overhead {100 * (p / c - 1):+.1f} % |", flush=True)


# ---- the planted corpus -------------------------------------------------------------------------

def sentences(corpus: str) -> list[str]:
    out = set()
    for t in corpus_texts(corpus):
        for s in re.split(r"(?<=[。！？；])|\n", t):
            s = s.strip()
            if 8 <= len(s) <= 120 and sum(1 for ch in s if "\u4e00" <= ch <= "\u9fff") >= len(s) // 2:
                out.add(s)
    return sorted(out)


def generate(path: str, docs: int, corpus: str, seed: int = 7) -> dict[str, int]:
    """Groups of 10 documents: a chain of 5 (each two one-character edits from the last, so the ends
    are farther apart than the steps), a near copy of a chain member (last character changed), an
    exact copy of that and 3 singletons; all shuffled."""
    rng = np.random.default_rng(seed)
    sents = sentences(corpus)
    vocab = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    lengths = np.array([len(s) for s in sents])

    def fresh() -> list[str]:
        target = int(rng.integers(200, 321))
        out: list[str] = []
        size = 0
        while size < target:
            k = int(rng.integers(0, len(sents)))
            out.append(sents[k])
            size += int(lengths[k])
        return list("".join(out)[:target])

    texts: list[str] = []
    while len(texts) < docs:
        text = fresh()
        chain = []
        for _ in range(5):
            chain.append("".join(text))
            for _ in range(2):
                text[int(rng.integers(0, len(text)))] = vocab[int(rng.integers(0, len(vocab)))]
        texts += chain
        near = chain[int(rng.integers(0, 5))][:-1] + "。"
        texts += [near, near]
        texts += ["".join(fresh()) for _ in range(3)]
    texts = texts[:docs]
    order = rng.permutation(len(texts))
    with open(path, "w", encoding="utf-8") as f:
        for i, k in enumerate(order.tolist()):
            f.write(json.dumps({"id": f"d{i}", "text": texts[k]}, ensure_ascii=False) + "\n")
    return {"documents": len(texts), "sentences": len(sents)}


# ---- Dask against the tool ---------------------------------------------------------------------

def peak_rss_mb_self() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reset_peak_rss() -> bool:
    try:  # Linux: writing 5 resets VmHWM of this process
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def worker_rss(client) -> list[float]:
    def peak() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return [round(v) for v in client.run(peak).values()]


def run_tool(tool: str, corpus: str, out: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    p = subprocess.Popen([tool, "dedup", "--quiet", "--threads", "2", "--out", out, corpus])
    _, status, usage = os.wait4(p.pid, 0)
    secs = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"semfp dedup failed ({p.returncode})")
    return secs, usage.ru_maxrss / 1024


def mb(x: int) -> str:
    return f"{x / 1e6:.1f}"


def same_bytes(expected: str, parts: list[str]) -> bool:
    """Whether the concatenated parts equal the file ``expected`` (streamed: the files may be large)."""
    if sum(os.path.getsize(p) for p in parts) != os.path.getsize(expected):
        return False
    with open(expected, "rb") as f:
        for p in parts:
            with open(p, "rb") as g:
                while True:
                    a = g.read(1 << 22)
                    if not a:
                        break
                    if f.read(len(a)) != a:
                        return False
    return True


def dask_run(impl, name: str, workers: int, corpus: str, d: str, block_mb: float, expected: str, tool_s: float,
             n: int) -> tuple[float, dict]:
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    if os.path.isdir(d):  # a cold run every time: no finished blocks to reuse
        shutil.rmtree(d)
    reset = reset_peak_rss()
    t0 = time.perf_counter()
    stats = impl.dedup([corpus], d, client, block_bytes=int(block_mb * (1 << 20)))
    secs = time.perf_counter() - t0
    rss = worker_rss(client)
    client_rss = peak_rss_mb_self()
    client.close()
    cluster.close()
    equal = same_bytes(expected, sorted(glob.glob(os.path.join(d, "part-*.jsonl"))))
    print(f"| {name}, {workers} worker(s) | {n} docs | {secs:.1f} s ({secs / tool_s:.2f}x the tool) | "
          f"peak RSS per worker {', '.join(map(str, rss))} MB; client+scheduler "
          f"{client_rss:.0f} MB{'' if reset else ' (not reset: includes earlier runs)'} | "
          f"{stats['blocks']} blocks, {stats['partitions']} partitions, {stats['edges']} edges, "
          f"{stats['clusters']} clusters | equal to the tool: {equal} |", flush=True)
    print(f"  stages (s): {json.dumps(stats['seconds'])}", flush=True)
    print(f"  bytes (MB): {json.dumps({k: round(x / 1e6, 1) for k, x in stats['bytes'].items()})}", flush=True)
    if not equal:
        raise RuntimeError(f"{name} with {workers} worker(s) differs from the tool's output")
    return secs, stats


def dask_vs_tool(tool: str, corpus_dir: str, docs: int, workers_list: list[int], block_mb: float,
                 keep_corpus: str | None, reps: int = 1, compare: str | None = None) -> None:
    impls = [("semfp.dask", importlib.import_module("semfp.dask"))]
    if compare:
        impls.insert(0, (compare, importlib.import_module(compare)))
    runs: dict[str, list[tuple[float, dict]]] = {}
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        corpus = keep_corpus or os.path.join(tmp, "planted.jsonl")
        if not (keep_corpus and os.path.exists(keep_corpus)):
            t0 = time.perf_counter()
            gen = subprocess.run([sys.executable, __file__, "--generate", corpus, "--docs", str(docs),
                                  "--corpus", corpus_dir], check=True, stdout=subprocess.PIPE)
            print(f"generated {gen.stdout.decode().strip()} in {time.perf_counter() - t0:.0f} s", flush=True)
        n = sum(1 for _ in open(corpus, "rb"))
        size = os.path.getsize(corpus)
        out = os.path.join(tmp, "tool.jsonl")
        for rep in range(reps):
            with open("/proc/loadavg") as f:
                print(f"rep {rep + 1}/{reps}: load average {f.read().split()[:3]}", flush=True)
            tool_s, tool_rss = run_tool(tool, corpus, out)
            runs.setdefault("semfp dedup --threads 2", []).append((tool_s, {}))
            print(f"| semfp dedup --threads 2 | {n} docs, {mb(size)} MB | {tool_s:.1f} s | "
                  f"peak RSS {tool_rss:.0f} MB |", flush=True)
            for workers in workers_list:
                for name, impl in impls:
                    r = dask_run(impl, name, workers, corpus, os.path.join(tmp, f"dask{workers}"), block_mb, out,
                                 tool_s, n)
                    runs.setdefault(f"{name}, {workers} worker(s)", []).append(r)
        if reps > 1:
            base = statistics.median(s for s, _ in runs["semfp dedup --threads 2"])
            print(f"medians of {reps} (wall s, ratio to the tool's median; stage medians, s; bytes medians, MB):",
                  flush=True)
            for name, rs in runs.items():
                m = statistics.median(s for s, _ in rs)
                stages, volume = {}, {}
                if rs[0][1]:
                    stages = {k: round(statistics.median(r[1]["seconds"][k] for r in rs), 2) for k in rs[0][1]["seconds"]}
                    volume = {k: round(statistics.median(r[1]["bytes"][k] for r in rs) / 1e6, 1)
                              for k in rs[0][1]["bytes"]}
                print(f"| {name} | {m:.2f} s | {m / base:.2f}x | {json.dumps(stages)} | {json.dumps(volume)} |",
                      flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--docs", type=int, default=200_000)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                     "shared", "corpus"))
    ap.add_argument("--skip-overhead", action="store_true")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--workers", default="1,2", help="worker counts of the Dask runs")
    ap.add_argument("--block-mb", type=float, default=32.0)
    ap.add_argument("--keep-corpus", help="generate the planted corpus here (or reuse it)")
    ap.add_argument("--reps", type=int, default=1, help="runs of every configuration (medians printed)")
    ap.add_argument("--compare", help="another implementation of semfp.dask.dedup to run alternately (module name)")
    ap.add_argument("--generate", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.generate:
        print(json.dumps(generate(a.generate, a.docs, a.corpus)))
        return 0
    with open("/proc/loadavg") as f:
        print(f"start {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, load average {f.read().split()[:3]}",
              flush=True)
    if not a.skip_overhead:
        overhead(corpus_texts(a.corpus))
    if not a.skip_dask:
        if not a.tool:
            ap.error("--tool is needed for the Dask comparison")
        dask_vs_tool(a.tool, a.corpus, a.docs, [int(w) for w in a.workers.split(",")], a.block_mb, a.keep_corpus,
                     a.reps, a.compare)
    with open("/proc/loadavg") as f:
        print(f"end {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, load average {f.read().split()[:3]}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
