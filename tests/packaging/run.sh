#!/usr/bin/env bash
# Packaging tests: consume padnd from C and C++ as a user would, after `cmake --install` of the
# build in <build dir> (static or shared), or through add_subdirectory.
# usage: run.sh MODE <padnd source dir> <padnd build dir> <scratch dir>
#   find-package      CMake find_package consumers (C++ API and C ABI)
#   add-subdirectory  the same consumers with padnd's source tree as a subproject
#   pkg-config        the consumers compiled by hand with `pkg-config --cflags --libs padnd`
#   installed-cli     the installed `padnd` runs with no library path set (RPATH)
#   exports           a shared library exports the padnd_* C functions and padnd:: only
set -euo pipefail
mode=$1 src=$2 build=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
prefix="$work/prefix"
install_padnd() { cmake --install "$build" --prefix "$prefix" >/dev/null; }
# The installed library, static or shared (lib/ or a multiarch lib/<triplet>/).
library() { find "$prefix" -name 'libpadnd.so' -o -name 'libpadnd.a' | head -n 1; }
run_consumers() {
  "$1/consumer"
  "$1/c_consumer"
}
case "$mode" in
  find-package)
    install_padnd
    cmake -S "$src/tests/packaging/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$work/build" -j2 >/dev/null
    run_consumers "$work/build" ;;
  add-subdirectory)
    cmake -S "$src/tests/packaging/consumer" -B "$work/build" -DPADND_SOURCE_DIR="$src" >/dev/null
    cmake --build "$work/build" -j2 >/dev/null
    run_consumers "$work/build" ;;
  pkg-config)
    install_padnd
    libdir=$(dirname "$(library)")
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    flags=$(pkg-config --cflags --libs padnd)
    [ "$(pkg-config --modversion padnd)" = "$(sed -n 's/^project(padnd VERSION \([0-9.]*\).*/\1/p' \
      "$src/CMakeLists.txt")" ]
    # shellcheck disable=SC2086  # the flags are words
    "${CC:-cc}" -std=c11 -Wall -Wextra -pedantic -Werror "$src/tests/packaging/consumer/main.c" \
      -o "$work/c_consumer" $flags -Wl,-rpath,"$libdir"
    # shellcheck disable=SC2086
    "${CXX:-c++}" -std=c++20 "$src/tests/packaging/consumer/main.cpp" -o "$work/consumer" \
      $flags -Wl,-rpath,"$libdir"
    run_consumers "$work" ;;
  installed-cli)
    install_padnd
    version=$(env -u LD_LIBRARY_PATH "$prefix/bin/padnd" --version)
    echo "$version"
    [ "$version" = "padnd $(pkg-config --modversion --with-path="$(dirname "$(library)")/pkgconfig" padnd)" ]
    if [[ "$(library)" == *.so ]]; then  # it must find the installed library, not the build's
      env -u LD_LIBRARY_PATH ldd "$prefix/bin/padnd" | grep -q "$prefix/.*libpadnd.so"
    fi
    env -u LD_LIBRARY_PATH "$prefix/bin/padnd" demo >/dev/null
    echo "installed padnd runs" ;;
  exports)
    install_padnd
    lib=$(library)
    [[ "$lib" == *.so ]] || { echo "exports: $lib is not a shared library" >&2; exit 1; }
    readelf -d "$lib" | grep -q "SONAME.*libpadnd\.so\.[0-9]" || { echo "no versioned SONAME" >&2; exit 1; }
    nm -D --defined-only "$lib" | awk '{print $3}' >"$work/symbols"
    c++filt <"$work/symbols" >"$work/demangled"
    # C symbols: padnd_ only. C++: padnd::, or the standard library's templates that padnd's
    # interface instantiates (vague linkage, exported wherever they are used).
    if grep -v -E '^(padnd_|.*padnd::|(typeinfo|typeinfo name|vtable|VTT) for padnd::|.*std::|.*__gnu_cxx::)' \
      "$work/demangled" | grep -v -E '^_(init|fini)$' >"$work/unexpected"; then
      echo "exports: unexpected symbols:" >&2; head -20 "$work/unexpected" >&2; exit 1
    fi
    grep -q '^padnd_plan_create$' "$work/symbols"
    grep -q '^padnd::make_plan(' "$work/demangled"
    # Private functions (src/) stay hidden.
    if grep -E '^padnd::(c_api|detail|cli)::' "$work/demangled" >"$work/private"; then
      echo "exports: private functions exported:" >&2; head -20 "$work/private" >&2; exit 1
    fi
    echo "exports: $(grep -c '^padnd_' "$work/symbols") C functions, $(grep -c 'padnd::' "$work/demangled") C++ symbols" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
