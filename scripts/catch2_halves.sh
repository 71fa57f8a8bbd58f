#!/usr/bin/env bash
# A Catch2 binary run as two processes at once, one per core: the [corpus] tests (the real
# traces, the heavier share) in the background, the others in front. The background half's
# output is printed after it ends, whole when it failed, its last lines when it passed.
#   scripts/catch2_halves.sh BINARY [SPEC]    SPEC narrows both halves (e.g. '~[memory]')
set -uo pipefail
bin=$1
spec=${2:-}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$bin" "[corpus]$spec" >"$log" 2>&1 &
corpus=$!
rc=0
"$bin" "~[corpus]$spec" || rc=1
if wait "$corpus"; then tail -n 2 "$log"; else cat "$log"; rc=1; fi
exit $rc
