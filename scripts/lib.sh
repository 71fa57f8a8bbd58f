# Sourced by the other scripts.
# step NAME CMD...  runs CMD and prints "== NAME: ok (12.3 s)" or "== NAME: FAILED (exit 1, 12.3 s)";
# returns CMD's exit status (so under set -e a failed step stops the script). CMD runs as a
# background job and is waited for: a shell function run directly in `cmd || …` would have
# set -e switched off inside it, so a failing command in its middle would go unnoticed.
step() {
  local name=$1
  shift
  local start rc=0
  start=$(date +%s%N)
  echo "== $name"
  "$@" &
  wait $! || rc=$?
  local tenths=$((($(date +%s%N) - start) / 100000000))
  if ((rc)); then
    printf '== %s: FAILED (exit %d, %d.%d s)\n' "$name" "$rc" $((tenths / 10)) $((tenths % 10))
    return "$rc"
  fi
  printf '== %s: ok (%d.%d s)\n' "$name" $((tenths / 10)) $((tenths % 10))
}

# fresh_cmake_tree DIR [KEEP...]: empties the CMake build tree DIR but for its entries KEEP
# (with one line saying why) when this checkout did not make it, so that the cmake run after
# it configures afresh instead of failing. A checkout that was moved or copied keeps a CMakeCache.txt naming the old paths, which cmake
# refuses ("The current CMakeCache.txt directory … is different than the directory … where
# CMakeCache.txt was created"), and ninja files that name the old sources; a tree made with a
# compiler, ninja, toolchain file or emscripten sysroot/cache that is gone cannot build either.
fresh_cmake_tree() {
  local dir=$1 cache=$1/CMakeCache.txt why='' key value
  shift
  [ -f "$cache" ] || return 0
  value=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")
  [ "$(realpath -m "$value")" = "$(realpath -m "$dir")" ] || why="it was made in $value"
  value=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  [ -n "$why" ] || [ "$(realpath -m "$value")" = "$(realpath -m .)" ] || why="it builds the sources in $value"
  for key in CMAKE_CXX_COMPILER CMAKE_C_COMPILER CMAKE_MAKE_PROGRAM CMAKE_TOOLCHAIN_FILE CMAKE_INSTALL_PREFIX; do
    [ -z "$why" ] || break
    value=$(sed -n "s/^$key:[A-Z]*=//p" "$cache" | head -n 1)
    [[ $value != /* ]] || [ -e "$value" ] || why="its $key $value is gone"
  done
  [ -n "$why" ] || return 0
  echo "build: $dir is not this checkout's build tree ($why): removing it to configure it again"
  local entry
  for entry in "$dir"/* "$dir"/.[!.]*; do
    [ -e "$entry" ] || continue
    for key in "$@"; do [ "${entry##*/}" != "$key" ] || continue 2; done
    rm -rf "$entry"
  done
}
