#!/usr/bin/env bash
# Packaging smoke test: consume padnd through find_package (after an install) or add_subdirectory.
# usage: run.sh find-package|add-subdirectory <padnd source dir> <padnd build dir> <scratch dir>
set -euo pipefail
mode=$1 src=$2 build=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
case "$mode" in
  find-package)
    cmake --install "$build" --prefix "$work/prefix" >/dev/null
    cmake -S "$src/tests/packaging/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null ;;
  add-subdirectory)
    cmake -S "$src/tests/packaging/consumer" -B "$work/build" -DPADND_SOURCE_DIR="$src" >/dev/null ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
cmake --build "$work/build" -j2 >/dev/null
"$work/build/consumer"
