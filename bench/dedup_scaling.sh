#!/usr/bin/env bash
# Wall and CPU time of `semfp dedup` with 1 and 2 threads (or the thread counts in THREADS) on one
# input, runs interleaved (1 2 1 2 ...) so the ratios are taken pair by pair under the same load;
# checks that every run's output is byte-identical to the first 1-thread run. Prints markdown
# rows: medians of RUNS runs, the wall ratio against 1 thread, user CPU per document, and the
# load average before and after.
#
# usage: bench/dedup_scaling.sh SEMFP INPUT.jsonl [RUNS=5] [extra dedup options...]
#   THREADS="1 2" (default) - thread counts; the first is the baseline of the ratios
#   BASELINE=/path/to/other/semfp - also time another build, at every thread count, interleaved
#     with this build's runs (this t1, this t2, baseline t1, baseline t2, ...); a second table
#     gives the baseline's own speed-up, so the two builds' ratios come from the same rounds
# The 100,000-document input of bench/results/dedup.md comes from bench/dedup_input.py.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
tool=${1:?usage: dedup_scaling.sh SEMFP INPUT.jsonl [RUNS] [options...]}
input=${2:?input}
runs=${3:-5}
shift $(( $# < 3 ? $# : 3 ))
extra=("$@")
threads=(${THREADS:-1 2})
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
docs=$(grep -c . "$input" || true)

bench_load before
run_one() {  # label tool threads
    local label=$1 bin=$2 t=$3 out="$work/$1.out"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$bin" dedup "$input" --threads "$t" --quiet --tsv --out "$out" "${extra[@]}" \
        2>/dev/null
    echo "$(cat "$work/time")" >> "$work/$label.times"
    if [ ! -f "$work/reference" ]; then cp "$out" "$work/reference"; fi
    if ! cmp -s "$out" "$work/reference"; then echo "OUTPUT DIFFERS: $label" >&2; exit 1; fi
}
labels=()
for t in "${threads[@]}"; do labels+=("t$t"); done
blabels=()
if [ -n "${BASELINE:-}" ]; then
    for t in "${threads[@]}"; do blabels+=("baseline_t$t"); done
fi
for ((r = 0; r < runs; r++)); do
    for t in "${threads[@]}"; do run_one "t$t" "$tool" "$t"; done
    if [ -n "${BASELINE:-}" ]; then
        for t in "${threads[@]}"; do run_one "baseline_t$t" "$BASELINE" "$t"; done
    fi
done
bench_load after

base=${labels[0]}
echo
bench_table "$work" "$docs" "$base" "speed-up vs $base (median of paired wall ratios)" '$1 / $4' "${labels[@]}"
if [ -n "${BASELINE:-}" ]; then
    echo
    bench_table "$work" "$docs" "${blabels[0]}" "speed-up vs ${blabels[0]} (median of paired wall ratios)" '$1 / $4' \
        "${blabels[@]}"
    echo
    bench_table "$work" "$docs" "${blabels[0]}" "wall vs ${blabels[0]} (median of paired ratios)" '$4 / $1' \
        "${labels[0]}"
fi
echo
echo "$docs documents; outputs of all runs identical; $runs runs each, interleaved; warm page cache."
