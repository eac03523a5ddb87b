# Shared by the timing scripts bench/dedup_modes.sh and bench/dedup_scaling.sh (sourced, not
# run): the load average line, medians, and the markdown table of timed runs. Each label's runs
# are lines "wall user sys" (seconds, /usr/bin/time -f "%e %U %S") in WORK/LABEL.times.

# bench_load WHEN: prints "load WHEN: " and the 1, 5 and 15 minute load averages.
bench_load() {
    echo "load $1: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Median of the numbers on standard input, one a line.
bench_median() {
    sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'
}

# bench_table WORK DOCS BASE RATIO_TITLE RATIO LABEL...: one markdown row per LABEL. RATIO is an
# awk expression over a pair of runs of the same round, the BASE run in $1-$3 and the LABEL run
# in $4-$6 (e.g. '$4 / $1': wall time relative to BASE); the column is the median of the pairs.
bench_table() {
    local work=$1 docs=$2 base=$3 title=$4 ratio_expr=$5
    shift 5
    echo "| run | wall median s | wall min-max s | user CPU median s | sys median s | $title | user CPU us/doc |"
    echo "|---|---|---|---|---|---|---|"
    local l f wall lo hi user sys ratio per
    for l in "$@"; do
        f="$work/$l.times"
        wall=$(awk '{print $1}' "$f" | bench_median)
        lo=$(awk '{print $1}' "$f" | sort -g | head -1)
        hi=$(awk '{print $1}' "$f" | sort -g | tail -1)
        user=$(awk '{print $2}' "$f" | bench_median)
        sys=$(awk '{print $3}' "$f" | bench_median)
        ratio=$(paste -d' ' "$work/$base.times" "$f" | awk "{print $ratio_expr}" | bench_median)
        per=$(awk -v u="$user" -v n="$docs" 'BEGIN {printf "%.1f", u * 1e6 / n}')
        printf '| %s | %.2f | %.2f-%.2f | %.2f | %.2f | %.2fx | %s |\n' "$l" "$wall" "$lo" "$hi" "$user" "$sys" "$ratio" "$per"
    done
}
