#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset) and runs each for SECONDS (default 60) over its
# committed seed corpus, ASan+UBSan on. New interesting inputs go to a scratch corpus, never into
# the committed seeds. Prints executions per target; exits non-zero at the first crash, leaving
# the crashing input in build/fuzz/artifacts/ (turn it into a unit test).
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     e.g. tests/fuzz/run.sh 600 html encoding
# SEMFP_FUZZ_NO_BUILD=1 skips the build; SEMFP_FUZZ_BUILD_DIR overrides build/fuzz;
# SEMFP_FUZZ_JOBS=N runs N targets at a time (default 1), each still for SECONDS.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
build=${SEMFP_FUZZ_BUILD_DIR:-build/fuzz}
if [ -z "${SEMFP_FUZZ_NO_BUILD:-}" ]; then
  cmake --workflow --preset fuzz
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(utf8 fingerprint html encoding hex loaders index_load baseline jsonl)
fi
artifacts="$build/artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$artifacts"
# One target: prints its summary line (or the log's tail and a failure line on a crash).
run_target() {
  local t=$1
  local bin="$build/tests/fuzz/semfp_fuzz_$t"
  if [ ! -x "$bin" ]; then
    echo "fuzz $t: not built (the jsonl target needs the tool's dependencies)"
    return 0
  fi
  mkdir -p "$scratch/$t"
  local log="$scratch/$t.log"
  # 4 KiB inputs hold every structure the parsers know (longer ones mostly run slower); the
  # HTML extractor (long tags and references across chunks) and the segmenter (its 3 KiB
  # windows) get 8 KiB.
  local max_len=4096
  case "$t" in html | fingerprint) max_len=8192 ;; esac
  if ! "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 -max_len="$max_len" -print_final_stats=1 \
      -artifact_prefix="$artifacts/$t-" "$scratch/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz $t: FAILED (input saved under $artifacts/)" >&2
    return 1
  fi
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz $t: ${execs:-?} executions in ${seconds} s, no crash"
}
# Targets run in groups of SEMFP_FUZZ_JOBS; each group's output is printed in target order, and
# the script stops after the first group with a crash.
parallel=${SEMFP_FUZZ_JOBS:-1}
if [ "$parallel" -lt 1 ]; then parallel=1; fi
for ((i = 0; i < ${#targets[@]}; i += parallel)); do
  group=("${targets[@]:i:parallel}")
  pids=()
  for t in "${group[@]}"; do
    run_target "$t" >"$scratch/$t.out" 2>&1 &
    pids+=($!)
  done
  failed=0
  for k in "${!group[@]}"; do
    wait "${pids[$k]}" || failed=1
    cat "$scratch/${group[$k]}.out"
  done
  if [ "$failed" != 0 ]; then
    exit 1
  fi
done
