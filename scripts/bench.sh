#!/usr/bin/env bash
# `npm run bench`: reading speed of the native CLI, the wasm package in Node and in headless
# Chromium, on the largest real trace (HeartRateMonitor, 28 MiB; median of 5 runs each), then
# instructions per event of `nettrace summary` vs a decoders-only walk (callgrind), then
# the flame graph view's drawing in Chromium on a written trace of ~270k nodes
# (tests/bench/flame_bench.mjs), thread time with async stitching native and in the app
# (tests/bench/thread_time_bench.mjs), and last the reading speed on a written trace of >= 1 GB
# (BENCH_BIG_MB, default 1100; 1 run each; BENCH_BIG_MB=0 skips). On both the largest real
# trace and the big one: File reading alone vs parsing alone vs the open, from the File's
# stream() and by slices with and without reads ahead, and the CPU each took (tests/bench/read_bench.mjs);
# on 56 M events, event pages in wasm (tests/bench/event_page_bench.mjs).
# Builds first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC
export NODE_PATH=/usr/share/nodejs # Debian's emscripten finds acorn there (wasm link step)
quiet() {
  local log
  log=$(mktemp)
  "$@" >"$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}
# Set-up only installs what is missing; the build is incremental (the app bench needs the site).
quiet bash scripts/setup.sh
quiet bash scripts/build.sh
node scripts/bench.mjs "${1:-build/native/testdata/HeartRateMonitor.10068.nettrace}"
# Which part of opening a File is reading and which is parsing, from its stream() and by slices
# (tests/bench/read_bench.mjs: Chromium worker and Node, median of 5).
echo
node tests/bench/read_bench.mjs "${1:-build/native/testdata/HeartRateMonitor.10068.nettrace}" || echo "read bench skipped: the browser benchmark failed to run"
# Small traces (~2, ~10, ~30 MB) dropped on the web app against `nettrace summary`: first page
# load, next open, reload, a drop before the engine is ready, and a first open's parts
# (tests/bench/small_open_bench.mjs: interleaved rounds, a fresh Chromium profile each).
echo
node tests/bench/small_open_bench.mjs || echo "small-open bench skipped: the browser benchmark failed to run"
# Instructions per event of the whole read vs the format decoders alone (callgrind).
echo
bash scripts/bench_instructions.sh
# Events/s against pyroscope's Go reader (dotnetdiag), built from its public source only when
# go is installed (scripts/bench_pyroscope.sh).
echo
bash scripts/bench_pyroscope.sh || echo "pyroscope peer failed: see above"
# Against TraceEvent's streaming reader and TraceLog, built from tests/bench/traceevent only
# where dotnet is installed (scripts/bench_traceevent.sh).
echo
bash scripts/bench_traceevent.sh || echo "TraceEvent peer failed: see above"
# The flame graph view in Chromium on a written trace of ~270k nodes (regenerated: ~1 s).
if [ -x build/native/tests/nettrace_bench ]; then
  mkdir -p build/bench
  flame=build/bench/flame-16k.nettrace
  build/native/tests/nettrace_bench generate-flame "$flame" >/dev/null
  echo
  node tests/bench/flame_bench.mjs "$flame" || echo "flame-chrome skipped: the browser benchmark failed to run"
fi
# Thread time with and without async stitching, native and in the app, on the real traces
# with the most CPU samples (the written traces have none).
echo
node tests/bench/thread_time_bench.mjs build/native/testdata/HeartRateMonitor.10068.nettrace \
  build/native/testdata/dotnet10/net10-cpu-async-http.nettrace \
  build/native/testdata/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace ||
  echo "thread-time bench skipped: the browser benchmark failed to run"
big_mb=${BENCH_BIG_MB:-1100}
if [ "$big_mb" != 0 ] && [ -x build/native/tests/nettrace_bench ]; then
  big=build/bench/written-bursts-${big_mb}mb.nettrace
  mkdir -p build/bench
  [ -f "$big" ] || build/native/tests/nettrace_bench generate "$big" --size-mb "$big_mb" >/dev/null
  echo
  node scripts/bench.mjs "$big" --runs 1
  # The web app itself on the big trace, opened through its file input.
  echo
  node tests/bench/app_bench.mjs "$big" || echo "app bench skipped: the browser benchmark failed to run"
  echo
  node tests/bench/read_bench.mjs "$big" --runs 1 || echo "read bench skipped: the browser benchmark failed to run"
  # Event pages at the start, middle and end of 56 M events (only_managed_samples written 1,490
  # times), unfiltered and by type and thread, in wasm (tests/bench/event_page_bench.mjs).
  pages=build/bench/samples-x1490.nettrace
  [ -f "$pages" ] || build/native/tests/nettrace_bench repeat build/native/testdata/only_managed_samples.nettrace "$pages" 1490 >/dev/null
  echo
  node tests/bench/event_page_bench.mjs "$pages"
fi
