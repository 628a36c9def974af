#!/usr/bin/env bash
# Packaging tests: consume padnd from C and C++ as a user would, after `cmake --install` of the
# build in <build dir> (static or shared), or through add_subdirectory.
# usage: run.sh MODE <padnd source dir> <padnd build dir> <scratch dir>
#   find-package      CMake find_package consumers (C++ API and C ABI)
#   add-subdirectory  the same consumers with padnd's source tree as a subproject
#   c-find-package, c-add-subdirectory
#                     the C consumer in a C-only project (no C++ enabled), either way
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
# The version this build was configured with (CMake generates it from project(VERSION)).
version() { sed -n 's/^#define PADND_VERSION_STRING "\(.*\)"$/\1/p' "$build/include/padnd/version.h"; }
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
  c-find-package | c-add-subdirectory)
    if [ "$mode" = c-find-package ]; then
      install_padnd
      padnd=(-DCMAKE_PREFIX_PATH="$prefix")
    else
      padnd=(-DPADND_SOURCE_DIR="$src")
    fi
    cmake -S "$src/tests/packaging/c_only" -B "$work/build" "${padnd[@]}" >/dev/null
    cmake --build "$work/build" -j2 >/dev/null
    "$work/build/c_consumer" ;;
  pkg-config)
    install_padnd
    libdir=$(dirname "$(library)")
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    flags=$(pkg-config --cflags --libs padnd)
    [ "$(pkg-config --modversion padnd)" = "$(version)" ]
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
    [ "$version" = "padnd $(version)" ]
    if [[ "$(library)" == *.so ]]; then  # it must find the installed library, not the build's
      libs=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/padnd")
      grep -q "$prefix/.*libpadnd.so" <<<"$libs"
    fi
    env -u LD_LIBRARY_PATH "$prefix/bin/padnd" demo >/dev/null
    echo "installed padnd runs" ;;
  exports)
    install_padnd
    lib=$(library)
    [[ "$lib" == *.so ]] || { echo "exports: $lib is not a shared library" >&2; exit 1; }
    major_minor=$(version)
    major_minor=${major_minor%.*}  # the SONAME's version while the major is 0 (CMakeLists.txt)
    soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    [ "$soname" = "libpadnd.so.$major_minor" ] || { echo "exports: SONAME '$soname'" >&2; exit 1; }
    nm -D --defined-only "$lib" | awk '{print $3}' >"$work/symbols"
    c++filt <"$work/symbols" >"$work/demangled"
    # C symbols: padnd_ only. C++: the public namespaces only (cmake/padnd.map), nothing of
    # the standard library's.
    public='padnd::(onnx::|openvino::|ngraph::|numpy::)?[A-Za-z_]+([(:<[ ].*)?'
    allowed="^(padnd_[a-z_]+|$public|(typeinfo|typeinfo name|vtable) for $public)\$"
    if grep -v -E "$allowed" "$work/demangled" >"$work/unexpected"; then
      echo "exports: unexpected symbols:" >&2; head -20 "$work/unexpected" >&2; exit 1
    fi
    # Every C function padnd.h declares, and what a C++ caller needs across the boundary.
    declared=$(grep -o -E '^[a-z_ *]*\bpadnd_[a-z_]+\(' "$src/include/padnd/padnd.h" |
      sed -E 's/.*(padnd_[a-z_]+)\($/\1/' | sort -u)
    [ "$(grep -E '^padnd_' "$work/symbols" | sort -u)" = "$declared" ] || {
      echo "exports: the C functions differ from padnd.h's" >&2; exit 1; }
    # The private namespaces (src/, cli/) export nothing.
    if grep -E '^(.* for )?padnd::(adapters|c_api|cli|detail)::' "$work/demangled" >"$work/private"; then
      echo "exports: private symbols exported:" >&2; head -20 "$work/private" >&2; exit 1
    fi
    for needed in '^padnd::make_plan\(' '^typeinfo for padnd::Error$'; do
      grep -q -E "$needed" "$work/demangled" || { echo "exports: missing $needed" >&2; exit 1; }
    done
    echo "exports: $soname, $(grep -c '^padnd_' "$work/symbols") C functions, $(grep -c 'padnd::' "$work/demangled") C++ symbols" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
