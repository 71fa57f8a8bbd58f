#!/usr/bin/env bash
# Our whole read (`nettrace summary`) against TraceEvent 4.0.0's readers on the same traces:
# EventPipeEventSource (streaming, keeps nothing) and TraceLog (indexed, as PerfView opens a
# trace), through tests/bench/traceevent (a small C# program, built here where `dotnet` exists;
# skipped with one line otherwise). Run by `npm run bench` after the build.
#   scripts/bench_traceevent.sh [FILE...]   (default: HeartRateMonitor, the .NET 10 exceptions
#                                           trace, only_managed_samples written 20 times, and
#                                           HeartRateMonitor converted to v6)
# ROUNDS (default 5) rounds, the readers interleaved; medians of each process's wall time, and
# of the read time the TraceEvent program reports (without the .NET runtime's start-up).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
ROUNDS=${ROUNDS:-5}
BIN=build/bench/traceevent/bin/traceevent-bench
if ! command -v dotnet >/dev/null 2>&1; then
  echo "TraceEvent peer skipped: dotnet is not installed"
  exit 0
fi
if [ ! -x build/native/nettrace ] || [ ! -x build/native/tests/nettrace_bench ]; then
  echo "TraceEvent peer skipped: build/native is not built (bash scripts/build.sh)"
  exit 0
fi
mkdir -p build/bench
if ! nice -n 10 dotnet build tests/bench/traceevent/TraceEventBench.csproj -c Release -o build/bench/traceevent/bin \
  -nologo >build/bench/traceevent-build.log 2>&1; then
  echo "TraceEvent peer skipped: its build failed (build/bench/traceevent-build.log)"
  exit 0
fi
files=("$@")
if ((${#files[@]} == 0)); then
  samples=build/bench/only-managed-samples-x20.nettrace
  [ -f "$samples" ] || build/native/tests/nettrace_bench repeat build/native/testdata/only_managed_samples.nettrace \
    "$samples" 20 >/dev/null
  v6=build/bench/HeartRateMonitor-v6.nettrace
  [ -f "$v6" ] || build/native/nettrace convert build/native/testdata/HeartRateMonitor.10068.nettrace "$v6" >/dev/null 2>&1
  files=(build/native/testdata/HeartRateMonitor.10068.nettrace build/native/testdata/dotnet10/net10-web-exceptions.nettrace
    "$samples" "$v6")
fi
ms() { # wall milliseconds of one command, its output discarded
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-40s %9s %9s %11s %11s %11s %8s %8s\n' file events ours_ms te_wall_ms te_read_ms log_read_ms te/ours log/ours
for f in "${files[@]}"; do
  events=$(build/native/tests/nettrace_bench walk "$f" | grep -o '"events":[0-9]*' | cut -d: -f2)
  ours="" tew="" ter="" logr=""
  for ((r = 0; r < ROUNDS; r++)); do
    ours+=" $(ms build/native/nettrace summary "$f")"
    start=$(date +%s%N)
    out=$("$BIN" stream "$f")
    tew+=" $((($(date +%s%N) - start) / 1000000))"
    ter+=" $(echo "$out" | grep -o '"readMs":[0-9.]*' | cut -d: -f2)"
    logr+=" $("$BIN" tracelog "$f" | grep -o '"readMs":[0-9.]*' | cut -d: -f2)"
  done
  o=$(echo "$ours" | median) w=$(echo "$tew" | median) t=$(echo "$ter" | median) l=$(echo "$logr" | median)
  awk -v f="$(basename "$f")" -v e="$events" -v o="$o" -v w="$w" -v t="$t" -v l="$l" \
    'BEGIN { if (o < 1) o = 1; printf "%-40s %9d %9.0f %11.0f %11.0f %11.0f %7.1fx %7.1fx\n", f, e, o, w, t, l, t / o, l / o }'
done
echo "(te/ours, log/ours: TraceEvent's read time, streaming and TraceLog, over our whole process's wall time)"
