#!/usr/bin/env bash
# A built checkout that is moved (or copied) still builds and packs: the build scripts clear
# the CMake trees another directory made (fresh_cmake_tree, scripts/lib.sh) instead of
# stopping at cmake's "The current CMakeCache.txt directory … is different than the directory
# … where CMakeCache.txt was created", and `npm pack` from the moved checkout packs the same
# files as before the move.
#
#   1. a copy of the sources (tracked and untracked, not ignored; node_modules hard-linked) at
#      A: the package built (`build.sh --package`: wasm + dist/) and the native tree configured;
#      the files `npm pack` would pack listed
#   2. A moved to B; there, `npm start`'s build step up to the native configure, which is
#      where a moved tree failed (`build.sh --configure`: both trees), then `npm pack`, whose
#      prepack builds the package again; the same files listed
#
# Kept cheap: the native tree is configured, not compiled (cmake refuses a moved cache at
# configure time), and with ccache installed the compilers run through it (build.sh), with
# this checkout as the base directory: A and B lie below it, so their compiles are the same
# cache entries as this checkout's own build of the package.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
repo=$PWD
# Inside build/ so that node_modules can be hard-linked (one file system); ignored by git.
mkdir -p build
tmp=$(realpath "$(mktemp -d "$repo/build/moved-checkout.XXXXXX")")
trap 'rm -rf "$tmp"' EXIT
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$repo
fi

# The files as a user's copy has them, with their times (setup.sh compares package-lock.json's
# with node_modules'); files deleted from the work tree but still tracked are left out.
mkdir "$tmp/a"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$tmp/a"
cp -al node_modules "$tmp/a/node_modules"

# The paths `npm pack` lists (its JSON comes after what prepack printed on the same stdout).
packed() { (cd "$1" && npm pack --dry-run --json "${@:2}" 2>"$tmp/pack.log" | tee -a "$tmp/pack.log" |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s.slice(s.search(/^\[$/m)))[0].files.map(f=>f.path).sort().join("\n")))'); }

(cd "$tmp/a" && bash scripts/build.sh --package >"$tmp/build-a.log" 2>&1 && bash scripts/build.sh --configure >>"$tmp/build-a.log" 2>&1) ||
  { tail -30 "$tmp/build-a.log" >&2; echo "moved_checkout_check: the copy did not build" >&2; exit 1; }
before=$(packed "$tmp/a" --ignore-scripts)

mv "$tmp/a" "$tmp/b"
(cd "$tmp/b" && bash scripts/build.sh --configure) >"$tmp/build-b.log" 2>&1 ||
  { tail -30 "$tmp/build-b.log" >&2; echo "moved_checkout_check: the moved checkout did not configure" >&2; exit 1; }
for tree in build/native build/wasm; do
  grep -q "^build: $tree is not this checkout's build tree (it was made in $tmp/a/$tree)" "$tmp/build-b.log" ||
    { cat "$tmp/build-b.log" >&2; echo "moved_checkout_check: $tree was not found stale" >&2; exit 1; }
  grep -qx "CMAKE_CACHEFILE_DIR:INTERNAL=$tmp/b/$tree" "$tmp/b/$tree/CMakeCache.txt" ||
    { echo "moved_checkout_check: $tree was not configured again in the moved checkout" >&2; exit 1; }
done
after=$(packed "$tmp/b") || { tail -30 "$tmp/pack.log" >&2; echo "moved_checkout_check: npm pack failed in the moved checkout" >&2; exit 1; }
if [ "$before" != "$after" ]; then
  diff <(echo "$before") <(echo "$after") >&2 || true
  echo "moved_checkout_check: npm pack from the moved checkout packs other files" >&2
  exit 1
fi
grep -qx 'dist/nettrace_wasm.wasm' <<<"$after" || { echo "moved_checkout_check: the package has no wasm module" >&2; exit 1; }
echo "moved checkout: configured again in both trees; npm pack lists the same $(wc -l <<<"$after") files"
