#!/bin/sh
# Reproduces the quality experiments (recall by edit kind and size, false-positive rate) on the
# evaluation kit's DEV pairs and writes Markdown tables and the Figure 2 plot.
#
#   bench/run_quality.sh [BUILD_DIR]          (default build dir: build/release)
#
# Needs the semfp_quality program (configure with -DSEMFP_BUILD_BENCHMARKS=ON), python3, opencc
# and the eval kit + corpus beside the repository (SEMFP_EVAL, SEMFP_CORPUS override them).
# Outputs go to build/eval (SEMFP_EVAL_OUT overrides); with SEMFP_SAVE_RESULTS=1 the tables and
# the plot are also copied to bench/results/.
# Set SEMFP_CHECK_SCORE=1 to cross-check the default pipeline against the kit's score.py.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build/release}
EVAL=${SEMFP_EVAL:-$ROOT/../shared/eval}
CORPUS=${SEMFP_CORPUS:-$ROOT/../shared/corpus}
OUT=${SEMFP_EVAL_OUT:-$ROOT/build/eval}
PROG=$BUILD/bench/semfp_quality

[ -x "$PROG" ] || { echo "run_quality.sh: $PROG not found: build target semfp_quality first" >&2; exit 2; }
[ -f "$EVAL/make_pairs.py" ] || { echo "run_quality.sh: eval kit not found at $EVAL (set SEMFP_EVAL)" >&2; exit 2; }
[ -f "$CORPUS/manpages_zh_cn.jsonl" ] || { echo "run_quality.sh: corpus not found at $CORPUS (set SEMFP_CORPUS)" >&2; exit 2; }
mkdir -p "$OUT"

PAIRS=$OUT/dev_pairs.jsonl
if [ ! -f "$PAIRS" ] || [ ! -f "$OUT/dev_pairs.docs.jsonl" ]; then
    echo "== generating DEV pairs (about 5 minutes)" >&2
    python3 "$EVAL/make_pairs.py" "$CORPUS/manpages_zh_cn.jsonl" \
        --twins "$CORPUS/manpages_zh_tw_twins.jsonl:twin_tw" --out "$PAIRS" --seed 1 --n 1000
fi

echo "== scoring methods" >&2
# Besides the defaults, plain character bigrams (the default before stopword filtering was measured).
ALSO=${SEMFP_QUALITY_ALSO:-"simhash:tok=bigram simhash:bits=128,tok=bigram"}
set --
for m in $ALSO; do set -- "$@" --also "$m"; done
"$PROG" "$PAIRS" --explore --out "$OUT/quality_dev.md" --fig2 "$OUT/fig2.dat" "$@"

if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "data='$OUT/fig2.dat'; out='$OUT/fig2.svg'" "$ROOT/bench/quality_fig2.gp"
else
    echo "run_quality.sh: gnuplot not found; skipping the plot" >&2
fi

if [ "${SEMFP_CHECK_SCORE:-0}" = 1 ]; then
    echo "== cross-check with score.py (default pipeline, 64 bits)" >&2
    "$PROG" "$PAIRS" --tsv "$OUT/default64.tsv" --method simhash
    python3 "$EVAL/score.py" pairs "$PAIRS" --tsv "$OUT/default64.tsv" --k 3 > "$OUT/score_default64.txt"
    cat "$OUT/score_default64.txt"
fi

if [ "${SEMFP_SAVE_RESULTS:-0}" = 1 ]; then
    mkdir -p "$ROOT/bench/results"
    cp "$OUT/quality_dev.md" "$ROOT/bench/results/quality_dev.md"
    [ -f "$OUT/fig2.svg" ] && cp "$OUT/fig2.svg" "$ROOT/bench/results/fig2_recall_vs_edit.svg"
fi
echo "== tables: $OUT/quality_dev.md" >&2
