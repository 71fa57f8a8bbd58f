#!/usr/bin/env bash
# Instructions per event (callgrind: repeatable on a shared, noisy machine) of `nettrace
# summary` against the reading ceiling — `nettrace_bench walk`, the format decoders alone
# (every block and event header decoded, payloads skipped, nothing kept) — on the same file.
# The target: summary <= 3x the walk (docs/performance.md). Run by `npm run bench` after the build.
#   scripts/bench_instructions.sh [FILE...]   (default: a rundown-heavy v4 trace, the
#                                              issue's sample-heavy trace (only_managed_samples
#                                              written 20 times back to back: nettrace_bench
#                                              repeat), a v5 trace with tasks and a written v6 trace,
#                                              in a thread's bursts as runtimes write, and the same
#                                              events interleaved thread by thread: the sorter's
#                                              worst case, which no runtime writes; a .NET 10
#                                              exception-heavy trace, and HeartRateMonitor
#                                              converted to v6)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
  echo "instructions per event skipped: valgrind is not installed (apt install valgrind)"
  exit 0
fi
files=("$@")
if ((${#files[@]} == 0)); then
  written=build/bench/written-bursts-40mb.nettrace
  interleaved=build/bench/written-interleaved-40mb.nettrace
  mkdir -p build/bench
  [ -f "$written" ] || build/native/tests/nettrace_bench generate "$written" --size-mb 40 >/dev/null 2>&1
  [ -f "$interleaved" ] || build/native/tests/nettrace_bench generate "$interleaved" --size-mb 40 --interleaved >/dev/null 2>&1
  samples=build/bench/only-managed-samples-x20.nettrace
  [ -f "$samples" ] || build/native/tests/nettrace_bench repeat build/native/testdata/only_managed_samples.nettrace \
    "$samples" 20 >/dev/null
  v6=build/bench/HeartRateMonitor-v6.nettrace  # the same events in v6's ~900 KB blocks
  [ -f "$v6" ] || build/native/nettrace convert build/native/testdata/HeartRateMonitor.10068.nettrace "$v6" >/dev/null 2>&1
  files=(build/native/testdata/HeartRateMonitor.10068.nettrace "$samples"
    build/native/testdata/sentry-net6-profile-with-task.nettrace "$written" "$interleaved"
    build/native/testdata/dotnet10/net10-web-exceptions.nettrace "$v6")
fi
instructions() { # prints the Ir total of one command run under callgrind
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log"
  grep -o 'refs: *[0-9,]*' "$out.log" | tr -d ', ' | cut -d: -f2
  rm -f "$out" "$out.log"
}
printf '%-44s %10s %14s %14s %7s\n' file events walk/event summary/event ratio
for f in "${files[@]}"; do
  events=$(build/native/tests/nettrace_bench walk "$f" | grep -o '"events":[0-9]*' | cut -d: -f2)
  walk=$(instructions build/native/tests/nettrace_bench walk "$f")
  summary=$(instructions build/native/nettrace summary "$f")
  awk -v f="$(basename "$f")" -v e="$events" -v w="$walk" -v s="$summary" \
    'BEGIN { printf "%-44s %10d %14.0f %14.0f %6.1fx\n", f, e, w / e, s / e, s / w }'
done
