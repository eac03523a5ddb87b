#!/usr/bin/env bash
# Wall and CPU time of `semfp dedup` in its Linker modes against the plain run, at 1 and 2
# threads: plain (`--verify none`), `--verify sketch` (the default) and `--verify none --state FILE`
# (a fresh state every run, so each run
# clusters the whole input and saves the state). Runs are interleaved (plain t1, plain t2,
# sketch t1, ... then again) so every ratio is taken against the plain 1-thread run of the same
# round, under the same load. Checks that each mode's output is byte-identical at every thread
# count and in every round, and that --state (fresh) gives the plain run's output. Prints
# markdown rows: medians of RUNS rounds, the median of the per-round wall ratios to plain t1
# (and, in a second table, of the CPU = user + sys ratios),
# user CPU per document, and the load average before and after.
#
# usage: bench/dedup_modes.sh SEMFP INPUT.jsonl [RUNS=5]
#   THREADS="1 2" (default)      - thread counts
#   MODES="plain sketch state"   - modes (default: all three)
#   BASELINE=/path/to/other/semfp - also time that build in every mode, at the last thread count
#                                    (label "<mode>-t<N>-baseline"; its output must equal this
#                                    build's), with a table of its ratios to its own plain run
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
tool=${1:?usage: dedup_modes.sh SEMFP INPUT.jsonl [RUNS]}
input=${2:?input}
runs=${3:-5}
threads=(${THREADS:-1 2})
modes=(${MODES:-plain sketch state})
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
docs=$(grep -c . "$input" || true)

options_of() {  # mode -> extra options
    case $1 in
        plain) echo "--verify none" ;;
        sketch) echo "--verify sketch" ;;
        state) echo "--verify none --state $work/state" ;;
        *) echo "unknown mode $1" >&2; exit 2 ;;
    esac
}

bench_load before
run_one() {  # label mode tool threads
    local label=$1 mode=$2 bin=$3 t=$4 out="$work/$1.out"
    rm -f "$work/state"
    # shellcheck disable=SC2046
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$bin" dedup "$input" --threads "$t" --quiet --tsv --out "$out" \
        $(options_of "$mode") 2>/dev/null
    cat "$work/time" >> "$work/$label.times"
    local ref="$work/$mode.reference"
    if [ "$mode" = state ] && [ -f "$work/plain.reference" ]; then ref="$work/plain.reference"; fi
    if [ ! -f "$ref" ]; then cp "$out" "$ref"; fi
    if ! cmp -s "$out" "$ref"; then echo "OUTPUT DIFFERS: $label" >&2; exit 1; fi
}
labels=()
for ((r = 0; r < runs; r++)); do
    for m in "${modes[@]}"; do
        for t in "${threads[@]}"; do
            run_one "$m-t$t" "$m" "$tool" "$t"
            if [ "$r" = 0 ]; then labels+=("$m-t$t"); fi
        done
        if [ -n "${BASELINE:-}" ]; then
            t=${threads[-1]}
            run_one "$m-t$t-baseline" "$m" "$BASELINE" "$t"
            if [ "$r" = 0 ]; then labels+=("$m-t$t-baseline"); fi
        fi
    done
done
bench_load after

base=${labels[0]}
echo
bench_table "$work" "$docs" "$base" "wall / $base (median of per-round ratios)" '$4 / $1' "${labels[@]}"
echo
bench_table "$work" "$docs" "$base" "CPU (user+sys) / $base (median of per-round ratios)" '($5 + $6) / ($2 + $3)' \
    "${labels[@]}"
if [ -n "${BASELINE:-}" ]; then
    base_labels=()
    for l in "${labels[@]}"; do
        case $l in *-baseline) base_labels+=("$l") ;; esac
    done
    echo
    bench_table "$work" "$docs" "plain-t${threads[-1]}-baseline" \
        "CPU (user+sys) / plain-t${threads[-1]}-baseline (median of per-round ratios)" '($5 + $6) / ($2 + $3)' \
        "${base_labels[@]}"
fi
echo
echo "$docs documents; each mode's outputs identical across threads and rounds (--state, fresh: equal to plain);"
echo "$runs rounds, interleaved; warm page cache."
