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
