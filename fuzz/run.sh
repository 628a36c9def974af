#!/usr/bin/env bash
# Runs every fuzz target of a PADND_FUZZ build for SECONDS each, starting from the committed
# seed corpus (fuzz/corpus/<target>), and fails on any crash, hang, leak, UB report or
# mismatch with the reference. New inputs go to a scratch copy unless --merge is given, which
# folds the ones that add coverage back into fuzz/corpus (for long runs: docs/fuzzing.md).
#   bash fuzz/run.sh BUILD_DIR SECONDS [--merge] [-- extra libFuzzer flags]
set -euo pipefail
build=$(cd "$1" && pwd) seconds=$2
shift 2
merge=0
if [[ ${1:-} == --merge ]]; then merge=1; shift; fi
[[ ${1:-} == -- ]] && shift
here=$(cd "$(dirname "$0")" && pwd)
# CI (.ci/run sets PADND_DERANDOMIZE) fixes the mutator's seed; coverage feedback still varies
# between runs (docs/fuzzing.md), so a failure is replayed from the input printed below.
seed=()
[[ -n ${PADND_DERANDOMIZE:-} ]] && seed=(-seed=1)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in npy_reader py_literal value_parse adapters plan_execute; do
  cp -r "$here/corpus/$target" "$scratch/$target"
  log="$scratch/$target.log"
  if ! (cd "$scratch" && "$build/fuzz/${target}_fuzz" "$target" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 "${seed[@]}" "$@" \
        >"$log" 2>&1); then
    tail -n 60 "$log"
    for input in "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* "$scratch"/oom-*; do
      [[ -e $input ]] && echo "$(basename "$input") in base64: $(base64 -w0 "$input")"
    done
    echo "fuzz/run.sh: $target failed; the input is in the log above" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  echo "$target: $runs executions, $cov edges, 0 failures"
  if ((merge)); then
    "$build/fuzz/${target}_fuzz" -merge=1 "$here/corpus/$target" "$scratch/$target" \
      >"$scratch/$target.merge.log" 2>&1
  fi
done
