#!/usr/bin/env python3
"""Ratios of medians from one run of semfp_baseline_bench (Google Benchmark JSON output).

  semfp_baseline_bench CORPUS --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
      --benchmark_out=baseline.json --benchmark_out_format=json
  python3 bench/baseline_ratios.py baseline.json > table.md
"""
import json
import sys

BUILD = [("BM_Build_Simhash64", "Simhash-64 fingerprint (bigrams)"),
         ("BM_Build_Simhash64Variant<true, false>", "Simhash-64 fingerprint (bigrams, stopwords)"),
         ("BM_Build_Simhash64Variant<false, true>", "Simhash-64 fingerprint (bigrams, sub-linear TF)"),
         ("BM_Build_Simhash64Variant<true, true>", "Simhash-64 fingerprint (bigrams, stopwords, sub-linear TF)"),
         ("BM_Build_ShingleSet", "ShingleSet (bigram 3-shingles)"),
         ("BM_Build_MinHash128", "MinHash-128 signature (text -> shingles -> signature)"),
         ("BM_Build_MinHash128FromSet", "MinHash-128 signature from a ShingleSet")]
COMPARE = [("BM_Compare_Hamming64", "Hamming distance, 64 bits"),
           ("BM_Compare_ExactJaccard", "exact Jaccard of ShingleSets (merge)"),
           ("BM_Compare_MinHashEstimate", "MinHash-128 signature estimate")]


def main(path):
    with open(path) as f:
        data = json.load(f)
    med = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            med[b["run_name"]] = b["items_per_second"]
    ctx = data.get("context", {})
    print(f"Medians of {ctx.get('num_cpus', '?')}-CPU run, {data['benchmarks'][0].get('repetitions', '?')} repetitions"
          f" ({ctx.get('date', '')}); ratios are to the first row of each table, from the same run.\n")
    for title, rows, unit in (("Build", BUILD, "documents/s"), ("Compare", COMPARE, "comparisons/s")):
        print(f"| {title} | {unit} | ratio |\n|---|---:|---:|")
        base = med.get(rows[0][0])
        for key, label in rows:
            if key not in med:
                continue
            v = med[key]
            print(f"| {label} | {v:,.0f} | {v / base:.3g} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
