#!/usr/bin/python3
"""Regenerates README.md's headline benchmark table (between <!-- bench-table --> markers).

    cmake --workflow --preset release && /usr/bin/python3 bench/readme_table.py

Runs the release benchmark programs in build/release/bench (or --build DIR), each figure in a
fresh process and repeated --runs times (median), and writes one row per performance target:
the figure, the target, and whether it is met. The table names the machine (CPU model, cores),
the compiler, the date and the load average before and after, and is written to README.md
through a temporary file renamed over it. Options:
  --corpus DIR       the shared corpus (default ../shared/corpus beside the source tree)
  --large            also run Single-Pass over 10 M fingerprints (about 1 GB, 10 s per run)
  --dedup-input F    also time `semfp dedup` with 1 and 2 threads on F (JSON Lines)
  --print            print the table instead of writing README.md
Ratios are taken against baselines measured in the same run (the UTF-8 decode loop, the same
word list in run-time tries); absolute figures depend on the machine and its load.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- bench-table -->", "<!-- /bench-table -->"


def run(cmd, **kw):
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if res.returncode != 0:
        sys.exit(f"readme_table: {' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return res.stdout


def gbench(binary, args, name_filter):
    """Median aggregates of a Google Benchmark program, by benchmark name."""
    out = run([binary, *args, f"--benchmark_filter={name_filter}", "--benchmark_format=json"])
    data = json.loads(out[out.index("{"):])
    return {b["run_name"]: b for b in data["benchmarks"]
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"} or \
           {b["run_name"]: b for b in data["benchmarks"]}


def fingerprint_rows(bench, corpus, runs):
    # One process measures round by round, and a whole process can land on a slow stretch of a
    # shared machine: `runs` fresh processes of 9 rounds each, medians of their figures.
    per_run = []
    for _ in range(max(runs, 3)):
        out = run([f"{bench}/semfp_fingerprint_speed", corpus, "--rounds=9", "--no-reference"])
        one = {}
        for line in out.splitlines():
            m = re.match(r"(utf8 decode loop|fingerprint<64>|fingerprint<128>)\s.*?([\d.]+)\s+([\d.]+) x", line)
            if m:
                one[m.group(1)] = (float(m.group(2)), float(m.group(3)))
            m = re.match(r"utf8 decode loop \(baseline\)\s+([\d.]+)", line)
            if m:
                one["decode"] = float(m.group(1))
        per_run.append(one)
    fig = {"decode": statistics.median(r["decode"] for r in per_run)}
    for k in ("fingerprint<64>", "fingerprint<128>"):
        fig[k] = (statistics.median(r[k][0] for r in per_run), statistics.median(r[k][1] for r in per_run))
    f64, r64 = fig["fingerprint<64>"]
    f128, r128 = fig["fingerprint<128>"]
    return [
        ("`fingerprint<64>`, 2,000-character documents", f"{f64:.1f} µs/doc, {r64:.2f}× the UTF-8 decode loop ({fig['decode']:.2f} µs)", "≤ 5× decode", r64 <= 5),
        ("`fingerprint<128>`", f"{f128:.1f} µs/doc, {r128:.2f}× `fingerprint<64>`", "≤ 1.2×", r128 <= 1.2),
    ]


def signature_row(bench, corpus, runs):
    # Fingerprint + sketch against the fingerprint alone (semfp_signature_speed: both timed in the
    # same rounds, first of the pair alternating): `runs` fresh processes, medians of their figures.
    per_run = []
    for _ in range(max(runs, 5)):
        out = run([f"{bench}/semfp_signature_speed", corpus, "--rounds=21"])
        one = {}
        for line in out.splitlines():
            m = re.match(r"(Signature<64>|Signature<128>)\s+([\d.]+)\s+([\d.]+) x", line)
            if m:
                one[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        per_run.append(one)
    s64 = statistics.median(r["Signature<64>"][0] for r in per_run)
    r64 = statistics.median(r["Signature<64>"][1] for r in per_run)
    r128 = statistics.median(r["Signature<128>"][1] for r in per_run)
    return ("`Signature<64>` = fingerprint + sketch", f"{s64:.1f} µs/doc, {r64:.3f}× `fingerprint<64>` (`Signature<128>`: {r128:.3f}× `fingerprint<128>`)", "≤ 1.3×", r64 <= 1.3)


def segmenter_rows(bench, corpus, runs):
    b = gbench(f"{bench}/semfp_segmenter_bench",
               [corpus, f"--benchmark_repetitions={runs}", "--benchmark_report_aggregates_only=true"],
               "Fmm/forward/han_only|FmmRuntimeTries/forward/han_only")
    fwd = next(v for k, v in b.items() if k.startswith("Fmm/forward/han_only"))
    rt = next(v for k, v in b.items() if k.startswith("FmmRuntimeTries/forward/han_only"))
    mbs, rt_mbs = fwd["bytes_per_second"] / 1e6, rt["bytes_per_second"] / 1e6
    out = run([f"{bench}/semfp_segmenter_bench", "--fresh-process", str(max(runs, 5))])
    row = next(l.split() for l in out.splitlines() if l.startswith("static+reverse"))
    cpu_ms, private_mb = float(row[1]), float(row[4])
    return [
        ("FMM forward, Han-only corpus text", f"{mbs:.0f} MB/s ({mbs / rt_mbs:.1f}× the same words in run-time tries)", "≥ 150 MB/s", mbs >= 150),
        ("embedded dictionary first use, fresh process, forward + reverse", f"{cpu_ms:.2f} ms CPU, {private_mb:.2f} MB private", "≤ 5 ms, ≤ 2 MB", cpu_ms <= 5 and private_mb <= 2),
    ]


def single_pass_row(bench, n, runs, large):
    secs, rss = [], []
    for _ in range(runs):
        args = ["--large"] if large else []
        b = gbench(f"{bench}/semfp_index_bench", args, f"SinglePass/{n}/")
        r = next(iter(b.values()))
        secs.append(r["ns_per_fp"] * n / 1e9)
        rss.append(r["peak_rss_B_per_fp"])
    s, m = statistics.median(secs), statistics.median(rss)
    if n >= 10_000_000:
        return ("Single-Pass, 10 M planted fingerprints, one thread", f"{s:.2f} s, peak RSS {m:.1f} B/fp", "≤ 6 s, ≤ 40 B/fp", s <= 6 and m <= 40)
    return ("Single-Pass, 1 M planted fingerprints, one thread", f"{s:.2f} s, peak RSS {m:.1f} B/fp", "≤ 48 B/fp", m <= 48)


def period_row(bench, corpus, threads=2):
    out = run([f"{bench}/semfp_period_quality", "--throughput", "100000",
               os.path.join(corpus, "manpages_zh_cn.jsonl"), "--threads", str(threads)])
    cells = [c.strip() for c in out.strip().splitlines()[-1].strip("|").split("|")]
    pages_s, bytes_page = float(cells[4]), float(cells[7])
    return ("period detector, 100 k synthetic pages, 2 threads (median of 3)", f"{pages_s:,.0f} pages/s, {bytes_page:,.0f} B/page held", "≥ 20,000 pages/s", pages_s >= 20000)


def dedup_row(build, path, runs):
    walls = {1: [], 2: []}
    ref = None
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            for t in (1, 2):
                out = os.path.join(tmp, f"out{t}")
                t0 = time.monotonic()
                run([f"{build}/examples/semfp", "dedup", path, "--threads", str(t), "--quiet", "--tsv", "--out", out])
                walls[t].append(time.monotonic() - t0)
                data = open(out, "rb").read()
                if ref is None:
                    ref = data
                elif data != ref:
                    sys.exit("readme_table: dedup output differs between thread counts")
    ratio = statistics.median(a / b for a, b in zip(walls[1], walls[2]))
    return ("`semfp dedup`, 1 → 2 threads", f"{statistics.median(walls[1]):.2f} s → {statistics.median(walls[2]):.2f} s wall, {ratio:.2f}×, identical output", "≥ 1.8×", ratio >= 1.8)


def machine(build):
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    compiler = "unknown compiler"
    try:
        cache = open(os.path.join(build, "CMakeCache.txt")).read()
        exe = re.search(r"CMAKE_CXX_COMPILER:\w+=(.*)", cache).group(1)
        compiler = run([exe, "--version"]).splitlines()[0]
    except (OSError, AttributeError):
        pass
    return cpu, os.cpu_count(), compiler


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    ap.add_argument("--corpus", default=os.environ.get("SEMFP_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--large", action="store_true")
    ap.add_argument("--dedup-input")
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    bench = os.path.join(a.build, "bench")
    if not os.path.isdir(a.corpus):
        sys.exit(f"readme_table: corpus folder {a.corpus} not found (--corpus DIR or $SEMFP_CORPUS)")
    if not os.path.isfile(os.path.join(bench, "semfp_fingerprint_speed")):
        sys.exit(f"readme_table: no benchmarks in {bench}: run `cmake --workflow --preset release` first")
    load_before = os.getloadavg()
    rows = fingerprint_rows(bench, a.corpus, a.runs)
    rows.append(signature_row(bench, a.corpus, a.runs))
    rows += segmenter_rows(bench, a.corpus, a.runs)
    rows.append(single_pass_row(bench, 1_000_000, min(a.runs, 3), False))
    if a.large:
        rows.append(single_pass_row(bench, 10_000_000, min(a.runs, 3), True))
    rows.append(period_row(bench, a.corpus))
    if a.dedup_input:
        rows.append(dedup_row(a.build, a.dedup_input, a.runs))
    load_after = os.getloadavg()
    cpu, cores, compiler = machine(a.build)
    invocation = (" --large" if a.large else "") + (" --dedup-input DEDUP_100K.jsonl" if a.dedup_input else "")
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [BEGIN,
             f"Measured {today} on {cpu}, {cores} cores, {compiler}; load average "
             f"{load_before[0]:.1f} before, {load_after[0]:.1f} after. Regenerate: "
             f"`/usr/bin/python3 bench/readme_table.py{invocation}` (after `cmake --workflow --preset release`; "
             "the dedup input comes from `bench/dedup_input.py`).",
             "",
             "| benchmark | result (medians) | target | met |",
             "|---|---|---|---|"]
    lines += [f"| {n} | {r} | {t} | {'yes' if ok else '**no**'} |" for n, r, t, ok in rows]
    lines.append(END)
    table = "\n".join(lines)
    if a.print:
        print(table)
        return
    readme = os.path.join(ROOT, "README.md")
    text = open(readme, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        sys.exit("readme_table: README.md has no bench-table markers")
    text = text[:text.index(BEGIN)] + table + text[text.index(END) + len(END):]
    fd, tmp = tempfile.mkstemp(dir=ROOT, prefix=".README.md.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, readme)
    print(table)


if __name__ == "__main__":
    main()
