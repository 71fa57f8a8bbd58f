#!/usr/bin/env bash
# Events/s of our whole read (`nettrace summary`) against pyroscope's Go NetTrace reader
# (github.com/pyroscope-io/dotnetdiag, Apache-2.0), the target: ours >= 3x the Go reader
# on the same v4 traces. Run by `npm run bench` after the build.
#
# The Go reader is built here from its public source, only when `go` is installed (this
# script never installs it), and none of its code is committed: tests/bench/pyroscope/ holds
# only our harness, which drives the reader with dotnetdiag's own SampleProfiler, as its test does.
#   source: DOTNETDIAG_SRC (a checkout, or a git repository whose HEAD is taken) when set,
#           else `git clone --depth 1` of the public repository; copied to build/bench/dotnetdiag
#   build:  offline (GOPROXY=off, GOFLAGS=-mod=mod, caches under build/bench): dotnetdiag's
#           nettrace packages import only the standard library
#
#   scripts/bench_pyroscope.sh [FILE...]   (default: HeartRateMonitor, only_managed_samples
#                                           written 20 times back to back, and every other
#                                           committed v4/v5 trace the Go reader accepts)
# Each trace is read once by both to compare event counts, then ROUNDS (default 5) rounds
# with the two readers interleaved (and, for context, the Go reader without the profiler's
# handlers and `nettrace_bench walk`, our decoders alone); medians of the wall time of each
# process, and of the read time each process reports.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROUNDS=${ROUNDS:-5}
REPO_URL=https://github.com/pyroscope-io/dotnetdiag
SRC=build/bench/dotnetdiag
HARNESS=tests/bench/pyroscope
BIN=build/bench/pyroscope-bench

if ! command -v go >/dev/null 2>&1; then
  echo "pyroscope peer skipped: go is not installed"
  exit 0
fi
if [ ! -x build/native/nettrace ] || [ ! -x build/native/tests/nettrace_bench ]; then
  echo "pyroscope peer skipped: build/native is not built (bash scripts/build.sh)"
  exit 0
fi
mkdir -p build/bench

# --- the reader's source, copied to $SRC (never into the tree)
fetch_source() {
  local tmp=$SRC.tmp
  rm -rf "$tmp"
  if [ -n "${DOTNETDIAG_SRC:-}" ]; then
    mkdir -p "$tmp"
    if [ -f "$DOTNETDIAG_SRC/nettrace/nettrace.go" ]; then
      tar -C "$DOTNETDIAG_SRC" --exclude=.git -cf - . | tar -C "$tmp" -xf -
      echo "directory $DOTNETDIAG_SRC" >"$tmp/.origin"
    elif git --git-dir="$DOTNETDIAG_SRC" rev-parse HEAD >/dev/null 2>&1 ||
      git -C "$DOTNETDIAG_SRC" rev-parse HEAD >/dev/null 2>&1; then
      local gitdir
      gitdir=$(git -C "$DOTNETDIAG_SRC" rev-parse --absolute-git-dir 2>/dev/null || echo "$DOTNETDIAG_SRC")
      git --git-dir="$gitdir" archive HEAD | tar -C "$tmp" -xf -
      echo "git $DOTNETDIAG_SRC @ $(git --git-dir="$gitdir" rev-parse --short=12 HEAD)" >"$tmp/.origin"
    else
      echo "pyroscope peer skipped: DOTNETDIAG_SRC=$DOTNETDIAG_SRC is neither a dotnetdiag checkout nor a git repository"
      rm -rf "$tmp"
      return 1
    fi
  elif GIT_TERMINAL_PROMPT=0 timeout 120 git clone -q --depth 1 "$REPO_URL" "$tmp" >/dev/null 2>&1; then
    echo "git $REPO_URL @ $(git -C "$tmp" rev-parse --short=12 HEAD)" >"$tmp/.origin"
    rm -rf "$tmp/.git"
  else
    rm -rf "$tmp"
    echo "pyroscope peer skipped: could not clone $REPO_URL (no network?); set DOTNETDIAG_SRC to a checkout or git repository of it"
    return 1
  fi
  rm -rf "$SRC"
  mv "$tmp" "$SRC"
}
# A given DOTNETDIAG_SRC is copied afresh each run; a clone is made once and kept.
if [ -n "${DOTNETDIAG_SRC:-}" ] || [ ! -f "$SRC/nettrace/nettrace.go" ]; then
  fetch_source || exit 0
fi
if ! grep -q 'Apache License' "$SRC/LICENSE" 2>/dev/null; then
  echo "pyroscope peer skipped: $SRC/LICENSE is not the Apache License this benchmark expects"
  exit 0
fi

# --- our harness, built offline against that source (go.mod's replace points at $SRC)
export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local GOTELEMETRY=off GOWORK=off
export GOCACHE=$PWD/build/bench/go-cache GOPATH=$PWD/build/bench/go-path GOMODCACHE=$PWD/build/bench/go-path/pkg/mod
if ! (cd "$HARNESS" && go build -o "$OLDPWD/$BIN" .) >build/bench/pyroscope-build.log 2>&1; then
  echo "pyroscope peer skipped: the Go reader did not build offline (build/bench/pyroscope-build.log):"
  head -5 build/bench/pyroscope-build.log
  exit 0
fi
# Packages outside the standard library the harness links: ours and dotnetdiag's, nothing else.
outside=$(cd "$HARNESS" && go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' . |
  grep -v -e '^nettrace-analyzer/' -e '^github.com/pyroscope-io/dotnetdiag/' || true)
if [ -n "$outside" ]; then
  echo "pyroscope peer skipped: the Go reader imports packages outside the standard library: $outside"
  exit 0
fi

# --- the traces
files=("$@")
if ((${#files[@]} == 0)); then
  samples=build/bench/only-managed-samples-x20.nettrace
  [ -f "$samples" ] || build/native/tests/nettrace_bench repeat build/native/testdata/only_managed_samples.nettrace \
    "$samples" 20 >/dev/null
  files=(build/native/testdata/HeartRateMonitor.10068.nettrace "$samples")
  for f in build/native/testdata/*.nettrace build/native/testdata/dotnet10/*.nettrace; do
    case $f in *HeartRateMonitor*) continue ;; esac
    files+=("$f")
  done
fi

json_field() { # json_field KEY...: the value at KEY (then the next KEY inside it) of the JSON on stdin
  python3 -c 'import json, sys
v = json.load(sys.stdin)
for key in sys.argv[1:]: v = v[key]
print(v)' "$@"
}
echo "pyroscope peer: github.com/pyroscope-io/dotnetdiag (Apache-2.0; $(cat "$SRC/.origin" 2>/dev/null || echo "origin unknown")), $(go version | cut -d' ' -f3)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

# Event counts first (one untimed read each, which also warms the page cache): both readers
# must hand out the same events, or the events/s would not compare like with like.
used=()
declare -A events
for f in "${files[@]}"; do
  name=$(basename "$f")
  if ! go_out=$("$BIN" "$f" 2>&1); then
    echo "$name: skipped, the Go reader refuses it: $(echo "$go_out" | json_field error 2>/dev/null || echo "$go_out")"
    continue
  fi
  summary=$(build/native/nettrace summary "$f")
  ours=$(echo "$summary" | json_field eventCount)
  major=$(echo "$summary" | json_field format major)
  theirs=$(echo "$go_out" | json_field events)
  if [ "$ours" != "$theirs" ]; then
    echo "$name: event counts differ: ours $ours, the Go reader $theirs (compared anyway, on each reader's own count)"
  fi
  used+=("$f")
  events[$f,ours]=$ours
  events[$f,go]=$theirs
  events[$f,v]=v$major
done

# The floor of a process's wall time here: a static C program that returns at once, started
# and waited for the same way (when a C compiler is present). A trace of a few events is read
# in well under it, so ours >= 3x go there needs ours below what starting any process costs.
FLOOR_BIN=build/bench/empty-process
if [ ! -x "$FLOOR_BIN" ] && command -v cc >/dev/null 2>&1; then
  printf 'int main(void) { return 0; }\n' >build/bench/empty-process.c
  cc -O2 -static -o "$FLOOR_BIN" build/bench/empty-process.c 2>/dev/null ||
    cc -O2 -o "$FLOOR_BIN" build/bench/empty-process.c 2>/dev/null || rm -f "$FLOOR_BIN"
fi

# ROUNDS interleaved rounds; the order alternates so neither reader always runs first. Each
# process is timed from outside (wall time, its start included) and reports its own read
# time (the Go harness from open to the end; `nettrace_bench read --runs 1` the same read as
# `summary`, in a child process, without the start or the JSON output, in a heap readied as
# the CLI readies it).
declare -A times
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timed() { # timed KEY CMD...: runs CMD with its stdout in $out; its wall time joins times[KEY]
  local key=$1
  shift
  local t0=$EPOCHREALTIME
  "$@" >"$out"
  local t1=$EPOCHREALTIME
  times[$key]+=" $t0,$t1"
}
reported() { # reported KEY FIELD: the number FIELD of the JSON in $out joins times[KEY]
  times[$1]+=" $(grep -o "\"$2\":[0-9.e+-]*" "$out" | cut -d: -f2)"
}
ours() {
  timed "$1,ours" build/native/nettrace summary "$1"
  timed "$1,ours-read" build/native/tests/nettrace_bench read "$1" --runs 1
  # eventsPerSecond has more digits than medianSeconds (0.1 ms): the seconds come from it.
  times[$1,ours-in]+=" $(grep -o '"eventsPerSecond":[0-9.]*' "$out" | cut -d: -f2 |
    awk -v e="${events[$1,ours]}" '{ printf "%.7f", e / $1 }')"
}
theirs() {
  timed "$1,go" "$BIN" "$1"
  reported "$1,go-in" seconds
  timed "$1,reader" "$BIN" -reader-only "$1"
  reported "$1,reader-in" seconds
}
for ((r = 0; r < ROUNDS; r++)); do
  for f in "${used[@]}"; do
    if ((r % 2 == 0)); then
      ours "$f"
      theirs "$f"
    else
      theirs "$f"
      ours "$f"
    fi
    timed "$f,walk" build/native/tests/nettrace_bench walk "$f"
    if [ -x "$FLOOR_BIN" ]; then timed "$f,floor" "$FLOOR_BIN"; else times[$f,floor]+=" 0"; fi
  done
done
median() { # of the numbers (or "start,end" wall-time pairs) on stdin
  tr ' ' '\n' | grep . | awk -F, 'NF == 2 { printf "%.6f\n", $2 - $1; next } { print $1 }' |
    sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

width=5
for f in "${used[@]}"; do
  name=$(basename "$f")
  ((${#name} > width)) && width=${#name}
done
row() { # row FILE KEY...: the file's name, format, events and the median of each KEY
  local f=$1
  shift
  printf '%s %s %s %s' "$(basename "$f")" "${events[$f,v]}" "${events[$f,ours]}" "${events[$f,go]}"
  for key in "$@"; do printf ' %s' "$(echo "${times[$f,$key]}" | median)"; done
  echo
}
cat <<EOT
Median of $ROUNDS rounds; events/s = events / that time; the target is ours >= 3x go.
  ours         build/native/nettrace summary FILE (the whole read: store, summary, symbols)
  go           the Go reader with dotnetdiag's SampleProfiler handlers, as its own test reads a trace
  go-reader    the Go reader alone (-reader-only: blocks, headers and metadata decoded, no profiler)
  walk         build/native/tests/nettrace_bench walk FILE (our format decoders alone)
  floor-ms     a static C program that returns at once (build/bench/empty-process): no process
               is started and waited for faster; ">=3x" says "floor" where go-ms / 3 is below it

Wall time of each process (its start included, which is most of a trace of a few thousand events):
EOT
printf "%-${width}s %3s %8s %8s %10s %8s %10s %7s %5s %10s %8s\n" trace fmt events ours-ms ours-ev/s \
  go-ms go-ev/s ratio '>=3x' walk-ev/s floor-ms
for f in "${used[@]}"; do row "$f" ours go walk floor; done | awk -v width="$width" '{
  ro = $3 / $5; rg = $4 / $6
  verdict = ro >= 3 * rg ? "yes" : ($8 > 0 && $6 / 3 < $8 ? "floor" : "no")
  printf "%-" width "s %3s %8d %8.1f %10.0f %8.1f %10.0f %6.2fx %5s %10.0f %8.2f\n", $1, $2, $3, $5 * 1000, ro,
    $6 * 1000, rg, ro / rg, verdict, $3 / $7, $8 * 1000 }'
echo
echo "The read as each process times it (ours: nettrace_bench read --runs 1; go: open to the end):"
printf "%-${width}s %3s %8s %8s %10s %8s %10s %7s %4s %12s %7s\n" trace fmt events ours-ms ours-ev/s \
  go-ms go-ev/s ratio '>=3x' go-reader-ms ratio
for f in "${used[@]}"; do row "$f" ours-in go-in reader-in; done | awk -v width="$width" '{
  ro = $3 / $5; rg = $4 / $6; rb = $4 / $7
  printf "%-" width "s %3s %8d %8.2f %10.0f %8.2f %10.0f %6.2fx %4s %12.2f %6.2fx\n", $1, $2, $3, $5 * 1000, ro,
    $6 * 1000, rg, ro / rg, (ro >= 3 * rg ? "yes" : "no"), $7 * 1000, ro / rb }'
echo "load after: $(uptime | sed 's/.*load average/load average/')"
