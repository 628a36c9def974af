#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Release check of the Python packaging, the way a user installs from source:
#   `pip install <checkout>` (isolated build env from the package index) works from a READ-ONLY
#   copy of this checkout and leaves the copy exactly as it was (no build folder, ignored or not),
#   and the installed package has one version (CMakeLists.txt = wheel metadata =
#   padnd.__version__ = `padnd --version`), the `padnd` console script and its LICENSE.
# The copy is HEAD plus the working tree's uncommitted changes and untracked (not ignored) files;
# from a source tarball (no git checkout), the tree without its build outputs.
# As root, whom file modes do not stop, pip runs without capabilities so that read-only holds.
# Usage: scripts/wheel_check.sh   (PYTHON=python3.X to pick the interpreter)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}

work=$(mktemp -d)
cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
chmod 755 "$work"
src="$work/src"

# 1. The copy: a clone of HEAD, then the working tree's changes against HEAD on top; a tree
#    that is no git checkout is copied without its build folders and virtual environments.
if [ -e "$repo/.git" ]; then
  git clone -q --no-hardlinks "$repo" "$src"
  (cd "$repo" && git diff -z --name-only --no-renames --diff-filter=D HEAD) \
    | (cd "$src" && xargs -0r rm -f --)
  (cd "$repo" && { git diff -z --name-only --no-renames --diff-filter=d HEAD;
                   git ls-files -z --others --exclude-standard; }) \
    | (cd "$repo" && tar --null -T - -cf -) | tar -xf - -C "$src"
else
  mkdir "$src"
  tar -C "$repo" --exclude='./build*' --exclude='./.venv*' -cf - . | tar -xf - -C "$src"
fi
# Every path in the copy with its size and modification time.
snapshot() { (cd "$src" && find . -path ./.git -prune -o -printf '%p %s %T@\n' | LC_ALL=C sort); }
before=$(snapshot)
chmod -R a+rX,a-w "$src"

# 2. pip install from the read-only copy into a scratch venv. Root keeps its uid (its Python and
#    pip cache stay reachable) but drops every capability, so that file modes bind it too.
run_as=()
enforced="enforced by file modes"
if [ "$(id -u)" -eq 0 ]; then
  no_caps=(setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --)
  if "${no_caps[@]}" sh -c '! touch "$1/.wheel_check_probe" 2>/dev/null' sh "$src"; then
    run_as=("${no_caps[@]}")
    enforced="enforced (root without capabilities)"
  else
    enforced="NOT enforced (root keeps its capabilities); the status check still ran"
    rm -f "$src/.wheel_check_probe"
    echo "wheel_check: root and setpriv cannot drop capabilities: read-only is not enforced," \
      "only the status check below" >&2
  fi
fi
"$python" -m venv "$work/venv"
start=$SECONDS
"${run_as[@]}" env PIP_DISABLE_PIP_VERSION_CHECK=1 "$work/venv/bin/python" -m pip install -q "$src"
echo "wheel_check: pip install from the read-only copy: $((SECONDS - start)) s"
echo "wheel_check: read-only: $enforced"

# 3. The copy is untouched: the same paths, sizes and times as before.
after=$(snapshot)
if [ "$after" != "$before" ]; then
  echo "wheel_check: FAIL: pip install changed the checkout:" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  exit 1
fi
echo "wheel_check: checkout unchanged ($(wc -l <<<"$after") paths, their sizes and times)"

# 4. The installed package: one version, the console script, the license, no checkout on the path.
cmake_version=$(sed -n 's/^project(padnd VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
cd "$work"
"$work/venv/bin/python" - "$cmake_version" "$src" <<'EOF'
import importlib.metadata, pathlib, sys
import padnd
cmake_version, src = sys.argv[1], sys.argv[2]
dist = importlib.metadata.distribution("padnd")
assert not pathlib.Path(padnd.__file__).resolve().is_relative_to(src), padnd.__file__
assert padnd.__version__ == dist.version == cmake_version, (padnd.__version__, dist.version,
                                                            cmake_version)
licenses = [f for f in dist.files if f.name == "LICENSE" and ".dist-info" in str(f)]
assert licenses and licenses[0].locate().is_file(), "no LICENSE in .dist-info"
print(f"wheel_check: padnd {padnd.__version__} (metadata {dist.version}, CMake {cmake_version}), "
      f"license {licenses[0]}")
EOF
cli_version=$("$work/venv/bin/padnd" --version)
[ "$cli_version" = "padnd $cmake_version" ] || {
  echo "wheel_check: FAIL: padnd --version says '$cli_version'" >&2; exit 1; }
echo "wheel_check: console script $work/venv/bin/padnd: $cli_version"
echo "wheel_check: OK"
