#!/usr/bin/env bash
# Installs what the tests need (Debian packages, a Python venv) and runs every test:
# C++ (ctest, Release), C++ again under ASan+UBSan, the fuzz targets for a short time (clang,
# libFuzzer), the CLI suite and the Python package (pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# 0. Code rules that a compiler does not check: no function body over 60 lines.
python3 scripts/function_lengths.py src cli python/src fuzz

# 1. System packages (skipped when already present).
need=()
for pkg in cmake g++ make libgtest-dev libbenchmark-dev libdlpack-dev clang libclang-rt-dev \
  strace; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if ((${#need[@]})); then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd=sudo
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "${need[@]}"
fi

# 2. Python test environment.
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -r requirements-test.txt

# 3. C++ tests, Release (includes packaging smoke tests), and the benchmark suite: built, and
#    run once on one tiny workload through report.py so that neither can rot (no timing claims).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPADND_BUILD_BENCH=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j"$jobs"
python3 bench/report.py build/bench/padnd_bench --filter '/tiny_const' --repetitions 2 \
  --min-time 0.001 >/dev/null

# 4. C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPADND_SANITIZE=ON
cmake --build build-asan -j"$jobs"
# An allocation no machine can serve must fail as padnd's out_of_memory error (tested), not
# abort in the sanitizer's allocator.
ASAN_OPTIONS=allocator_may_return_null=1 \
  ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs"

# 5. Fuzz targets (clang's libFuzzer, ASan+UBSan; docs/fuzzing.md): each runs 20 s from its
#    committed corpus; any crash, hang, leak, UB report or mismatch with the reference fails.
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADND_FUZZ=ON \
  -DPADND_BUILD_TESTS=OFF -DPADND_BUILD_CLI=OFF -DPADND_INSTALL=OFF
cmake --build build-fuzz -j"$jobs"
bash fuzz/run.sh build-fuzz 20

# 6. Python suites (CLI on .npy files, numpy as the oracle).
PADND_CLI="$PWD/build/padnd" .venv/bin/python -m pytest -q tests/cli

# 7. Python package: one wheel, built with the build deps already in the venv (no isolated env
#    to fetch), then tested as installed (the sources live in python/padnd, so nothing shadows
#    it here). tests/python includes bench/compare.py --quick --check-only (every installed
#    peer, bit for bit).
wheels=$(mktemp -d)
.venv/bin/pip wheel -q --no-build-isolation --no-deps -w "$wheels" ./
.venv/bin/pip install -q --force-reinstall --no-deps "$wheels"/padnd-*.whl
.venv/bin/python -m pytest -q tests/python

# 8. numpy's own pad tests (from the installed numpy) with np.pad replaced by padnd.pad, on the
#    newest numpy (.venv) and on the oldest padnd supports (.venv-numpy-oldest).
python3 -m venv .venv-numpy-oldest
.venv-numpy-oldest/bin/pip install -q --upgrade pip
.venv-numpy-oldest/bin/pip install -q "numpy==$(sed -n 's/^numpy>=//p' requirements-test.txt).*" \
  "pytest>=8" "hypothesis>=6"
.venv-numpy-oldest/bin/pip install -q --force-reinstall --no-deps "$wheels"/padnd-*.whl
for venv in .venv .venv-numpy-oldest; do
  PYTHONPATH=tests/numpy_suite "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    -p padnd_as_numpy_pad --pyargs numpy.lib.tests.test_arraypad
done
rm -rf "$wheels"
